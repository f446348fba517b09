import Foundation

/// What a store answers when it cannot do what a request asks (SwiftData's `DataStoreError`).
public enum DataStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The fetch's predicate cannot be evaluated.
    case invalidPredicate
    /// The store cannot filter with this predicate: the context should filter in memory.
    case preferInMemoryFilter
    /// The store cannot sort this way: the context should sort in memory.
    case preferInMemorySort
    /// The store does not support what the request asks.
    case unsupportedFeature

    public var description: String {
        switch self {
        case .invalidPredicate: "the fetch's predicate cannot be evaluated"
        case .preferInMemoryFilter: "the store cannot evaluate this predicate; filter in memory"
        case .preferInMemorySort: "the store cannot sort this way; sort in memory"
        case .unsupportedFeature: "the store does not support this request"
        }
    }
}
