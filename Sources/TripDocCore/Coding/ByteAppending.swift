/// Appending text to a byte buffer without going through `String`'s generic UTF-8 view, for the
/// format writers: a literal is one copy, a number is its digits written in place.
extension Array where Element == UInt8 {
    /// Appends the bytes of a literal.
    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 of `text`, copied whole.
    package mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, with a leading `-` when it is negative.
    package mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends the decimal digits of `value`.
    package mutating func appendDecimal(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8, read in place for a native or small string: unlike
    /// `withUTF8`, which needs a mutable copy (a reference counted on every call, and the writers
    /// call it for every key and value).
    @inlinable
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
