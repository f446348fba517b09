/// Eight bytes at a time: tests on a 64-bit word that say whether any of its bytes is one a
/// scanner must stop at, so that plain text (most of what documents hold) is passed over a word
/// per step instead of a byte. Each test sets the high bit of a byte that matches, and may also
/// set it in bytes after a match (a borrow), never in bytes before it and never in a word without
/// one: a word's result is non-zero exactly when one of its bytes matches, and its lowest set bit
/// is in the first byte that does (``firstMatch(_:)``). The tests are inlinable: the readers and
/// writers of other modules call them for every word.
public enum ByteWords {
    @usableFromInline static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @usableFromInline static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `offset`, the first in the lowest bits.
    @inlinable @inline(__always)
    public static func word(at offset: Int, in bytes: UnsafeRawPointer) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Marks the bytes of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    /// Marks the bytes of `word` less than `bound`, which is at most 0x80.
    @inlinable @inline(__always)
    public static func bytes(of word: UInt64, below bound: UInt8) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & highBits
    }

    /// Whether some byte of `word` is 0x80 or more (not ASCII).
    @inlinable @inline(__always)
    public static func hasNonASCII(_ word: UInt64) -> Bool { word & highBits != 0 }

    /// Passes over the bytes at `base` from `start` up to the first one `marks` marks, eight at a
    /// time while eight are left before `end`. Returns where it stopped — at that byte, or where
    /// fewer than eight are left (the caller goes on byte by byte) — and the words passed over,
    /// or-ed together (``hasNonASCII(_:)`` of it: whether a byte passed over is not ASCII).
    @inlinable @inline(__always)
    public static func skipUnmarked(
        from start: Int, to end: Int, in base: UnsafeRawPointer, marks: (UInt64) -> UInt64
    ) -> (position: Int, passed: UInt64) {
        var position = start
        var passed: UInt64 = 0
        while position + 8 <= end {
            let word = word(at: position, in: base)
            let marked = marks(word)
            if marked != 0 {
                let place = firstMatch(marked)
                if place > 0 { passed |= word & (UInt64.max >> (64 - 8 * place)) }
                return (position + place, passed)
            }
            passed |= word
            position += 8
        }
        return (position, passed)
    }

    /// Whether the `count` bytes at `a` and `b` are equal, compared eight at a time, inline: for
    /// the few bytes of a key or a literal, a call to `memcmp` cost more than the comparison.
    @inlinable @inline(__always)
    public static func areEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard word(at: offset, in: a) == word(at: offset, in: b) else { return false }
            offset += 8
        }
        while offset < count {
            guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self) else {
                return false
            }
            offset += 1
        }
        return true
    }

    /// The place (0 to 7) of the first byte marked in the non-zero `marks`.
    @inlinable @inline(__always)
    public static func firstMatch(_ marks: UInt64) -> Int { marks.trailingZeroBitCount >> 3 }
}
