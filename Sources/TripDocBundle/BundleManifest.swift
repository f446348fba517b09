import Foundation

/// `manifest.json`, the first entry of a bundle: what the bundle is and a SHA-256 digest of
/// every other entry, so that a damaged or tampered bundle is caught entry by entry.
struct BundleManifest: Codable, Equatable {
    static let entryName = "manifest.json"
    static let format = "tripdoc-bundle"
    static let currentFormatVersion = 1

    struct Entry: Codable, Equatable {
        var name: String
        var size: Int
        var sha256: String
    }

    var format: String
    var formatVersion: Int
    var storeIdentifier: String
    var schemaVersion: String
    var entries: [Entry]

    /// The listed entries by name (the first, for a name listed twice, which reading refuses),
    /// made anew on each use: whoever looks up many entries keeps it.
    var entriesByName: [String: Entry] {
        Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
