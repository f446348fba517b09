import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// A format of someone else's that implements only what ``StructuredReader`` and
/// ``StructuredWriter`` require gets the protocols' defaults for the fast paths tripdoc's own
/// formats implement (`nextKey(matching:)`, `readString(utf8:)`, `writeString(plainASCII:)`),
/// and reads and writes the same documents.
@Suite struct MinimalFormatTests {
    /// JSON's reader with only the required methods: the fast paths come from the protocol.
    struct RequiredOnlyReader: StructuredReader {
        var inner: JSONReader

        var bookmark: JSONReader.Bookmark { mutating get { inner.bookmark } }
        mutating func resume(at bookmark: JSONReader.Bookmark) { inner.resume(at: bookmark) }
        func location(of bookmark: JSONReader.Bookmark) -> TripDocCore.SourceLocation { inner.location(of: bookmark) }
        mutating func peekKind() throws -> StructuredValueKind { try inner.peekKind() }
        mutating func beginObject() throws { try inner.beginObject() }
        mutating func nextKey() throws -> String? { try inner.nextKey() }
        mutating func beginArray() throws { try inner.beginArray() }
        mutating func nextElement() throws -> Bool { try inner.nextElement() }
        mutating func readString() throws -> String { try inner.readString() }
        mutating func readBool() throws -> Bool { try inner.readBool() }
        mutating func readInt64() throws -> Int64 { try inner.readInt64() }
        mutating func readUInt64() throws -> UInt64 { try inner.readUInt64() }
        mutating func readDouble() throws -> Double { try inner.readDouble() }
        mutating func readFloat() throws -> Float { try inner.readFloat() }
        mutating func readData() throws -> Data { try inner.readData() }
        mutating func readDate() throws -> Date { try inner.readDate() }
        mutating func skipValue() throws { try inner.skipValue() }
        mutating func finish() throws { try inner.finish() }
    }

    /// JSON's writer with only the required methods.
    struct RequiredOnlyWriter: StructuredWriter {
        var inner = JSONWriter()

        mutating func beginObject() { inner.beginObject() }
        mutating func key(_ key: String) { inner.key(key) }
        mutating func endObject() { inner.endObject() }
        mutating func beginArray() { inner.beginArray() }
        mutating func endArray() { inner.endArray() }
        mutating func writeBool(_ value: Bool) { inner.writeBool(value) }
        mutating func writeInt(_ value: Int64) { inner.writeInt(value) }
        mutating func writeUInt(_ value: UInt64) { inner.writeUInt(value) }
        mutating func writeDouble(_ value: Double) { inner.writeDouble(value) }
        mutating func writeFloat(_ value: Float) { inner.writeFloat(value) }
        mutating func writeString(_ value: String) { inner.writeString(value) }
        mutating func writeNull() { inner.writeNull() }
        mutating func writeData(_ value: Data) { inner.writeData(value) }
    }

    @Test func writesTheSameBytesAsTheFormatsOwnWriter() throws {
        let document = EdgeCaseDocuments.document()
        var writer = RequiredOnlyWriter()
        try DocumentEncoder().encode(document, to: &writer)
        #expect(writer.inner.data == (try JSONFormat().writeDocument(document)))
    }

    @Test func readsTheSameDocumentAsTheFormatsOwnReader() throws {
        let data = try JSONFormat().writeDocument(EdgeCaseDocuments.document())
        let read = try data.withUnsafeBytes { bytes in
            var reader = RequiredOnlyReader(inner: JSONReader(bytes: bytes))
            return try DocumentDecoder().decode(from: &reader, file: "minimal.json")
        }
        #expect(read == (try JSONFormat().readDocument(from: data, file: "doc.json", limits: .standard)))
    }

    /// The error `data` gets when read with `reader`'s kind of reader.
    static func readError(_ data: Data, minimal: Bool) -> DocumentReadError? {
        data.withUnsafeBytes { bytes in
            do {
                if minimal {
                    var reader = RequiredOnlyReader(inner: JSONReader(bytes: bytes))
                    _ = try DocumentDecoder().decode(from: &reader, file: "doc.json")
                } else {
                    var reader = JSONReader(bytes: bytes)
                    _ = try DocumentDecoder().decode(from: &reader, file: "doc.json")
                }
                return nil
            } catch {
                return error as? DocumentReadError
            }
        }
    }

    @Test func refusesWhatTheFormatsOwnReaderRefusesWithTheSameMessage() throws {
        // A key that is not a property, and a snapshot's date that is not a date.
        let text = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        let snapshots = try #require(text.range(of: "\"snapshots\""))
        let date = try #require(text[snapshots.upperBound...].firstRange(of: /"\d{4}-\d\d-\d\dT[^"]*"/))
        var badDate = text
        badDate.replaceSubrange(date, with: "\"tomorrow\"")
        for damaged in [text.replacingOccurrences(of: "\"$id\"", with: "\"$idx\""), badDate] {
            let own = try #require(Self.readError(Data(damaged.utf8), minimal: false))
            let minimal = try #require(Self.readError(Data(damaged.utf8), minimal: true))
            #expect(minimal.message == own.message)
            #expect(minimal.location == own.location)
            #expect(minimal.keyPath == own.keyPath)
        }
    }
}
