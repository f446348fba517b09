import Foundation
import TripDocCore

/// A fetch's `SortDescriptor`s applied to snapshots rather than models, so that a sorted fetch
/// with a limit makes models of the ones it returns only: made when every descriptor sorts by
/// a non-optional scalar attribute of the model that is `Comparable` (strings, numbers, dates,
/// decimals) with Swift's own `<` (a descriptor made with a `String.StandardComparator` is left
/// to the models), and `nil` otherwise. A sort meeting NaN is left to the models too.
struct SnapshotSortOrder {
    private struct Key {
        var name: String
        var isReversed: Bool
    }
    private let keys: [Key]

    /// The attribute and direction when there is one key.
    var singleKey: (name: String, isReversed: Bool)? {
        keys.count == 1 ? (keys[0].name, keys[0].isReversed) : nil
    }

    init?<T: PersistentModel>(_ descriptors: [SortDescriptor<T>], of type: T.Type) {
        let description = ModelDescription.of(type)
        var keys: [Key] = []
        for descriptor in descriptors {
            guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath,
                let property = description.property(for: keyPath), let onDemand = property.onDemandType,
                !onDemand.isOptional, Self.isOrdered(onDemand.type)
            else { return nil }
            keys.append(Key(name: property.name, isReversed: descriptor.order == .reverse))
        }
        self.keys = keys
    }

    /// Whether values of `type` have an order tripdoc compares stored values in
    /// (`SnapshotValue.scalarOrder`): strings, numbers, dates and decimals.
    static func isOrdered(_ type: AttributeType) -> Bool {
        switch type {
        case .string, .double, .float, .date, .decimal: true
        default: type.signedRange != nil || type.unsignedMaximum != nil
        }
    }

    /// The snapshots in this order; equal ones keep their order. With `limit`, only the first
    /// `limit` of them, chosen without sorting the rest.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` when a value is not of its attribute's type.
    func sorted(_ snapshots: [DefaultSnapshot], limit: Int? = nil) throws -> [DefaultSnapshot] {
        // Each snapshot's position breaks ties, which makes the order the stable sort's.
        let precedes = { (a: (Int, DefaultSnapshot), b: (Int, DefaultSnapshot)) throws -> Bool in
            switch try self.compare(a.1, b.1) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.0 < b.0
            }
        }
        if let limit, limit < snapshots.count / 4 {
            guard limit > 0 else { return [] }
            // The best `limit` so far, in order: most snapshots are refused by comparing them
            // with the last of these.
            var best: [(Int, DefaultSnapshot)] = []
            best.reserveCapacity(limit + 1)
            for (position, snapshot) in snapshots.enumerated() {
                let candidate = (position, snapshot)
                if best.count == limit, try !precedes(candidate, best[limit - 1]) { continue }
                var low = 0
                var high = best.count
                while low < high {
                    let middle = (low + high) / 2
                    if try precedes(candidate, best[middle]) { high = middle } else { low = middle + 1 }
                }
                best.insert(candidate, at: low)
                if best.count > limit { best.removeLast() }
            }
            return best.map(\.1)
        }
        var all = Array(snapshots.enumerated())
        try all.sort(by: precedes)
        let ordered = all.map(\.1)
        return limit.map { Array(ordered.prefix(max($0, 0))) } ?? ordered
    }

    /// How two snapshots compare by the keys in turn.
    private func compare(_ a: DefaultSnapshot, _ b: DefaultSnapshot) throws -> ComparisonResult {
        for key in keys {
            var result = try Self.compare(a[key.name] ?? .null, b[key.name] ?? .null)
            if key.isReversed {
                result = result == .orderedAscending ? .orderedDescending : result == .orderedDescending ? .orderedAscending : .orderedSame
            }
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    /// How two values of one scalar attribute compare with their Swift type's `<`.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` for NaN, which `<` places nowhere: how a sort
    ///   orders it is the sort algorithm's doing, so such a sort is left to the models.
    private static func compare(_ a: SnapshotValue, _ b: SnapshotValue) throws -> ComparisonResult {
        guard let order = SnapshotValue.scalarOrder(a, b) else { throw SnapshotPredicate.Unevaluable() }
        return order
    }
}
