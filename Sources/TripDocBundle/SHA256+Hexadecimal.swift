import Crypto

extension SHA256.Digest {
    /// The digest as 64 lowercase hexadecimal digits: how the manifest lists an entry's digest
    /// and how an `external/` entry is named (FORMATS 8.4, 8.5).
    var hexadecimal: String { map { String(format: "%02x", $0) }.joined() }
}
