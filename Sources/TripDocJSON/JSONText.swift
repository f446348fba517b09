import TripDocCore

/// What JSON text allows as is: the one rule the reader and the writer share for the bytes of a
/// string between its quotes.
enum JSONText {
    /// Marks the bytes of `word` a JSON string cannot hold as they are: a quote, a backslash, a
    /// control character (see ``ByteWords``).
    @inline(__always)
    static func marksEscapes(_ word: UInt64) -> UInt64 {
        ByteWords.bytes(of: word, equalTo: UInt8(ascii: "\"")) | ByteWords.bytes(of: word, equalTo: UInt8(ascii: "\\"))
            | ByteWords.bytes(of: word, below: 0x20)
    }

    /// Whether `byte` must be escaped in a JSON string.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether `utf8` is written in a JSON string as its bytes (eight bytes at a time).
    static func isLiteral(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        // Up to the first byte to escape, or to the last few bytes, which are looked at one by one.
        let index = ByteWords.skipUnmarked(from: 0, to: utf8.count, in: base, marks: marksEscapes).position
        return !utf8[index...].contains(where: needsEscape)
    }
}
