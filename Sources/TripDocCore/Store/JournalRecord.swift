import Foundation

/// One save as a document's journal keeps it (docs/FORMATS.md, section 7): the history
/// transaction it recorded, the key sequences it moved, and every model it changed as the save
/// left it (its snapshot, or its identifier when the save deleted it). Folding the records into
/// the document they follow gives the document as the saves left it.
public struct JournalRecord: Hashable, Sendable, Codable {
    /// The save's history transaction.
    public var transaction: HistoryTransactionRecord
    /// The header's key sequences after the save.
    public var nextPrimaryKeys: [String: Int64]
    /// The models the save inserted or changed, as it left them.
    public var snapshots: [DefaultSnapshot]
    /// The models the save deleted.
    public var deleted: [PersistentIdentifier]

    /// The record of a save applied to a document whose header is now `header`.
    public init(_ applied: AppliedSave, transaction: HistoryTransactionRecord, header: DocumentHeader) {
        self.transaction = transaction
        nextPrimaryKeys = header.nextPrimaryKeys
        var changed: [(identifier: PersistentIdentifier, snapshot: DefaultSnapshot?)] = []
        changed.reserveCapacity(applied.changes.count)
        applied.changes.forEach { changed.append(($0, $1)) }
        changed.sort { $0.identifier < $1.identifier }
        snapshots = changed.compactMap(\.snapshot)
        deleted = changed.filter { $0.snapshot == nil }.map(\.identifier)
    }

    private enum CodingKeys: String, CodingKey {
        case transaction, nextPrimaryKeys, snapshots, deleted
    }
}

extension HistoryTransactionRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case transactionIdentifier, author, timestamp, bundleIdentifier, processIdentifier, changes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            transactionIdentifier: try container.decode(Int64.self, forKey: .transactionIdentifier),
            author: try container.decodeIfPresent(String.self, forKey: .author),
            timestamp: try container.decode(Date.self, forKey: .timestamp),
            bundleIdentifier: try container.decodeIfPresent(String.self, forKey: .bundleIdentifier),
            processIdentifier: try container.decodeIfPresent(String.self, forKey: .processIdentifier),
            changes: try container.decode([HistoryChangeRecord].self, forKey: .changes))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactionIdentifier, forKey: .transactionIdentifier)
        try container.encodeIfPresent(author, forKey: .author)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encodeIfPresent(processIdentifier, forKey: .processIdentifier)
        try container.encode(changes, forKey: .changes)
    }
}

extension HistoryChangeRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case insert, update, delete, updatedAttributes, values, tombstone
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let identifier = try container.decodeIfPresent(PersistentIdentifier.self, forKey: .insert) {
            self = .insert(identifier)
        } else if let identifier = try container.decodeIfPresent(PersistentIdentifier.self, forKey: .update) {
            self = .update(
                identifier, updatedAttributes: try container.decode([String].self, forKey: .updatedAttributes),
                values: try container.decode([String: SnapshotValue].self, forKey: .values))
        } else if let identifier = try container.decodeIfPresent(PersistentIdentifier.self, forKey: .delete) {
            self = .delete(identifier, tombstone: try container.decode([String: SnapshotValue].self, forKey: .tombstone))
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a change with insert, update or delete"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .insert(let identifier):
            try container.encode(identifier, forKey: .insert)
        case .update(let identifier, let names, let values):
            try container.encode(identifier, forKey: .update)
            try container.encode(names, forKey: .updatedAttributes)
            try container.encode(values, forKey: .values)
        case .delete(let identifier, let tombstone):
            try container.encode(identifier, forKey: .delete)
            try container.encode(tombstone, forKey: .tombstone)
        }
    }
}
