import Foundation

/// The kinds of value a ``StructuredReader`` can find next.
public enum StructuredValueKind: String, Sendable {
    case object, array, string, integer, real, bool, null, data, date

    /// The kind as messages name it: "an object", "a string", …
    public var article: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .bool: "a boolean"
        case .null: "null"
        case .data: "data"
        case .date: "a date"
        }
    }
}

/// The syntax half of a document format's reader: a pull parser the shared ``DocumentDecoder``
/// drives with the schema in hand, so values are decoded straight into their types.
///
/// Readers throw ``StructuredReadError`` with the location of the offending value.
public protocol StructuredReader {
    /// A position the reader can come back to.
    associatedtype Bookmark

    /// Whether a copy of a reader reads on its own, and may read on another thread while the
    /// original goes on (default `false`): the decoder then reads a document's history on one
    /// core while it reads the snapshots on the other. True of a reader over bytes in memory;
    /// not of one that keeps its parsing state in a shared object.
    static var copiesReadIndependently: Bool { get }

    /// The position of the next value.
    var bookmark: Bookmark { mutating get }
    /// Goes back (or forward) to a position taken from ``bookmark``.
    mutating func resume(at bookmark: Bookmark)
    /// Where a bookmark is, for messages.
    func location(of bookmark: Bookmark) -> SourceLocation

    /// The kind of the next value, without consuming it.
    mutating func peekKind() throws -> StructuredValueKind
    /// Consumes the start of an object.
    mutating func beginObject() throws
    /// The next member's key, or `nil` at the end of the object (which is then consumed).
    mutating func nextKey() throws -> String?
    /// As ``nextKey()``, when the caller knows which key most likely comes next: a reader may
    /// say that it is `expected` without making a string of it. An empty `expected` never
    /// matches.
    mutating func nextKey(matching expected: String) throws -> StructuredKeyMatch?
    /// Consumes the start of an array.
    mutating func beginArray() throws
    /// Whether another element follows; `false` at the end of the array (which is then consumed).
    mutating func nextElement() throws -> Bool
    mutating func readString() throws -> String
    /// Reads a string and hands its UTF-8 to `body`, returning what `body` returns: a reader
    /// may hand over its own bytes, without making a `String` (dates are read so).
    mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result
    mutating func readBool() throws -> Bool
    /// An integer that fits `Int64`; a number with a fraction or exponent is an error.
    mutating func readInt64() throws -> Int64
    /// A non-negative integer that fits `UInt64`.
    mutating func readUInt64() throws -> UInt64
    /// A number, rounded to the nearest `Double`.
    mutating func readDouble() throws -> Double
    /// A number, rounded to the nearest `Float` (directly from its text, not through `Double`).
    mutating func readFloat() throws -> Float
    /// Bytes, in whatever form the format writes them.
    mutating func readData() throws -> Data
    /// A native date, for formats that have one.
    mutating func readDate() throws -> Date
    /// Consumes the next value whatever it is.
    mutating func skipValue() throws
    /// Checks that nothing but whitespace follows the root value.
    mutating func finish() throws
}

extension StructuredReader {
    public static var copiesReadIndependently: Bool { false }

    public mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        try readString().withUTF8Bytes(body)
    }

    public mutating func nextKey(matching expected: String) throws -> StructuredKeyMatch? {
        try nextKey().map { StructuredKeyMatch(key: $0, expected: expected) }
    }
}

/// A key read by ``StructuredReader/nextKey(matching:)``.
public enum StructuredKeyMatch: Equatable, Sendable {
    /// The key expected.
    case expected
    /// Another key.
    case other(String)

    /// How `key` matches `expected`: an empty `expected` never does.
    public init(key: String, expected: String) {
        self = !expected.isEmpty && key == expected ? .expected : .other(key)
    }
}

/// Why a reader could not read what it was asked for.
public struct StructuredReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// What went wrong, as a sentence fragment: "expected a string, found a number".
    public var message: String
    /// Whether the bytes are malformed (`true`), or a well-formed value is not of the kind asked
    /// for (`false`: "expected a string, found a number").
    public var isMalformed: Bool
    /// What the user can do, when it is not "the file is damaged" (a limit that can be raised).
    public var hint: String?

    /// Creates an error.
    public init(location: SourceLocation, message: String, isMalformed: Bool = true, hint: String? = nil) {
        self.location = location
        self.message = message
        self.isMalformed = isMalformed
        self.hint = hint
    }

    public var description: String { "\(location): \(message)" }
}
