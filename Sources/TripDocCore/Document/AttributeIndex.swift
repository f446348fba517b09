import Foundation

/// One attribute's values in order, with the models holding them: what an `#Index` on a single
/// attribute gives a fetch (equality and ranges found by binary search, an order to walk for a
/// sort). Kept up to date by saves at the cost of what they change: a sorted list, with the
/// models whose entries went stale and the entries added since it was last rebuilt noted beside
/// it, folded in once they are an eighth of it.
///
/// Only values with an order are listed (``SnapshotValue/scalarOrder(_:_:)``): `nil`, and
/// values of other kinds, are not; neither is NaN, which compares neither equal to nor less
/// nor more than any value.
struct AttributeIndex: Sendable {
    typealias Entry = (value: SnapshotValue, identifier: PersistentIdentifier)

    /// Entries by value, then identifier (document order among equal values).
    private var sorted: [Entry] = []
    /// Models whose entries in `sorted` are stale.
    private var stale: Set<PersistentIdentifier> = []
    /// Current entries not in `sorted`, by model.
    private var added: [PersistentIdentifier: SnapshotValue] = [:]
    /// Models holding NaN, which no comparison selects but a sort must place.
    private(set) var unordered: Set<PersistentIdentifier> = []

    /// An index of `entries`.
    init(_ entries: [Entry]) {
        var ordered: [Entry] = []
        ordered.reserveCapacity(entries.count)
        for entry in entries {
            if Self.isOrdered(entry.value) { ordered.append(entry) } else if Self.isNaN(entry.value) { unordered.insert(entry.identifier) }
        }
        ordered.sort(by: Self.precedes)
        sorted = ordered
    }

    private static func isOrdered(_ value: SnapshotValue) -> Bool {
        SnapshotValue.scalarOrder(value, value) == .orderedSame
    }

    private static func isNaN(_ value: SnapshotValue) -> Bool {
        switch value {
        case .double(let v): v.isNaN
        case .float(let v): v.isNaN
        default: false
        }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        switch SnapshotValue.scalarOrder(a.value, b.value) {
        case .orderedAscending?: true
        case .orderedDescending?: false
        default: a.identifier < b.identifier
        }
    }

    /// Notes that the model `identifier` now holds `value` (`nil`: it left the document),
    /// where it held `old` before (`nil`: it is new).
    mutating func update(_ identifier: PersistentIdentifier, from old: SnapshotValue?, to value: SnapshotValue?) {
        if added.removeValue(forKey: identifier) == nil, let old, Self.isOrdered(old) {
            stale.insert(identifier)
        }
        unordered.remove(identifier)
        if let value {
            if Self.isOrdered(value) { added[identifier] = value } else if Self.isNaN(value) { unordered.insert(identifier) }
        }
    }

    /// Folds the noted changes into the sorted list once there are more than 64 added entries or
    /// the stale ones are an eighth of it: every query goes through the added entries, so they
    /// are kept few, and the fold is one merge, so a model's share of it stays small. A save
    /// calls this once, after all its updates.
    mutating func foldIfWorthwhile() {
        guard added.count > 64 || stale.count > max(64, sorted.count / 8) else { return }
        sorted = entries(in: nil, upper: nil)
        stale = []
        added = [:]
    }

    /// The entries whose values are within the bounds (each `nil` for none; `inclusive` says
    /// whether the bound's value itself is in), in order of value, then identifier.
    func entries(in lower: ValueBound?, upper: ValueBound?) -> [Entry] {
        func isAbove(_ value: SnapshotValue) -> Bool {
            guard let lower else { return true }
            guard let order = SnapshotValue.scalarOrder(value, lower.value) else { return false }
            return order == .orderedDescending || (lower.isInclusive && order == .orderedSame)
        }
        func isBelow(_ value: SnapshotValue) -> Bool {
            guard let upper else { return true }
            guard let order = SnapshotValue.scalarOrder(value, upper.value) else { return false }
            return order == .orderedAscending || (upper.isInclusive && order == .orderedSame)
        }
        // The first sorted entry above the lower bound, by binary search.
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isAbove(sorted[middle].value) { high = middle } else { low = middle + 1 }
        }
        var result: [Entry] = []
        var position = low
        while position < sorted.count, isBelow(sorted[position].value) {
            if !stale.contains(sorted[position].identifier) { result.append(sorted[position]) }
            position += 1
        }
        let extra = added.filter { isAbove($0.value) && isBelow($0.value) }.map { (value: $0.value, identifier: $0.key) }
            .sorted(by: Self.precedes)
        guard !extra.isEmpty else { return result }
        // One merge of the two sorted runs.
        var merged: [Entry] = []
        merged.reserveCapacity(result.count + extra.count)
        var i = 0
        var j = 0
        while i < result.count, j < extra.count {
            if Self.precedes(extra[j], result[i]) {
                merged.append(extra[j])
                j += 1
            } else {
                merged.append(result[i])
                i += 1
            }
        }
        merged.append(contentsOf: result[i...])
        merged.append(contentsOf: extra[j...])
        return merged
    }
}

extension SnapshotValue {
    /// How two values of one scalar kind compare with their Swift type's `<` (strings, signed
    /// and unsigned integers, doubles, floats, dates, decimals); `nil` for values of different
    /// kinds, of other kinds, and for a NaN.
    public static func scalarOrder(_ a: SnapshotValue, _ b: SnapshotValue) -> ComparisonResult? {
        func order<C: Comparable>(_ x: C, _ y: C) -> ComparisonResult? {
            x < y ? .orderedAscending : y < x ? .orderedDescending : x == y ? .orderedSame : nil
        }
        switch (a, b) {
        case (.string(let x), .string(let y)): return order(x, y)
        case (.int(let x), .int(let y)): return order(x, y)
        case (.uint(let x), .uint(let y)): return order(x, y)
        case (.double(let x), .double(let y)): return order(x, y)
        case (.float(let x), .float(let y)): return order(x, y)
        case (.date(let x), .date(let y)): return order(x, y)
        case (.decimal(let x), .decimal(let y)): return order(x, y)
        default: return nil
        }
    }
}

/// One end of a range of attribute values.
public struct ValueBound: Hashable, Sendable {
    /// The value at the end.
    public var value: SnapshotValue
    /// Whether the value itself is in the range.
    public var isInclusive: Bool

    /// Creates a bound.
    public init(_ value: SnapshotValue, isInclusive: Bool) {
        self.value = value
        self.isInclusive = isInclusive
    }
}

extension AttributeIndex {
    /// The first `count` entries in order (the last `count`, `reversed`), and every entry whose
    /// value equals the last of those, so that a caller ordering ties its own way has them all.
    func firstEntries(_ count: Int, reversed: Bool) -> [Entry] {
        var result: [Entry] = []
        var boundary: SnapshotValue?
        var position = reversed ? sorted.count - 1 : 0
        while position >= 0, position < sorted.count {
            let entry = sorted[position]
            position += reversed ? -1 : 1
            if stale.contains(entry.identifier) { continue }
            if let boundary, SnapshotValue.scalarOrder(entry.value, boundary) != .orderedSame { break }
            result.append(entry)
            if result.count >= count, boundary == nil { boundary = entry.value }
        }
        return result + added.map { (value: $0.value, identifier: $0.key) }
    }
}
