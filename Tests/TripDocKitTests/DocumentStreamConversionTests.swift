import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// The one-pass conversion gives exactly what the in-memory conversion gives, and hands the
/// documents it cannot convert in one pass back to it.
@Suite struct DocumentStreamConversionTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// The bytes (and remap table) of a one-pass conversion of `source`.
    func streamed(_ source: Data, from format: any DocumentFormat, to output: any DocumentFormat, store: String = "NEW")
        throws -> (Data, RemapTable?)
    {
        var bytes = Data()
        let table = try DocumentStreamConversion.convert(
            source, path: "in.\(format.name)", format: format, limits: .standard, to: output, storeIdentifier: store,
            wantsRemapTable: true, sink: { bytes.append(contentsOf: $0) })
        return (bytes, table)
    }

    /// The bytes (and remap table) of the in-memory conversion.
    func inMemory(_ source: Data, from format: any DocumentFormat, to output: any DocumentFormat, store: String = "NEW")
        throws -> (Data, RemapTable)
    {
        let file = try DocumentFile.read(source, path: "in.\(format.name)")
        let conversion = try DocumentConversion(source: file, storeIdentifier: store)
        return (try output.writeDocument(conversion.document), RemapTable(conversion))
    }

    /// Converts `document`, written in each format, into each format both ways: the bytes and
    /// the remap tables must agree.
    func expectOnePassAgreesWithMemory(on document: Document, _ label: String) throws {
        for input in Self.formats {
            let source = try input.writeDocument(document)
            for output in Self.formats {
                let (bytes, table) = try streamed(source, from: input, to: output)
                let (expected, expectedTable) = try inMemory(source, from: input, to: output)
                #expect(bytes == expected, "\(label): \(input.name) → \(output.name)")
                #expect(table == expectedTable, "\(label): \(input.name) → \(output.name)")
            }
        }
    }

    @Test(arguments: 1...12)
    func everyPairOfFormatsGivesTheInMemoryBytes(seed: Int) throws {
        var generator = RandomDocuments(seed: UInt64(seed))
        try expectOnePassAgreesWithMemory(on: generator.document(), "seed \(seed)")
    }

    @Test func historyAndTokensMoveWithTheDocument() throws {
        let document = try SampleTrips.documentWithHistory(trips: 30)
        #expect(!document.history.isEmpty)
        try expectOnePassAgreesWithMemory(on: document, "history")
    }

    @Test func anEmptyDocumentConvertsWithTheSameRemapTable() throws {
        let empty = SampleTrips.document(trips: 0)
        try expectOnePassAgreesWithMemory(on: empty, "empty")
        let (_, table) = try streamed(try JSONFormat().writeDocument(empty), from: JSONFormat(), to: JSONFormat())
        #expect(table?.fromStore == empty.storeIdentifier)
    }

    @Test func aDocumentWithProblemsIsRefusedWithTheCheckersProblems() throws {
        var document = SampleTrips.document(trips: 20)
        let index = try #require(document.snapshots.firstIndex { $0.entityName == "Trip" })
        document.snapshots[index]["livingAccommodation"] = .reference(
            document.identifier(entityName: "LivingAccommodation", primaryKey: "999"))
        let expected = IntegrityChecker().problems(in: document)
        #expect(!expected.isEmpty)
        for input in Self.formats {
            let source = try input.writeDocument(document)
            do {
                _ = try streamed(source, from: input, to: JSONFormat())
                Issue.record("\(input.name): a document with problems was converted")
            } catch TripDocError.documentHasProblems(_, let problems) {
                #expect(problems == expected, "\(input.name)")
            }
        }
    }

    @Test func snapshotsOutOfOrderAreLeftToTheInMemoryConversion() throws {
        let text = """
            {"header": {"format": "tripdoc", "formatVersion": 1, "generator": "hand", "nextPrimaryKeys": {},
             "schemaVersion": "1.0.0", "storeIdentifier": "S"},
             "schema": {"entities": [{"attributes": [{"name": "name", "optional": false, "options": [], "type": "String"}],
               "indices": [], "name": "Tag", "relationships": [], "uniquenessConstraints": []}], "version": "1.0.0"},
             "snapshots": {"Tag": [{"$id": "2", "name": "b"}, {"$id": "1", "name": "a"}]}}
            """
        #expect(throws: DocumentStreamConversion.Unavailable.self) {
            _ = try streamed(Data(text.utf8), from: JSONFormat(), to: JSONFormat())
        }
        // The in-memory conversion sorts them.
        let (bytes, _) = try inMemory(Data(text.utf8), from: JSONFormat(), to: JSONFormat())
        let written = try JSONFormat().readDocument(from: bytes, file: "out.json")
        #expect(written.snapshots.map(\.persistentIdentifier.primaryKey) == ["1", "2"])
    }

    @Test func aHistoryAfterTheSnapshotsIsLeftToTheInMemoryConversion() throws {
        let document = try SampleTrips.documentWithHistory(trips: 3)
        var text = String(decoding: try JSONFormat().writeDocument(document), as: UTF8.self)
        // Move the history member to the end of the root object.
        let start = try #require(text.range(of: "\n  \"history\": "))
        let end = try #require(text.range(of: "\n  \"schema\": "))
        let history = String(text[start.lowerBound..<end.lowerBound]).dropLast()  // without its comma
        text.removeSubrange(start.lowerBound..<end.lowerBound)
        let close = try #require(text.range(of: "\n}", options: .backwards))
        text.replaceSubrange(close, with: "," + history + "\n}")
        let source = Data(text.utf8)
        #expect(try JSONFormat().readDocument(from: source, file: "in.json").history == document.history)
        #expect(throws: DocumentStreamConversion.Unavailable.self) {
            _ = try streamed(source, from: JSONFormat(), to: PlistFormat())
        }
    }

    @Test func aWriterErrorOnTheOtherThreadReachesTheCaller() throws {
        var document = SampleTrips.document(trips: 2)
        let index = try #require(document.snapshots.firstIndex { $0.entityName == "Trip" })
        document.snapshots[index]["destination"] = .string(String(repeating: "x", count: PlistFormat.maximumValueLength + 1))
        let source = try JSONFormat().writeDocument(document)
        #expect(throws: DocumentWriteError.self) {
            _ = try streamed(source, from: JSONFormat(), to: PlistFormat())
        }
    }

    @Test func aDamagedSourceReportsWhereAfterSomeOutputWasMade() throws {
        let source = try JSONFormat().writeDocument(SampleTrips.document(trips: 5000))
        var damaged = source
        damaged.removeLast(200)
        var handed = 0
        #expect(throws: DocumentReadError.self) {
            _ = try DocumentStreamConversion.convert(
                damaged, path: "in.json", format: JSONFormat(), limits: .standard, to: JSONFormat(),
                storeIdentifier: "NEW", wantsRemapTable: false, sink: { handed += $0.count })
        }
        // The caller discards what was handed over (the command line writes it to a temporary file).
        #expect(handed > 0)
    }
}
