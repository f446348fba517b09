import Foundation
import TripDoc

/// The reader of a snapshot line once its key (the entity's name) has been read: it hands the
/// line's array of snapshots to ``DocumentDecoder/decodeSnapshots(of:from:storeIdentifier:file:keyPath:counted:into:)``
/// as if it were the whole input, and at the end checks that the line's object closes there.
/// Everything else is the line's `JSONReader`.
struct SnapshotLineReader: StructuredReader {
    var line: JSONReader

    mutating func finish() throws {
        let end = line.bookmark
        guard try line.nextKey() == nil else {
            throw StructuredReadError(
                location: line.location(of: end), message: "a snapshot line holds one entity's snapshots, found another member")
        }
        try line.finish()
    }

    var bookmark: JSONReader.Bookmark { mutating get { line.bookmark } }
    mutating func resume(at bookmark: JSONReader.Bookmark) { line.resume(at: bookmark) }
    func location(of bookmark: JSONReader.Bookmark) -> SourceLocation { line.location(of: bookmark) }
    mutating func peekKind() throws -> StructuredValueKind { try line.peekKind() }
    mutating func beginObject() throws { try line.beginObject() }
    mutating func nextKey() throws -> String? { try line.nextKey() }
    mutating func nextKey(matching expected: String) throws -> StructuredKeyMatch? { try line.nextKey(matching: expected) }
    mutating func beginArray() throws { try line.beginArray() }
    mutating func nextElement() throws -> Bool { try line.nextElement() }
    mutating func readString() throws -> String { try line.readString() }
    mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        try line.readString(utf8: body)
    }
    mutating func readBool() throws -> Bool { try line.readBool() }
    mutating func readInt64() throws -> Int64 { try line.readInt64() }
    mutating func readUInt64() throws -> UInt64 { try line.readUInt64() }
    mutating func readDouble() throws -> Double { try line.readDouble() }
    mutating func readFloat() throws -> Float { try line.readFloat() }
    mutating func readData() throws -> Data { try line.readData() }
    mutating func readDate() throws -> Date { try line.readDate() }
    mutating func skipValue() throws { try line.skipValue() }
}
