import Crypto

extension SHA256.Digest {
    /// The digest as 64 lowercase hexadecimal digits: how the manifest lists an entry's digest
    /// and how an `external/` entry is named (FORMATS 8.4, 8.5). Spelled from a table, digit by
    /// digit: `String(format:)` per byte, as before, made a bundle of 100,000 entries spend a
    /// third of its reading time formatting digests (and looking up the time zone, 6 times each).
    var hexadecimal: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: Self.byteCount * 2) { buffer in
            var index = 0
            for byte in self {
                buffer[index] = digits.utf8Start[Int(byte >> 4)]
                buffer[index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
