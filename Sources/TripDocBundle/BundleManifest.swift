import Foundation

/// `manifest.json`, the first entry of a bundle: what the bundle is and a SHA-256 digest of
/// every other entry, so that a damaged or tampered bundle is caught entry by entry; and where
/// the history stands, so that a save appended to the journal need not inflate `history.json`.
struct BundleManifest: Codable, Equatable {
    static let entryName = "manifest.json"
    static let format = "tripdoc-bundle"
    static let currentFormatVersion = 1

    struct Entry: Codable, Equatable {
        var name: String
        var size: Int
        var sha256: String
    }

    /// Where the history of `history.json` stands (docs/FORMATS.md, 8.5): the identifier of
    /// the last transaction the store made, kept or deleted, recorded with the digest of the
    /// `history.json` it describes, so that it is used only with that entry.
    struct HistoryPosition: Codable, Equatable {
        var lastTransactionIdentifier: Int64
        var sha256: String
    }

    var format: String
    var formatVersion: Int
    var storeIdentifier: String
    var schemaVersion: String
    var entries: [Entry]
    /// Absent from bundles without history and from those of tripdoc before it was recorded.
    var historyPosition: HistoryPosition? = nil

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
