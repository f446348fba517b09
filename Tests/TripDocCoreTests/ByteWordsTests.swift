import Testing
import TripDocCore

/// The word-at-a-time scan stops at the first marked byte wherever it falls, and reports the
/// bytes it passed over.
@Suite struct ByteWordsTests {
    func skip(_ text: [UInt8], to byte: UInt8) -> (position: Int, passed: UInt64) {
        text.withUnsafeBytes { bytes in
            ByteWords.skipUnmarked(from: 0, to: bytes.count, in: bytes.baseAddress!) { ByteWords.bytes(of: $0, equalTo: byte) }
        }
    }

    @Test func stopsAtTheFirstMarkedByteOrWhereAWordNoLongerFits() {
        for length in 1...40 {
            for place in 0..<length {
                var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                text[place] = UInt8(ascii: "\"")
                if place + 1 < length { text[place + 1] = UInt8(ascii: "\"") }
                let expected = place < length / 8 * 8 ? place : length / 8 * 8
                #expect(skip(text, to: UInt8(ascii: "\"")).position == expected, "length \(length), place \(place)")
            }
        }
    }

    @Test func thePassedBytesSayWhetherOneIsNotASCII() {
        let accented = Array("abcdéfghijklmnop\"".utf8)
        #expect(ByteWords.hasNonASCII(skip(accented, to: UInt8(ascii: "\"")).passed))
        let plain = Array("abcdefghij\"".utf8)
        #expect(!ByteWords.hasNonASCII(skip(plain, to: UInt8(ascii: "\"")).passed))
        // A non-ASCII byte after the stop is not counted.
        let after = Array("abcdefgh\"é".utf8)
        #expect(!ByteWords.hasNonASCII(skip(after, to: UInt8(ascii: "\"")).passed))
    }
}
