import Foundation

/// Which transactions to fetch from a history: after a token, by author, touching an entity, at
/// most so many, oldest or newest first.
public struct HistoryQuery: Hashable, Sendable {
    /// Only transactions after this token (of the same store).
    public var after: DefaultHistoryToken?
    /// Only transactions saved by this author.
    public var author: String?
    /// Only transactions with a change to one of these entities; their other changes are left out.
    public var entityNames: Set<String>?
    /// At most this many transactions.
    public var fetchLimit: Int?
    /// Newest first instead of oldest first (SwiftData 26's `sortBy` on the token).
    public var newestFirst: Bool

    /// Creates a query; with no arguments it fetches every transaction, oldest first.
    public init(
        after: DefaultHistoryToken? = nil, author: String? = nil, entityNames: Set<String>? = nil, fetchLimit: Int? = nil,
        newestFirst: Bool = false
    ) {
        self.after = after
        self.author = author
        self.entityNames = entityNames
        self.fetchLimit = fetchLimit
        self.newestFirst = newestFirst
    }
}

/// Why history could not be fetched or deleted.
public enum HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The token is older than the history kept: the transactions after it may have been deleted.
    case historyTokenExpired(DefaultHistoryToken, deletedThrough: Int64)
    /// The token belongs to another store.
    case tokenOfAnotherStore(DefaultHistoryToken, storeIdentifier: String)

    public var description: String {
        switch self {
        case .historyTokenExpired(let token, let deletedThrough):
            "the history token \(token) has expired: history was deleted through transaction \(deletedThrough), so "
                + "changes after the token may be gone; discard the token and fetch the history from the start"
        case .tokenOfAnotherStore(let token, let store):
            "the history token \(token) belongs to another store than \(store); tokens are valid only for their store"
        }
    }
}

extension DocumentHistory {
    /// The transactions `query` selects, in the store `storeIdentifier`.
    ///
    /// - Throws: ``HistoryError`` for an expired or foreign token.
    public func transactions(matching query: HistoryQuery, storeIdentifier: String) throws -> [HistoryTransactionRecord] {
        var after: Int64 = 0
        if let token = query.after {
            guard token.storeIdentifier == storeIdentifier else {
                throw HistoryError.tokenOfAnotherStore(token, storeIdentifier: storeIdentifier)
            }
            guard token.transactionIdentifier >= deletedThrough else {
                throw HistoryError.historyTokenExpired(token, deletedThrough: deletedThrough)
            }
            after = token.transactionIdentifier
        }
        var selected: [HistoryTransactionRecord] = []
        let ordered = query.newestFirst ? Array(transactions.reversed()) : transactions
        for var transaction in ordered where transaction.transactionIdentifier > after {
            if let limit = query.fetchLimit, selected.count >= limit { break }
            if let author = query.author, transaction.author != author { continue }
            if let entities = query.entityNames {
                transaction.changes = transaction.changes.filter { entities.contains($0.changedPersistentIdentifier.entityName) }
                if transaction.changes.isEmpty { continue }
            }
            selected.append(transaction)
        }
        return selected
    }

    /// Deletes the transactions up to and including `token`'s; fetching after an older token
    /// then throws ``HistoryError/historyTokenExpired(_:deletedThrough:)``.
    public mutating func delete(through token: DefaultHistoryToken, storeIdentifier: String) throws {
        guard token.storeIdentifier == storeIdentifier else {
            throw HistoryError.tokenOfAnotherStore(token, storeIdentifier: storeIdentifier)
        }
        // A token past the newest transaction deletes everything, and no more: identifiers
        // still to come stay valid.
        let through = min(token.transactionIdentifier, nextTransactionIdentifier - 1)
        transactions.removeAll { $0.transactionIdentifier <= through }
        deletedThrough = max(deletedThrough, through)
    }

    /// Deletes the transactions saved before `date`.
    public mutating func delete(before date: Date) {
        guard let last = transactions.last(where: { $0.timestamp < date }) else { return }
        transactions.removeAll { $0.transactionIdentifier <= last.transactionIdentifier }
        deletedThrough = max(deletedThrough, last.transactionIdentifier)
    }

    /// The same history with every identifier rewritten through `remap` (for a new store).
    public func remapped(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> DocumentHistory {
        var result = self
        result.transactions = transactions.map { transaction in
            var copy = transaction
            copy.changes = transaction.changes.map { $0.remapped(remap) }
            return copy
        }
        return result
    }
}
