import Foundation

/// The syntax half of a document format's writer: the shared ``DocumentEncoder`` decides what
/// to write (keys, order, how a date or a decimal is spelled) and calls these; a format decides
/// only how each piece looks in its bytes.
///
/// Calls always nest properly: `beginObject`, then `key` and one value per member, then
/// `endObject`; `beginArray`, values, `endArray`. Keys arrive in the order to write them.
public protocol StructuredWriter {
    mutating func beginObject()
    mutating func key(_ key: String)
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    mutating func writeBool(_ value: Bool)
    mutating func writeInt(_ value: Int64)
    mutating func writeUInt(_ value: UInt64)
    /// A finite double; the encoder spells non-finite values as strings.
    mutating func writeDouble(_ value: Double)
    /// A finite float, written with the digits that give back the same `Float`.
    mutating func writeFloat(_ value: Float)
    mutating func writeString(_ value: String)
    /// `nil` inside a ``AttributeType/codable`` value, the only `nil` a document writes
    /// (docs/FORMATS.md 3.10): JSON's `null`; a property list, which has no null, an empty `<data>`.
    mutating func writeNull()
    /// A string of printable ASCII that no format escapes (letters, digits, `-`, `:`, `.`, `+`),
    /// such as a date's text, as its bytes: a format may copy them without looking.
    mutating func writeString(plainASCII text: UnsafeBufferPointer<UInt8>)
    /// Bytes: a format writes them natively (`<data>`) or as base64 text.
    mutating func writeData(_ value: Data)
    /// The bytes of an attribute marked `.externalStorage`: a format that can keep them apart
    /// (the bundle's entries) does; others write them like any data.
    mutating func writeData(_ value: Data, externalStorage: Bool)
}

extension StructuredWriter {
    public mutating func writeData(_ value: Data, externalStorage: Bool) { writeData(value) }
    public mutating func writeString(plainASCII text: UnsafeBufferPointer<UInt8>) {
        writeString(String(decoding: text, as: UTF8.self))
    }
}

/// A ``StructuredWriter`` that collects its bytes in a buffer the caller can empty as it goes,
/// so that a document is written in pieces of bounded size.
public protocol DrainableStructuredWriter: StructuredWriter {
    /// How many bytes are waiting in the buffer.
    var bufferedByteCount: Int { get }
    /// Hands the buffered bytes to `output` and empties the buffer.
    mutating func drain(into output: (UnsafeRawBufferPointer) throws -> Void) rethrows
}

