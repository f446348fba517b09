/// Every model a save changed, by permanent identifier: its snapshot as the save left it, or
/// `nil` when the save deleted it.
///
/// Kept as the document keeps its snapshots (a store's numbered keys in runs, not hashed), so
/// that a save of many models, a bulk insert's, does not also build a dictionary of them. Read
/// it with ``forEach(_:)`` or ``subscript(_:)``; ``dictionary`` makes one.
public struct ChangedSnapshots: Sendable {
    var table: IdentifierTable<DefaultSnapshot?>

    init(_ table: IdentifierTable<DefaultSnapshot?>) {
        self.table = table
    }

    /// The changes in `dictionary`.
    init(_ dictionary: [PersistentIdentifier: DefaultSnapshot?]) {
        var table = IdentifierTable<DefaultSnapshot?>()
        table.prepareRuns(for: dictionary.keys)
        for (identifier, snapshot) in dictionary { table.updateValue(snapshot, forKey: identifier) }
        self.table = table
    }

    /// How many models the save changed.
    public var count: Int { table.count }

    /// Whether the save changed no model.
    public var isEmpty: Bool { table.isEmpty }

    /// The change to `identifier`: `.some(snapshot)`, `.some(nil)` for a deleted model, or
    /// `nil` when the save did not change it.
    public subscript(identifier: PersistentIdentifier) -> DefaultSnapshot?? { table[identifier] }

    /// Calls `body` with each changed model's identifier and its snapshot (`nil`: deleted), in
    /// no particular order.
    public func forEach(_ body: (PersistentIdentifier, DefaultSnapshot?) throws -> Void) rethrows {
        try table.forEach(body)
    }

    /// The changes as a dictionary (made on each call).
    public var dictionary: [PersistentIdentifier: DefaultSnapshot?] {
        var dictionary: [PersistentIdentifier: DefaultSnapshot?] = [:]
        dictionary.reserveCapacity(count)
        forEach { dictionary[$0] = .some($1) }
        return dictionary
    }

    /// These changes without those of entities `isKept` refuses.
    func filter(entities isKept: (String) -> Bool) -> ChangedSnapshots {
        var kept = IdentifierTable<DefaultSnapshot?>()
        // Set in run order, so the kept runs grow at their ends without being readied.
        forEach { identifier, snapshot in
            if isKept(identifier.entityName) { kept.updateValue(snapshot, forKey: identifier) }
        }
        return ChangedSnapshots(kept)
    }
}
