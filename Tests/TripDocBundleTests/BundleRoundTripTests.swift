import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

@Suite struct BundleRoundTripTests {
    let bundle = BundleFormat()

    /// The edge-case document with its `data` attribute kept in external storage.
    static func externalDocument(dataOf size: Int? = nil) -> Document {
        var document = EdgeCaseDocuments.document()
        var entities = document.schema.entities
        let index = entities[0].attributes.firstIndex { $0.name == "data" }!
        entities[0].attributes[index].options = [.externalStorage]
        document.schema = Schema(entities, version: document.schema.version)
        if let size {
            var random = SystemRandomNumberGenerator()
            document.snapshots[1]["data"] = .data(Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
        return document
    }

    @Test func everyAttributeTypeRoundTripsBundleJSONPlist() throws {
        let document = EdgeCaseDocuments.document()
        let ordered = Document(header: document.header, schema: document.schema, snapshots: document.orderedSnapshots)
        let fromBundle = try bundle.readDocument(from: bundle.writeDocument(document), file: "a.tripbundle")
        #expect(fromBundle == ordered)
        let viaJSON = try JSONFormat().readDocument(from: JSONFormat().writeDocument(fromBundle), file: "b.json")
        let viaPlist = try PlistFormat().readDocument(from: PlistFormat().writeDocument(viaJSON), file: "c.plist")
        let back = try bundle.readDocument(from: bundle.writeDocument(viaPlist), file: "d.tripbundle")
        #expect(back == ordered)
        #expect(try bundle.writeDocument(back) == bundle.writeDocument(document))
    }

    /// The edge-case document with a string of 17 million letters (`seed` picks them) that do not
    /// compress much, so its entry passes the compression-ratio cap and is over 16 MiB.
    static func largeDocument(seed: UInt64) -> Document {
        var document = EdgeCaseDocuments.document()
        var state = seed
        let letters = (0..<17_000_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(ascii: "a") + UInt8((state >> 33) % 26)
        }
        document.snapshots[1]["string"] = .string(String(decoding: letters, as: UTF8.self))
        return document
    }

    /// An entry over 16 MiB is inflated into a temporary file and read from there; a stream
    /// writes it through a temporary file too. Both give back the document and its bytes.
    @Test func anEntryLargerThanSixteenMebibytesRoundTripsThroughTemporaryFiles() throws {
        let document = Self.largeDocument(seed: 7)
        let ordered = Document(header: document.header, schema: document.schema, snapshots: document.orderedSnapshots)
        let bytes = try bundle.writeDocument(document)
        #expect(try bundle.readDocument(from: bytes, file: "big.tripbundle") == ordered)
        var streamed = Data()
        var writer = bundle.makeStreamWriter { streamed.append(contentsOf: $0) }
        try writer.write(document)
        #expect(streamed == bytes)
    }

    /// A large entry is inflated on one thread and hashed and spooled on another: damage in the
    /// middle of it is reported, naming the entry, and stops both.
    @Test func damageInsideALargeEntryIsReportedWithItsName() throws {
        let bytes = try bundle.writeDocument(Self.largeDocument(seed: 11))
        for offset in [bytes.count / 3, bytes.count / 2] {
            var damaged = bytes
            damaged[offset] ^= 0x55
            #expect {
                _ = try bundle.readDocument(from: damaged, file: "big.tripbundle")
            } throws: { error in
                "\(error)".contains("snapshots/Everything.json")
            }
        }
    }

    @Test func aFiveMegabyteExternalValueIsItsOwnEntryAndRoundTrips() throws {
        let document = Self.externalDocument(dataOf: 5_000_000)
        let bytes = try bundle.writeDocument(document)
        let entries = try bundle.entryReports(of: bytes, file: "x")
        let external = entries.filter { $0.name.hasPrefix("external/") }
        #expect(external.map(\.size).contains(5_000_000))
        #expect(entries.filter { $0.name.hasPrefix("snapshots/") }.allSatisfy { $0.size < 100_000 })
        let read = try bundle.readDocument(from: bytes, file: "x")
        #expect(read.orderedSnapshots[1]["data"] == document.snapshots[1]["data"])
        // The other formats keep the same value inline.
        let viaJSON = try JSONFormat().readDocument(from: JSONFormat().writeDocument(read), file: "y")
        #expect(viaJSON.orderedSnapshots[1]["data"] == document.snapshots[1]["data"])
    }

    @Test func equalExternalValuesAreStoredOnce() throws {
        var document = Self.externalDocument()
        document.snapshots[0]["data"] = .data(Data("same".utf8))
        document.snapshots[2]["data"] = .data(Data("same".utf8))
        let entries = try bundle.entryReports(of: bundle.writeDocument(document), file: "x")
        #expect(entries.filter { $0.name.hasPrefix("external/") }.count == 2)  // "same" and snapshot 2's bytes
    }

    @Test func theLayoutIsFixed() throws {
        let entries = try bundle.entryReports(of: bundle.writeDocument(EdgeCaseDocuments.document()), file: "x")
        #expect(entries.map(\.name) == ["manifest.json", "header.json", "schema.json", "snapshots/Everything.json"])
        #expect(entries.allSatisfy { $0.crc == "ok" })
        #expect(entries.dropFirst().allSatisfy { $0.digest == "ok" })
    }

    @Test func zipToolsReadOurBundles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("every.tripbundle").path
        try bundle.writeDocument(Self.externalDocument(dataOf: 100_000)).write(to: URL(fileURLWithPath: path))
        let checks: [(tool: String, arguments: [String])] = [
            ("unzip", ["-tq", path]),
            ("bsdtar", ["-tf", path]),
            ("python3", ["-c", "import sys, zipfile; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)", path]),
        ]
        for check in checks {
            guard let tool = ExternalTool.find(check.tool) else {
                print("skipped: \(check.tool) is not installed, so it cannot check the bundle")
                continue
            }
            #expect(try ExternalTool.run(tool, check.arguments, discardOutput: true) == 0, "\(check.tool)")
        }
    }

    @Test func recognisesZipArchives() {
        #expect(bundle.recognizes(Data([0x50, 0x4B, 0x03, 0x04, 0x14])))
        #expect(!bundle.recognizes(Data("{".utf8)))
    }
}
