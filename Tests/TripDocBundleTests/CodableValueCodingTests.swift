import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// The coding of `Codable` attribute values (docs/FORMATS.md 3.10, 7.2, 7.3): one spelling per
/// value in every format, and strict readers and writers.
@Suite struct CodableValueCodingTests {
    static let schema = Schema([
        Schema.Entity(
            name: "Note", attributes: [.init("body", .codable), .init("extra", .codable, isOptional: true)])
    ])

    static func document(_ body: SnapshotValue, extra: SnapshotValue = .null) -> Document {
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: document.identifier(entityName: "Note", primaryKey: "1"),
                values: ["body": body, "extra": extra])
        ]
        document.header.nextPrimaryKeys = ["Note": 2]
        return document
    }

    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    @Test func everyKindReadsBackEqualInEveryFormat() throws {
        let value = SnapshotValue.composite([
            "nil": .null, "list": .array([.int(1), .null, .array([]), .composite([:])]),
            "big": .uint(UInt64.max), "small": .int(Int64.min), "whole": .double(3), "negativeZero": .double(-0.0),
            "text": .string("a\u{1}b"), "": .string(""), "flag": .bool(false), "&<key>": .string("NaN"),
        ])
        let document = Self.document(value, extra: .array([.null]))
        for format in Self.formats {
            let read = try format.readDocument(from: format.writeDocument(document), file: "note")
            #expect(read.snapshots.first?.values["body"] == value, "\(format)")
            #expect(read.snapshots.first?.values["extra"] == .array([.null]), "\(format)")
            #expect(try format.writeDocument(read) == format.writeDocument(document))
        }
    }

    @Test(arguments: [
        SnapshotValue.double(.nan), .uint(5), .float(1), .date(Date(timeIntervalSinceReferenceDate: 0)),
        .data(Data([1])), .composite(["a\u{0}": .int(1)]), .array([.decimal(1)]),
    ])
    func theWriterRefusesAValueWithoutItsOneSpelling(value: SnapshotValue) throws {
        #expect(!value.isCodableValue)
        for format in Self.formats {
            #expect(throws: DocumentWriteError.self) { try format.writeDocument(Self.document(value)) }
        }
    }

    func readJSON(body: String) throws -> SnapshotValue? {
        let text = String(decoding: try JSONFormat().writeDocument(Self.document(.int(0))), as: UTF8.self)
            .replacingOccurrences(of: #""body":0"#, with: #""body":"# + body)
        return try JSONFormat().readDocument(from: Data(text.utf8), file: "note.json").snapshots.first?.values["body"]
    }

    @Test func theJSONReaderTakesKindsAsTheyAreAndRefusesTheRest() throws {
        #expect(try readJSON(body: "[1.0,1,1e2,-0,9223372036854775808]")
            == .array([.double(1), .int(1), .double(100), .int(0), .uint(9_223_372_036_854_775_808)]))
        #expect(try readJSON(body: #"{"b":null,"a":"x"}"#) == .composite(["a": .string("x"), "b": .null]))
        for bad in ["18446744073709551616", "-9223372036854775809", #"{"a":1,"a":2}"#, #"{"a\u0001":1}"#] {
            #expect(throws: DocumentReadError.self, "\(bad)") { try readJSON(body: bad) }
        }
    }

    @Test func aPropertyListsNilIsAnEmptyDataAndOtherProgramsSpellingsAreRead() throws {
        let written = String(decoding: try PlistFormat().writeDocument(Self.document(.array([.null, .string("a\u{1}")]))), as: UTF8.self)
        #expect(written.contains("<key>body</key><array><data></data><data>YQE=</data></array>"))
        let other = written.replacingOccurrences(
            of: "<array><data></data><data>YQE=</data></array>",
            with: "<array><real>nan</real><date>2024-06-01T09:30:00Z</date></array>")
        let read = try PlistFormat().readDocument(from: Data(other.utf8), file: "note.plist")
        #expect(read.snapshots.first?.values["body"] == .array([.string("NaN"), .string("2024-06-01T09:30:00Z")]))
    }
}
