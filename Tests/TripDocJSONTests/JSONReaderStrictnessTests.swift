import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// What the JSON reader refuses, and how it says so: the file, line and column, the key path,
/// and what was expected.
@Suite struct JSONReaderStrictnessTests {
    static let header =
        #""header":{"format":"tripdoc","formatVersion":1,"generator":"t","nextPrimaryKeys":{},"schemaVersion":"1.0.0","storeIdentifier":"S"}"#
    static let schema =
        #""schema":{"entities":[{"attributes":[{"name":"n","optional":false,"options":[],"type":"Int8"},{"name":"s","optional":true,"options":[],"type":"String"}],"indices":[],"name":"E","relationships":[{"deleteRule":"nullify","destination":"E","maximumModelCount":0,"minimumModelCount":0,"name":"next","toMany":false}],"uniquenessConstraints":[]}],"version":"1.0.0"}"#

    /// A document whose snapshots section is `snapshots`, on line 3.
    static func document(snapshots: String) -> String {
        "{\(header),\n\(schema),\n\"snapshots\":\(snapshots)}"
    }

    func readError(_ text: String) -> DocumentReadError? {
        do {
            _ = try JSONFormat().readDocument(from: Data(text.utf8), file: "doc.json")
            return nil
        } catch let error as DocumentReadError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    @Test func aValidDocumentReads() throws {
        let document = try JSONFormat().readDocument(
            from: Data(Self.document(snapshots: #"{"E":[{"$id":"1","n":-128,"next":"1"}]}"#).utf8), file: "doc.json")
        #expect(document.snapshots.count == 1)
        #expect(document.snapshots[0]["s"] == .null)
    }

    @Test(arguments: [
        (#"{"E":[{"$id":"1","n":"7"}]}"#, "line 3, column 34", "snapshots.E[0].n", "expected an integer, found a string"),
        (#"{"E":[{"$id":"1","n":128}]}"#, "line 3, column 34", "snapshots.E[0].n", "128 does not fit Int8"),
        (#"{"E":[{"$id":"1","n":1.5}]}"#, "line 3, column 34", "snapshots.E[0].n", "found a number with a fraction"),
        (#"{"E":[{"$id":"1","n":01}]}"#, "line 3, column 34", "snapshots.E[0].n", "leading zeros"),
        (#"{"E":[{"$id":"1"}]}"#, "line 3, column 19", "snapshots.E[0]", "no value for the non-optional attribute 'n'"),
        (#"{"E":[{"$id":"1","n":1,"n":2}]}"#, "line 3, column 40", "snapshots.E[0]", "'n' appears twice"),
        (#"{"E":[{"$id":"1","n":1,"colour":2}]}"#, "line 3, column 45", "snapshots.E[0]", "'colour' is not a property of E"),
        (#"{"E":[{"$id":"1","n":1,"":2}]}"#, "line 3, column 39", "snapshots.E[0]", "'' is not a property of E"),
        (#"{"E":[{"$id":"1","n":1,"next":null,"s":"x","":2}]}"#, "line 3, column 59", "snapshots.E[0]", "'' is not a property of E"),
        (#"{"E":[{"n":1,"$id":"1","$id":"2"}]}"#, "line 3, column 42", "snapshots.E[0]", "'$id' appears twice"),
        (#"{"E":[{"s":"x","n":1,"s":"y","$id":"1"}]}"#, "line 3, column 38", "snapshots.E[0]", "'s' appears twice"),
        (#"{"E":[{"$id":"1","n":1,"next":7}]}"#, "line 3, column 43", "snapshots.E[0].next", "expected the primary key of a E as a string"),
        (#"{"F":[]}"#, "line 3, column 18", "snapshots.F", "'F', which is not an entity"),
        (#"{"E":[{"$id":"1","n":1,}]}"#, "line 3, column 36", "snapshots.E[0]", "trailing comma"),
        ("{\"E\":[{\"$id\":\"1\",\"n\":1,\"s\":\"a\u{1}\"}]}", "line 3, column 42", "snapshots.E[0].s", "control character"),
        (#"{"E":[{"$id":"1","n":1,"s":"\ud800"}]}"#, "line 3, column 41", "snapshots.E[0].s", "unpaired surrogate"),
        (#"{"E":[{"$id":"1","n":1}]}"#, "line 3, column 40", "", "after the end of the document"),
    ])
    func malformedSnapshotsAreRefusedWithTheirPlace(snapshots: String, location: String, keyPath: String, message: String) throws {
        var text = Self.document(snapshots: snapshots)
        if message.contains("after the end") { text += " x" }
        let error = try #require(readError(text))
        #expect(error.file == "doc.json")
        #expect(error.location?.description == location)
        #expect((error.keyPath ?? "") == keyPath)
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aTruncatedDocumentSaysSo() throws {
        let text = Self.document(snapshots: #"{"E":[{"$id":"1","n":1}]}"#)
        let error = try #require(readError(String(text.dropLast(2))))
        #expect(error.message.contains("unexpected end of file"), "\(error)")
        #expect(error.location?.line == 3)
    }

    @Test func invalidUTF8IsRefused() throws {
        var bytes = Array(Self.document(snapshots: #"{"E":[{"$id":"1","n":1,"s":"ab"}]}"#).utf8)
        let index = bytes.lastIndex(of: UInt8(ascii: "a"))!
        bytes[index] = 0xFF
        let error = try #require(try? { () throws -> DocumentReadError? in
            do { _ = try JSONFormat().readDocument(from: Data(bytes), file: "doc.json") } catch let e as DocumentReadError { return e }
            return nil
        }())
        #expect(error.message.contains("not valid UTF-8"))
    }

    @Test func deepNestingIsRefusedWithoutCrashing() throws {
        // Snapshots before the header are skipped first, then read: the skip must be bounded too.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let text = "{\"snapshots\":{\"E\":\(deep)},\(Self.header),\(Self.schema)}"
        let error = try #require(readError(text))
        #expect(error.message.contains("nest deeper than the nesting-depth limit of 512 levels"))
        let direct = try #require(readError(Self.document(snapshots: #"{"E":[{"$id":"1","n":1,"s":"# + deep + "}]}")))
        #expect(direct.message.contains("expected a string, found an array"))
    }

    @Test(arguments: [
        ("[]", "expected an object with header, schema and snapshots, found an array"),
        (#"{"hello":1}"#, "unexpected member 'hello'"),
        (#"{"snapshots":{}}"#, "it has no 'header' member"),
        ("", "unexpected end of file"),
    ])
    func documentsThatAreNotTripdocAreNamedAsSuch(text: String, message: String) throws {
        let error = try #require(readError(text))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aNewerFormatVersionAsksForANewerTripdoc() throws {
        let text = Self.document(snapshots: "{}").replacingOccurrences(of: #""formatVersion":1"#, with: #""formatVersion":2"#)
        let error = try #require(readError(text))
        #expect(error.description.contains("format version 2 is not one this tripdoc reads"))
        #expect(error.keyPath == "header.formatVersion")
    }

    @Test func theMessageReadsAsOneSentenceWithAHint() throws {
        let error = try #require(readError(Self.document(snapshots: #"{"E":[{"$id":"1","n":"7"}]}"#)))
        #expect(
            error.description
                == "doc.json: line 3, column 34: at snapshots.E[0].n: expected an integer, found a string. "
                + "Fix the value in the file, or restore the document from a copy")
    }

    /// Dates written as text are read from the reader's bytes in place; escaped text, the
    /// non-finite spellings and text that is no date take the other ways.
    @Test func datesReadInPlaceAndOtherwise() throws {
        let written = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        let original = #""date":"2025-01-01T00:00:00.1234567Z""#
        #expect(written.contains(original))
        func date(_ replacement: String) throws -> SnapshotValue? {
            let text = written.replacingOccurrences(of: original, with: replacement)
            return try JSONFormat().readDocument(from: Data(text.utf8), file: "doc.json").orderedSnapshots[1]["date"]
        }
        let expected = EdgeCaseDocuments.document().orderedSnapshots[1]["date"]
        #expect(try date(original) == expected)
        #expect(try date(#""date":"2025-01-01T00:00:00.1234567Z""#) == expected)
        #expect(try date(#""date":"-Infinity""#) == .date(Date(timeIntervalSinceReferenceDate: -.infinity)))
        let error = try #require(readError(written.replacingOccurrences(of: original, with: #""date":"yesterday""#)))
        #expect(error.keyPath == "snapshots.Everything[1].date")
        #expect(error.message.contains(#"expected a date in ISO 8601 form such as "2024-06-01T09:30:00Z", found "yesterday""#), "\(error)")
    }

    /// An entity that was never validated may have a property called `$id`: its key is still
    /// the identifier's, and a second one is refused as before keys were matched by place.
    @Test func aPropertyCalledLikeTheIdentifierDoesNotTakeItsKey() throws {
        let entity = Schema.Entity(name: "E", attributes: [.init("$id", .string), .init("n", .int8)])
        let text = #"[{"$id":"1","$id":"2","n":1}]"#
        var collector = DocumentCollector()
        let schema = Schema([entity])
        try collector.begin(header: DocumentHeader(storeIdentifier: "S", schemaVersion: schema.version), schema: schema, history: nil)
        var count = 0
        let failure = try Data(text.utf8).withUnsafeBytes { bytes -> DocumentReadError? in
            var reader = JSONReader(bytes: bytes)
            do {
                _ = try DocumentDecoder().decodeSnapshots(
                    of: entity, from: &reader, storeIdentifier: "S", file: "e.json", keyPath: "E", counted: &count, into: &collector)
                return nil
            } catch let error as DocumentReadError {
                return error
            }
        }
        #expect(failure?.message.contains("'$id' appears twice") == true, "\(String(describing: failure))")
    }

    /// A to-many relationship's references are read one after another, snapshot after snapshot:
    /// a bad one is named by its place in its list, and the lists before it are whole.
    @Test func aBadReferenceInAToManyListIsNamedByItsPlace() throws {
        let written = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        #expect(written.contains(#""children":["1","3"]"#))
        let read = try JSONFormat().readDocument(from: Data(written.utf8), file: "every-type.json")
        #expect(read.orderedSnapshots.map { $0["children"] } == EdgeCaseDocuments.document().orderedSnapshots.map { $0["children"] })
        let damaged = written.replacingOccurrences(of: #""children":["1","3"]"#, with: #""children":["1",3]"#)
        let error = try #require(readError(damaged))
        #expect(error.keyPath == "snapshots.Everything[1].children[1]")
        #expect(error.message.contains("expected the primary key of a Everything as a string, found an integer"), "\(error)")
    }
}

/// Values Foundation would quietly repair or truncate are refused, so each value has one spelling.
@Suite struct JSONCanonicalValueTests {
    func readError(replacing old: String, with new: String) throws -> DocumentReadError? {
        let text = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        #expect(text.contains(old))
        do {
            _ = try JSONFormat().readDocument(from: Data(text.replacingOccurrences(of: old, with: new).utf8), file: "e.json")
            return nil
        } catch let error as DocumentReadError {
            return error
        }
    }

    @Test(arguments: [
        (#""url":"file:///""#, #""url":"a b""#, "expected a URL as RFC 3986 defines a URI reference"),
        (#""data":"""#, #""data":"AR==""#, "standard, padded base64"),
        (#""decimal":"-0.000000000000000000000000000001""#, #""decimal":"1234567890123456789012345678901234567890""#, "at most 38 significant digits"),
        (#""schemaVersion": "2.1.0""#, #""schemaVersion": "2.0.0""#, "differs from the schema's version 2.1.0"),
        (#""nextPrimaryKeys": {"#, #""nextPrimaryKeys": {"Ghost": 3, "#, "names 'Ghost', which is not an entity"),
    ])
    func isRefused(old: String, new: String, message: String) throws {
        let error = try #require(try readError(replacing: old, with: new))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func negativeZeroDatesKeepTheirSign() throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[0]["date"] = .date(Date(timeIntervalSinceReferenceDate: -0.0))
        let read = try JSONFormat().readDocument(from: JSONFormat().writeDocument(document), file: "x")
        #expect(read.orderedSnapshots[0]["date"] == .date(Date(timeIntervalSinceReferenceDate: -0.0)))
    }
}

/// A member name means the same however it is spelled: the reader's shortcut for names written
/// as tripdoc writes them must not change what other spellings mean.
@Suite struct JSONMemberNameTests {
    private func read(_ text: String) throws -> Document {
        try JSONFormat().readDocument(from: Data(text.utf8), file: "e.json")
    }

    @Test func escapedNamesAreTheSameNames() throws {
        let text = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        let escaped = text.replacingOccurrences(of: #""$id":"#, with: #""\u0024id":"#)
            .replacingOccurrences(of: #""string":"#, with: #""str\u0069ng":"#)
        #expect(escaped != text)
        #expect(try read(escaped) == EdgeCaseDocuments.document())
    }

    @Test func aNameThatOnlyStartsLikeTheExpectedOneIsAnotherName() throws {
        let text = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        let longer = text.replacingOccurrences(of: #""string":"#, with: #""stringy":"#)
        #expect(throws: DocumentReadError.self) { try read(longer) }
        do {
            _ = try read(longer)
        } catch let error as DocumentReadError {
            #expect(error.description.contains("'stringy' is not a property of Everything"))
        }
    }
}
