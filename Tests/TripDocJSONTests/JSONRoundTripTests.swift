import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

@Suite struct JSONRoundTripTests {
    let format = JSONFormat()

    @Test func everyAttributeTypeAndEdgeValueRoundTripsExactly() throws {
        let document = EdgeCaseDocuments.document()
        let data = try format.writeDocument(document)
        let read = try format.readDocument(from: data, file: "every-type.json")
        #expect(read.header == document.header)
        #expect(read.schema == document.schema)
        for (written, back) in zip(document.orderedSnapshots, read.orderedSnapshots) {
            for (name, value) in written.values {
                #expect(back[name] == value, "\(written.persistentIdentifier).\(name)")
            }
        }
        #expect(read == Document(header: document.header, schema: document.schema, snapshots: document.orderedSnapshots))
    }

    @Test func theSameDocumentGivesTheSameBytes() throws {
        var shuffled = EdgeCaseDocuments.document()
        shuffled.snapshots.reverse()
        #expect(try format.writeDocument(shuffled) == format.writeDocument(EdgeCaseDocuments.document()))
        let again = try format.readDocument(from: format.writeDocument(shuffled), file: "x")
        #expect(try format.writeDocument(again) == format.writeDocument(shuffled))
    }

    /// The committed fixture is the specification's example of every type; re-record it with
    /// TRIPDOC_RECORD=1 when the format changes on purpose.
    @Test func matchesTheCommittedEveryTypeDocument() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/every-type", withExtension: "json"))
        let written = try format.writeDocument(EdgeCaseDocuments.document())
        if ProcessInfo.processInfo.environment["TRIPDOC_RECORD"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/every-type.json")
            try written.write(to: source)
        }
        #expect(written == (try Data(contentsOf: url)))
    }

    @Test func pythonsJSONParserAcceptsTheOutput() throws {
        guard let python = ExternalTool.find("python3") else {
            print("skipped: python3 is not installed")
            return
        }
        let path = NSTemporaryDirectory() + "tripdoc-\(UUID().uuidString).json"
        try format.writeDocument(EdgeCaseDocuments.document()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let status = try ExternalTool.run(python, ["-m", "json.tool", path], discardOutput: true)
        #expect(status == 0)
    }

    @Test func aDocumentWrittenByAnotherProgramInAnyKeyOrderReads() throws {
        // Python's json.dump with sort_keys puts "header" first but may reorder anything; the
        // reader must accept members in any order and any whitespace.
        let text = """
            {"snapshots": {"Everything": []},
             "schema": {"version": "1.0.0", "entities": [{"name": "Everything", "uniquenessConstraints": [],
               "relationships": [], "indices": [], "attributes": [
                 {"type": "Date", "name": "when", "options": [], "optional": false, "defaultValue": "2020-02-29T12:00:00.25Z"}]}]},
             "header": {"storeIdentifier": "S", "schemaVersion": "1.0.0", "formatVersion": 1, "format": "tripdoc",
                        "generator": "hand", "nextPrimaryKeys": {}}}
            """
        let document = try format.readDocument(from: Data(text.utf8), file: "hand.json")
        let attribute = try #require(document.schema.entity(named: "Everything")?.attribute(named: "when"))
        #expect(attribute.defaultValue == .date(DateCoding.date(from: "2020-02-29T12:00:00.25Z")!))
    }

    @Test func recognisesJSONByItsFirstByte() {
        #expect(format.recognizes(Data("  \n{\"header\"".utf8)))
        #expect(format.recognizes(Data([0xEF, 0xBB, 0xBF, UInt8(ascii: "{")])))
        #expect(!format.recognizes(Data("<?xml version".utf8)))
        #expect(!format.recognizes(Data()))
    }
}

@Suite struct JSONWriteRefusalTests {
    @Test(arguments: [
        ("int8", SnapshotValue.string("seven"), "holds a String, expected Int8"),
        ("dates", .array([.null]), "holds an array, expected [Date]"),
        ("parent", .reference(PersistentIdentifier(storeIdentifier: "S", entityName: "Other", primaryKey: "1")),
         "expected a reference to a Everything"),
    ])
    func aValueThatDoesNotFitTheSchemaIsRefusedNotWritten(property: String, value: SnapshotValue, message: String) throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[0][property] = value
        #expect {
            try JSONFormat().writeDocument(document)
        } throws: { error in
            "\(error)".hasPrefix("cannot write Everything/1.\(property): it ") && "\(error)".contains(message)
        }
    }
}
