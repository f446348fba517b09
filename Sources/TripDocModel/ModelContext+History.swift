import Foundation
import TripDocCore

extension ModelContext {
    /// The history transactions a descriptor selects, from every store that keeps history,
    /// oldest first unless the descriptor sorts them.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        var transactions: [DefaultHistoryTransaction] = []
        for store in container.stores {
            transactions += try store.fetchHistory(descriptor) ?? []
        }
        if container.stores.count > 1 {
            if descriptor.sortBy.isEmpty { transactions.sort { $0.timestamp < $1.timestamp } }
            else { transactions.sort(using: descriptor.sortBy) }
            if let limit = descriptor.fetchLimit { transactions = Array(transactions.prefix(max(limit, 0))) }
        }
        return transactions
    }

    /// Deletes the history transactions a descriptor selects (the oldest ones, up to a token).
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        for store in container.stores { _ = try store.deleteHistory(descriptor) }
    }
}
