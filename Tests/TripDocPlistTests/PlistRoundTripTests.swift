import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

@Suite struct PlistRoundTripTests {
    let plist = PlistFormat()
    let json = JSONFormat()

    func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
    }

    @Test func everyAttributeTypeAndEdgeValueRoundTripsJSONToPlistToJSON() throws {
        let document = EdgeCaseDocuments.document()
        let jsonBytes = try json.writeDocument(document)
        let fromJSON = try json.readDocument(from: jsonBytes, file: "a.json")
        let plistBytes = try plist.writeDocument(fromJSON)
        let fromPlist = try plist.readDocument(from: plistBytes, file: "a.plist")
        #expect(fromPlist == fromJSON)
        #expect(try json.writeDocument(fromPlist) == jsonBytes)
    }

    @Test func theSameDocumentGivesTheSameBytes() throws {
        var shuffled = EdgeCaseDocuments.document()
        shuffled.snapshots.reverse()
        let bytes = try plist.writeDocument(shuffled)
        #expect(bytes == (try plist.writeDocument(EdgeCaseDocuments.document())))
        #expect(try plist.writeDocument(plist.readDocument(from: bytes, file: "x")) == bytes)
    }

    @Test func stringsXMLCannotCarryTravelAsData() throws {
        let bytes = try plist.writeDocument(EdgeCaseDocuments.document())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<key>string</key><data>"))
        #expect(text.contains("<key>string</key><string>middle</string>"))
        #expect(text.contains("&quot;") == false)
        #expect(text.contains("\"quoted\"") == false)  // the control-character string is data
    }

    @Test func carriageReturnsAndMarkupSurviveAsText() throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[2]["string"] = .string("a\r\nb <tag> & \"q\" 'apos' \u{1F5FC}")
        let bytes = try plist.writeDocument(document)
        #expect(String(decoding: bytes, as: UTF8.self).contains("<string>a&#13;\nb &lt;tag&gt; &amp; \"q\" 'apos' \u{1F5FC}</string>"))
        let read = try plist.readDocument(from: bytes, file: "x")
        #expect(read.orderedSnapshots[2]["string"] == document.snapshots[2]["string"])
    }

    /// The parser is fed a quarter of a megabyte at a time: text, escapes, character references
    /// and tags that straddle the boundaries between chunks read back whole, and every value
    /// lands in the snapshot it was written in.
    @Test func aDocumentOfManyParserChunksReadsBackWhole() throws {
        var document = EdgeCaseDocuments.document()
        let template = document.snapshots[0]
        let piece = "a\r\nb <tag> & \"q\" 'apos' \u{1F5FC} "
        for index in 0..<1_500 {
            var snapshot = template
            let key = String(1_000 + index)
            snapshot.persistentIdentifier = EdgeCaseDocuments.identifier(key)
            // Lengths that shift every boundary: from a few bytes to over a chunk (index 7).
            let repeats = index == 7 ? 12_000 : (index * 37) % 200
            snapshot["string"] = .string(key + String(repeating: piece, count: repeats))
            snapshot["parent"] = .null
            snapshot["children"] = .references([])
            document.snapshots.append(snapshot)
        }
        let bytes = try plist.writeDocument(document)
        #expect(bytes.count > 4 << 20)
        let read = try plist.readDocument(from: bytes, file: "big.plist")
        #expect(read == document)
        #expect(try plist.writeDocument(read) == bytes)
    }

    @Test func aPlistWrittenByPythonsPlistlibOpens() throws {
        let fromPython = try plist.readDocument(from: Data(contentsOf: fixture("python-written.plist")), file: "p.plist")
        let fromJSON = try json.readDocument(from: Data(contentsOf: fixture("trips.json")), file: "t.json")
        #expect(fromPython == fromJSON)
    }

    @Test func pythonsPlistlibReadsOurOutputWithTheSameValues() throws {
        guard let python = ExternalTool.find("python3") else {
            print("skipped: python3 is not installed, so plistlib cannot be checked")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, document) in [("edge", EdgeCaseDocuments.document()), ("trips", try json.readDocument(from: Data(contentsOf: fixture("trips.json")), file: "t"))] {
            let plistURL = folder.appendingPathComponent("\(name).plist")
            let jsonURL = folder.appendingPathComponent("\(name).json")
            try plist.writeDocument(document).write(to: plistURL)
            try json.writeDocument(document).write(to: jsonURL)
            let status = try ExternalTool.run(
                python, [try fixture("compare_with_json.py").path, plistURL.path, jsonURL.path], discardOutput: false)
            #expect(status == 0, "\(name)")
        }
    }

    @Test func recognisesPlistsByTheirFirstBytes() {
        #expect(plist.recognizes(Data("<?xml version=\"1.0\"".utf8)))
        #expect(plist.recognizes(Data("\n<plist version=\"1.0\">".utf8)))
        #expect(!plist.recognizes(Data("{\"header\"".utf8)))
    }
}
