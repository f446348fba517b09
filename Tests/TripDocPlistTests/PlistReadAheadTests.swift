import Foundation
import Testing
import TripDocCore
@testable import TripDocPlist
import TripDocTestSupport

/// A property list of more than one parser chunk (256 KiB) is parsed on a thread of its own,
/// ahead of the reader: what the reader reports must not depend on it.
@Suite struct PlistReadAheadTests {
    let plist = PlistFormat()

    /// About 3 MB: a dozen chunks.
    static func largeDocument() -> Document {
        var document = EdgeCaseDocuments.document()
        let template = document.snapshots[0]
        for index in 0..<6_000 {
            var snapshot = template
            let key = String(1_000 + index)
            snapshot.persistentIdentifier = EdgeCaseDocuments.identifier(key)
            snapshot["string"] = .string("text of \(key)")
            snapshot["parent"] = .null
            snapshot["children"] = .references([])
            document.snapshots.append(snapshot)
        }
        return document
    }

    static func lines(before offset: Int, in bytes: Data) -> Int {
        bytes.prefix(offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    @Test func anXMLErrorChunksInIsReportedOnItsLine() throws {
        var bytes = try plist.writeDocument(Self.largeDocument())
        #expect(bytes.count > 12 * (1 << 18))
        // A broken end tag three quarters in.
        let target = try #require(bytes.range(of: Data("</string>".utf8), in: (bytes.count * 3 / 4)..<bytes.count))
        bytes.replaceSubrange(target, with: Data("</strin>!".utf8))
        let line = Self.lines(before: target.lowerBound, in: bytes)
        let error = try #require(throws: DocumentReadError.self) { try plist.readDocument(from: bytes, file: "big.plist") }
        #expect(error.message.hasPrefix("the XML is not well-formed: "), "\(error)")
        #expect(error.location?.line == line, "\(error)")
    }

    /// A value of the wrong type in the first snapshot stops reading at once; the parsing thread,
    /// chunks ahead, is stopped with it and leaves nothing running.
    @Test func readingThatStopsEarlyStopsTheParsingThread() throws {
        var bytes = try plist.writeDocument(Self.largeDocument())
        let target = try #require(bytes.range(of: Data("<key>int8</key><integer>".utf8)))
        let end = try #require(bytes.range(of: Data("</integer>".utf8), in: target.upperBound..<bytes.count))
        bytes.replaceSubrange(target.lowerBound..<end.upperBound, with: Data("<key>int8</key><string>oops</string>".utf8))
        for _ in 0..<20 {
            let error = try #require(throws: DocumentReadError.self) { try plist.readDocument(from: bytes, file: "big.plist") }
            #expect(error.keyPath?.contains("int8") == true, "\(error)")
        }
        // Other tests running at the same time may have a parsing thread of their own for a moment.
        var parsing = Self.parsingThreads()
        for _ in 0..<500 where parsing > 0 {
            usleep(10_000)
            parsing = Self.parsingThreads()
        }
        #expect(parsing == 0)
    }

    /// A document whose schema comes after its snapshots is read by going back to the
    /// snapshots once the schema is known: the reader starts parsing again from the start,
    /// ahead on a new thread, and reads the same document.
    @Test func goingBackToEarlierSectionsParsesAgainFromTheStart() throws {
        let document = Self.largeDocument()
        let text = String(decoding: try plist.writeDocument(document), as: UTF8.self)
        let schema = try #require(text.range(of: "\t<key>schema</key>"))
        let snapshots = try #require(text.range(of: "\t<key>snapshots</key>"))
        let end = try #require(text.range(of: "</dict>\n</plist>", options: .backwards))
        #expect(schema.lowerBound < snapshots.lowerBound)
        let reordered =
            text[..<schema.lowerBound] + text[snapshots.lowerBound..<end.lowerBound]
            + text[schema.lowerBound..<snapshots.lowerBound] + text[end.lowerBound...]
        let bytes = Data(reordered.utf8)
        #expect(bytes.count > 12 * (1 << 18))
        #expect(try plist.readDocument(from: bytes, file: "reordered.plist") == document)
    }

    /// The parsing threads running in this process.
    static func parsingThreads() -> Int { XMLChunkParser.parsingThreads.load(ordering: .relaxed) }
}
