import Foundation

/// One save, as a document keeps it in its history: who saved, when, and what changed, in the
/// order it changed.
public struct HistoryTransactionRecord: Hashable, Sendable {
    /// The transaction's identifier: 1 for a store's first save, then one more per save.
    public var transactionIdentifier: Int64
    /// The author of the saving context (`ModelContext.author`), such as `widget`.
    public var author: String?
    /// When the save happened.
    public var timestamp: Date
    /// The saving program's bundle identifier, where known.
    public var bundleIdentifier: String?
    /// The saving process's identifier, where known.
    public var processIdentifier: String?
    /// The changes, in order.
    public var changes: [HistoryChangeRecord]

    /// Creates a transaction.
    public init(
        transactionIdentifier: Int64, author: String? = nil, timestamp: Date, bundleIdentifier: String? = nil,
        processIdentifier: String? = nil, changes: [HistoryChangeRecord]
    ) {
        self.transactionIdentifier = transactionIdentifier
        self.author = author
        self.timestamp = timestamp
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }

    /// The transaction's token in the store `storeIdentifier`.
    public func token(in storeIdentifier: String) -> DefaultHistoryToken {
        DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: transactionIdentifier)
    }
}

/// One change of a transaction.
public enum HistoryChangeRecord: Hashable, Sendable {
    /// A model was inserted.
    case insert(PersistentIdentifier)
    /// A model's attributes changed: their names, and (beyond SwiftData) their new values.
    ///
    /// (An update and a delete are kept out of line, so that a change takes the 32 bytes of an
    /// insert's identifier: a bulk insert's transaction lists one per model.)
    indirect case update(PersistentIdentifier, updatedAttributes: [String], values: [String: SnapshotValue])
    /// A model was deleted; the tombstone keeps its `.preserveValueOnDeletion` attributes.
    indirect case delete(PersistentIdentifier, tombstone: [String: SnapshotValue])

    /// The model the change is about (SwiftData's `changedPersistentIdentifier`).
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let id), .update(let id, _, _), .delete(let id, _): id
        }
    }

    /// `insert`, `update` or `delete`.
    public var kind: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }

    /// The change with its identifier rewritten through `remap`.
    public func remapped(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> HistoryChangeRecord {
        switch self {
        case .insert(let id): .insert(remap(id))
        case .update(let id, let names, let values): .update(remap(id), updatedAttributes: names, values: values)
        case .delete(let id, let tombstone): .delete(remap(id), tombstone: tombstone)
        }
    }
}

/// A document's history: its transactions, oldest first, and how far it has been deleted.
public struct DocumentHistory: Hashable, Sendable {
    /// The transactions kept, in order of their identifiers.
    public var transactions: [HistoryTransactionRecord]
    /// Transactions up to this identifier were deleted (0: none). Tokens before it are expired.
    public var deletedThrough: Int64

    /// Creates a history.
    public init(transactions: [HistoryTransactionRecord] = [], deletedThrough: Int64 = 0) {
        self.transactions = transactions
        self.deletedThrough = deletedThrough
    }

    /// The identifier the next transaction gets.
    public var nextTransactionIdentifier: Int64 {
        max(transactions.last?.transactionIdentifier ?? 0, deletedThrough) + 1
    }

    /// Whether there is nothing to keep: no transactions and nothing deleted.
    public var isEmpty: Bool { transactions.isEmpty && deletedThrough == 0 }
}
