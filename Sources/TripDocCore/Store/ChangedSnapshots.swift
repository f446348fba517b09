/// Every model a save changed, by permanent identifier: its snapshot as the save left it, or
/// `nil` when the save deleted it.
///
/// Kept as the document keeps its snapshots (a store's numbered keys in runs, not hashed), so
/// that a save of many models, a bulk insert's, does not also build a dictionary of them. Read
/// it with ``forEach(_:)`` or ``subscript(_:)``; ``dictionary`` makes one.
public struct ChangedSnapshots: Sendable {
    /// The snapshots of the models the save left, by identifier.
    private(set) var saved: IdentifierTable<DefaultSnapshot>
    /// The models the save deleted (none of which ``saved`` holds).
    private(set) var deleted: Set<PersistentIdentifier>

    /// No change yet: what a save being worked out starts from.
    init() {
        saved = IdentifierTable()
        deleted = []
    }

    /// The changes in `dictionary`.
    init(_ dictionary: [PersistentIdentifier: DefaultSnapshot?]) {
        self.init()
        saved.prepareRuns(for: dictionary.lazy.filter { $0.value != nil }.map(\.key))
        for (identifier, snapshot) in dictionary { set(identifier, snapshot) }
    }

    /// Records the change to `identifier`: its snapshot now, or `nil` for a deleted model.
    mutating func set(_ identifier: PersistentIdentifier, _ snapshot: DefaultSnapshot?) {
        if let snapshot {
            saved.updateValue(snapshot, forKey: identifier)
            if !deleted.isEmpty { deleted.remove(identifier) }
        } else {
            saved.removeValue(forKey: identifier)
            deleted.insert(identifier)
        }
    }

    /// Readies the table of saved snapshots for `identifiers` (see
    /// ``IdentifierTable/prepareRuns(for:)``).
    mutating func prepareRuns<Identifiers: Sequence<PersistentIdentifier>>(for identifiers: Identifiers) {
        saved.prepareRuns(for: identifiers)
    }

    /// The entities of the models the save changed (and any the report's table had a run of).
    var entities: Set<InternedName> {
        saved.entities.union(deleted.lazy.map(\.entity))
    }

    /// How many models the save changed.
    public var count: Int { saved.count + deleted.count }

    /// Whether the save changed no model.
    public var isEmpty: Bool { saved.isEmpty && deleted.isEmpty }

    /// The change to `identifier`: `.some(snapshot)`, `.some(nil)` for a deleted model, or
    /// `nil` when the save did not change it.
    public subscript(identifier: PersistentIdentifier) -> DefaultSnapshot?? {
        if let snapshot = saved[identifier] { return .some(snapshot) }
        return !deleted.isEmpty && deleted.contains(identifier) ? .some(nil) : nil
    }

    /// Calls `body` with each changed model's identifier and its snapshot (`nil`: deleted), in
    /// no particular order.
    public func forEach(_ body: (PersistentIdentifier, DefaultSnapshot?) throws -> Void) rethrows {
        try saved.forEach(body)
        for identifier in deleted { try body(identifier, nil) }
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
        var kept = ChangedSnapshots()
        // Set in run order, so the kept runs grow at their ends without being readied.
        forEach { identifier, snapshot in
            if isKept(identifier.entityName) { kept.set(identifier, snapshot) }
        }
        return kept
    }
}
