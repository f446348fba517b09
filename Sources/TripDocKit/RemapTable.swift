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
        if let table = scanned(data) { return table }
        do {
            return try JSONDecoder().decode(RemapTable.self, from: data)
        } catch {
            throw TripDocError.invalidArgument(
                "\(path) is not a remap table written by tripdoc convert --remap-table: "
                    + ((error as? DecodingError)?.placedDescription(in: data) ?? "\(error)"))
        }
    }

    /// The table in `data` read by the documents' JSON scanner (`JSONReader`), straight into
    /// the dictionaries: `JSONDecoder`'s tree of a table of 1.4 million keys took 400 MB and
    /// 1.7 s. `nil` for anything else than what `convert` writes (a member of another type, a
    /// key twice, text that is not JSON), which `JSONDecoder` then reads as before, for the same
    /// table or the same error.
    static func scanned(_ data: Data) -> RemapTable? {
        data.withUnsafeBytes { bytes -> RemapTable? in
            var reader = JSONReader(bytes: bytes)
            func strings() throws -> [String: String]? {
                var result: [String: String] = [:]
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    guard try reader.peekKind() == .string, result.updateValue(try reader.readString(), forKey: key) == nil
                    else { return nil }
                }
                return result
            }
            do {
                var fromStore: String?
                var toStore: String?
                var identifiers: [String: [String: String]]?
                var tokens: [String: String]?
                var seen: Set<String> = []
                try reader.beginObject()
                while let member = try reader.nextKey() {
                    guard seen.insert(member).inserted else { return nil }
                    switch member {
                    case "fromStore", "toStore":
                        guard try reader.peekKind() == .string else { return nil }
                        if member == "fromStore" { fromStore = try reader.readString() } else { toStore = try reader.readString() }
                    case "identifiers":
                        guard try reader.peekKind() == .object else { return nil }
                        var entities: [String: [String: String]] = [:]
                        try reader.beginObject()
                        while let entity = try reader.nextKey() {
                            guard entities[entity] == nil, try reader.peekKind() == .object, let keys = try strings() else { return nil }
                            entities[entity] = keys
                        }
                        identifiers = entities
                    case "tokens":
                        switch try reader.peekKind() {
                        case .null: try reader.skipValue()
                        case .object:
                            guard let read = try strings() else { return nil }
                            tokens = read
                        default: return nil
                        }
                    default:
                        try reader.skipValue()
                    }
                }
                try reader.finish()
                guard let fromStore, let toStore, let identifiers else { return nil }
                return RemapTable(fromStore: fromStore, toStore: toStore, identifiers: identifiers, tokens: tokens)
            } catch {
                return nil
            }
        }
    }

    /// The table as JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
