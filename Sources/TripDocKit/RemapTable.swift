import Foundation
import TripDoc

/// The old → new identifier mapping of a conversion, as `convert --remap-table` writes it:
/// `{"fromStore": ID, "toStore": ID, "identifiers": {ENTITY: {OLD KEY: NEW KEY}}}`.
public struct RemapTable: Codable, Hashable, Sendable {
    /// The source store's identifier.
    public var fromStore: String
    /// The new store's identifier.
    public var toStore: String
    /// For each entity, each old primary key and the new one.
    public var identifiers: [String: [String: String]]
    /// Each history token of the old store and the token of the same transaction in the new one.
    public var tokens: [String: String]?

    /// A table from its parts.
    public init(fromStore: String, toStore: String, identifiers: [String: [String: String]], tokens: [String: String]?) {
        self.fromStore = fromStore
        self.toStore = toStore
        self.identifiers = identifiers
        self.tokens = tokens
    }

    /// The table of a conversion.
    public init(_ conversion: DocumentConversion) {
        fromStore = conversion.sourceStoreIdentifier
        toStore = conversion.document.storeIdentifier
        var identifiers: [String: [String: String]] = [:]
        for (old, new) in conversion.identifiers {
            identifiers[old.entityName, default: [:]][old.primaryKey] = new.primaryKey
        }
        self.identifiers = identifiers
        let transactions = conversion.document.history.transactions
        tokens = transactions.isEmpty ? nil : Dictionary(
            uniqueKeysWithValues: transactions.map {
                ($0.token(in: fromStore).description, $0.token(in: toStore).description)
            })
    }

    /// Reads a table `convert --remap-table` wrote.
    ///
    /// - Throws: `FileReadError`, or ``TripDocError/invalidArgument(_:)`` naming the file.
    public static func read(from path: String) throws -> RemapTable {
        let data = try DocumentFileReader.contents(of: path)
        do {
            return try JSONDecoder().decode(RemapTable.self, from: data)
        } catch {
            throw TripDocError.invalidArgument(
                "\(path) is not a remap table written by tripdoc convert --remap-table: "
                    + ((error as? DecodingError)?.placedDescription(in: data) ?? "\(error)"))
        }
    }

    /// The table as JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
