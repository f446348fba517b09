/// The identifiers of one entity's snapshots in document order (by primary key), kept up to
/// date by saves at the cost of what they change: removals and out-of-order insertions are
/// noted beside the sorted list and folded into it once they amount to a fraction of it.
struct EntityOrder: Sendable {
    /// Sorted identifiers; those in `removed` are no longer in the document.
    private var sorted: [PersistentIdentifier] = []
    /// Identifiers in `sorted` that were removed since it was last rebuilt.
    private var removed: Set<PersistentIdentifier> = []
    /// Identifiers added since `sorted` was last rebuilt that do not sort after all of it.
    private var added: [PersistentIdentifier] = []

    init() {}

    /// An order over `identifiers` (in any order, without duplicates).
    init<S: Sequence<PersistentIdentifier>>(_ identifiers: S) {
        sorted = Array(identifiers).sortedUnlessInOrder(by: <)
    }

    /// How many identifiers the order lists.
    var count: Int { sorted.count - removed.count + added.count }

    /// Notes an identifier added to the document.
    mutating func insert(_ identifier: PersistentIdentifier) {
        if removed.remove(identifier) != nil { return }
        if added.isEmpty, sorted.last.map({ $0 < identifier }) ?? true {
            sorted.append(identifier)
        } else {
            added.append(identifier)
            compactIfWorthwhile()
        }
    }

    /// Notes identifiers added to the document, given in order.
    mutating func insert(contentsOf identifiers: [PersistentIdentifier]) {
        guard let first = identifiers.first else { return }
        if added.isEmpty, removed.isEmpty || !identifiers.contains(where: removed.contains),
            sorted.last.map({ $0 < first }) ?? true
        {
            // An empty order takes the list as it is (a bulk insert's: no copy), unless the list
            // has much room to spare, which the order would then keep for good.
            if sorted.isEmpty, identifiers.capacity - identifiers.count <= identifiers.count / 4 {
                sorted = identifiers
            } else {
                sorted.append(contentsOf: identifiers)
            }
        } else {
            for identifier in identifiers { insert(identifier) }
        }
    }

    /// Notes an identifier removed from the document.
    mutating func remove(_ identifier: PersistentIdentifier) {
        if let index = added.firstIndex(of: identifier) {
            added.remove(at: index)
        } else {
            removed.insert(identifier)
            compactIfWorthwhile()
        }
    }

    /// The identifiers in document order.
    var identifiers: [PersistentIdentifier] {
        guard !removed.isEmpty || !added.isEmpty else { return sorted }
        let kept = removed.isEmpty ? sorted : sorted.filter { !removed.contains($0) }
        guard !added.isEmpty else { return kept }
        let extra = added.sorted()
        var result: [PersistentIdentifier] = []
        result.reserveCapacity(kept.count + extra.count)
        var i = 0
        var j = 0
        while i < kept.count, j < extra.count {
            if extra[j] < kept[i] {
                result.append(extra[j])
                j += 1
            } else {
                result.append(kept[i])
                i += 1
            }
        }
        result.append(contentsOf: kept[i...])
        result.append(contentsOf: extra[j...])
        return result
    }

    /// Folds the noted changes into the sorted list once they are an eighth of it, so reading
    /// the order stays linear and a save's bookkeeping stays proportional to what it changed.
    private mutating func compactIfWorthwhile() {
        guard removed.count + added.count > max(64, sorted.count / 8) else { return }
        sorted = identifiers
        removed = []
        added = []
    }
}
