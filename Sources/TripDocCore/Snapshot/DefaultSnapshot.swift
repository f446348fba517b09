import Foundation

/// The snapshot every tripdoc store uses: a model's identifier and its values keyed by
/// property name, relationships held as identifiers.
///
/// Unlike SwiftData's opaque `DefaultSnapshot`, the values are public.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The identity of the model.
    public var persistentIdentifier: PersistentIdentifier
    /// The names the snapshot holds values for, shared with every snapshot holding the same.
    package private(set) var layout: SnapshotLayout
    /// The values, one per name of ``layout``, at the same positions.
    package private(set) var slots: [SnapshotValue]

    /// The persisted values by property name. A `nil` attribute is absent or ``SnapshotValue/null``.
    ///
    /// A snapshot keeps its values in an array laid out like every other snapshot of the same
    /// properties, not in a dictionary: this property makes the dictionary. To read or set one
    /// value, use ``subscript(_:)``, which does not.
    public var values: [String: SnapshotValue] {
        get { Dictionary(uniqueKeysWithValues: zip(layout.names, slots)) }
        set { (layout, slots) = SnapshotLayout.of(keysOf: newValue) }
    }

    /// Creates a snapshot.
    public init(persistentIdentifier: PersistentIdentifier, values: [String: SnapshotValue]) {
        self.persistentIdentifier = persistentIdentifier
        (layout, slots) = SnapshotLayout.of(keysOf: values)
    }

    /// Creates a snapshot holding `slots`, one value per name of `layout`, in its order.
    package init(persistentIdentifier: PersistentIdentifier, layout: SnapshotLayout, slots: [SnapshotValue]) {
        precondition(slots.count == layout.names.count, "a snapshot needs one value per name of its layout")
        self.persistentIdentifier = persistentIdentifier
        self.layout = layout
        self.slots = slots
    }

    /// The value of the property `name`, or `nil` when the snapshot has none.
    public subscript(name: String) -> SnapshotValue? {
        get { layout.positions[name].map { slots[$0] } }
        set {
            if let position = layout.positions[name] {
                if let newValue {
                    slots[position] = newValue
                } else {
                    layout = layout.removing(at: position)
                    slots.remove(at: position)
                }
            } else if let newValue {
                let (layout, position) = layout.adding(name)
                self.layout = layout
                slots.insert(newValue, at: position)
            }
        }
    }

    /// The number of properties the snapshot holds a value for.
    public var count: Int { slots.count }

    /// Calls `body` with each property name and value, in the names' UTF-8 order.
    public func forEachValue(_ body: (_ name: String, _ value: SnapshotValue) throws -> Void) rethrows {
        for position in slots.indices { try body(layout.names[position], slots[position]) }
    }

    /// The snapshot with each value replaced by `transform`'s result, the same properties kept
    /// (no dictionary is made).
    public func mapValues(_ transform: (SnapshotValue) throws -> SnapshotValue) rethrows -> DefaultSnapshot {
        DefaultSnapshot(persistentIdentifier: persistentIdentifier, layout: layout, slots: try slots.map(transform))
    }

    public static func == (a: DefaultSnapshot, b: DefaultSnapshot) -> Bool {
        a.persistentIdentifier == b.persistentIdentifier && a.layout.isSame(as: b.layout) && a.slots == b.slots
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(persistentIdentifier)
        hasher.combine(layout.names)
        hasher.combine(slots)
    }

    /// The entity the snapshot belongs to.
    public var entityName: String { persistentIdentifier.entityName }

    public func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> DefaultSnapshot {
        guard let remappedIdentifiers, !remappedIdentifiers.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, layout: layout, slots: slots)
        }
        return DefaultSnapshot(
            persistentIdentifier: persistentIdentifier, layout: layout,
            slots: slots.map { value in value.remappingReferences { remappedIdentifiers[$0] ?? $0 } })
    }

    /// Rewrites the references to the identifiers `remappedIdentifiers` maps, in place: only the
    /// values holding one change, so a snapshot nothing else shares is not copied. Returns
    /// whether every reference the snapshot holds was rewritten or is one `isKept` accepts
    /// (also when it holds none): a save passes the inserts that keep the identifiers minted
    /// for them before their snapshots were made.
    @discardableResult
    mutating func remapReferences(
        _ remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier],
        keeping isKept: (PersistentIdentifier) -> Bool = { _ in false }
    ) -> Bool {
        func kept(_ identifier: PersistentIdentifier) -> Bool { isKept(identifier) }
        var everyOneRewritten = true
        guard !remappedIdentifiers.isEmpty else {
            return !slots.contains { $0.refers { !kept($0) } }
        }
        // Each reference is looked up once (a bulk insert's snapshots refer to nothing else).
        for position in slots.indices {
            // Where the list in this slot has its first reference to rewrite, if it has one.
            var firstInList: Int?
            switch slots[position] {
            case .reference(let target):
                if let new = remappedIdentifiers[target] {
                    slots[position] = .reference(new)
                } else if !kept(target) {
                    everyOneRewritten = false
                }
            case .references(let targets):
                firstInList = targets.firstIndex { remappedIdentifiers[$0] != nil }
                if !targets[..<(firstInList ?? targets.endIndex)].allSatisfy(kept) { everyOneRewritten = false }
            default:
                break
            }
            guard let first = firstInList else { continue }
            // The list is taken out of its slot (and out of the value holding it) before it is
            // rewritten, so that a list nothing else shares is rewritten in place rather than
            // copied: a bulk insert's to-many relationships, every one of them. A list with
            // nothing to rewrite is left as it is, and so is a snapshot sharing its values.
            var value = SnapshotValue.null
            swap(&value, &slots[position])
            guard case .references(var list) = value else { preconditionFailure("the slot held a list") }
            value = .null
            for index in list.indices[first...] {
                if let new = remappedIdentifiers[list[index]] {
                    list[index] = new
                } else if !kept(list[index]) {
                    everyOneRewritten = false
                }
            }
            slots[position] = .references(list)
        }
        return everyOneRewritten
    }

    /// A copy with every identifier (its own and every reference) rewritten through `remap`.
    public func remapped(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> DefaultSnapshot {
        DefaultSnapshot(
            persistentIdentifier: remap(persistentIdentifier), layout: layout,
            slots: slots.map { $0.remappingReferences(remap) })
    }
}
