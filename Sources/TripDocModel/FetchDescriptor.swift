import Foundation
import TripDocCore

/// Which models a fetch returns and in what order (SwiftData's `FetchDescriptor`).
public struct FetchDescriptor<T: PersistentModel> {
    /// Which models: those the predicate is true for (all when `nil`).
    public var predicate: Predicate<T>?
    /// The order.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many (after the offset).
    public var fetchLimit: Int?
    /// Skip this many first.
    public var fetchOffset: Int?
    /// Whether models inserted, changed or deleted in the context but not saved count.
    public var includePendingChanges: Bool
    /// Accepted for source compatibility: tripdoc's archive stores always load every property.
    public var propertiesToFetch: [PartialKeyPath<T>]
    /// Accepted for source compatibility: relationships are resolved on first read.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>]

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = nil
        self.fetchOffset = nil
        self.includePendingChanges = true
        self.propertiesToFetch = []
        self.relationshipKeyPathsForPrefetching = []
    }
}

/// Which history transactions a fetch returns (SwiftData's `HistoryDescriptor`).
public struct HistoryDescriptor<HistoryTransactionType: HistoryTransaction> {
    /// Which transactions (all when `nil`): `#Predicate<DefaultHistoryTransaction> { $0.token > token }`.
    public var predicate: Predicate<HistoryTransactionType>?
    /// The order; transaction order when empty.
    public var sortBy: [SortDescriptor<HistoryTransactionType>]
    /// At most this many.
    public var fetchLimit: Int?

    /// Creates a descriptor.
    public init(predicate: Predicate<HistoryTransactionType>? = nil) {
        self.predicate = predicate
        self.sortBy = []
        self.fetchLimit = nil
    }
}
