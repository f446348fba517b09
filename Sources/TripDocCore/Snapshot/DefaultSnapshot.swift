import Foundation

/// The snapshot every tripdoc store uses: a model's identifier and its values keyed by
/// property name, relationships held as identifiers.
///
/// Unlike SwiftData's opaque `DefaultSnapshot`, the values are public.
public struct DefaultSnapshot: DataStoreSnapshot, Hashable {
    /// The identity of the model.
    public var persistentIdentifier: PersistentIdentifier
    /// The persisted values by property name. A `nil` attribute is absent or ``SnapshotValue/null``.
    public var values: [String: SnapshotValue]

    /// Creates a snapshot.
    public init(persistentIdentifier: PersistentIdentifier, values: [String: SnapshotValue]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    /// The value of the property `name`, or `nil` when the snapshot has none.
    public subscript(name: String) -> SnapshotValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The entity the snapshot belongs to.
    public var entityName: String { persistentIdentifier.entityName }

    public func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> DefaultSnapshot {
        guard let remappedIdentifiers, !remappedIdentifiers.isEmpty else {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: values)
        }
        return DefaultSnapshot(
            persistentIdentifier: persistentIdentifier,
            values: values.mapValues { value in
                value.remappingReferences { remappedIdentifiers[$0] ?? $0 }
            })
    }

    /// Rewrites the references to the identifiers `remappedIdentifiers` maps, in place: only the
    /// values holding one change, so a snapshot nothing else shares is not copied. Returns
    /// whether every reference the snapshot holds was rewritten (also when it holds none).
    @discardableResult
    mutating func remapReferences(_ remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]) -> Bool {
        var everyOneRewritten = true
        guard !remappedIdentifiers.isEmpty else {
            return !values.values.contains { $0.refers { _ in true } }
        }
        // Not `for index in values.indices`: the indices collection holds the dictionary, whose
        // first change would then copy it.
        // Each reference is looked up once (a bulk insert's snapshots refer to nothing else).
        var index = values.startIndex
        while index != values.endIndex {
            switch values.values[index] {
            case .reference(let target):
                if let new = remappedIdentifiers[target] {
                    values.values[index] = .reference(new)
                } else {
                    everyOneRewritten = false
                }
            case .references(let targets):
                var rewritten: [PersistentIdentifier]?
                for position in targets.indices {
                    guard let new = remappedIdentifiers[targets[position]] else {
                        everyOneRewritten = false
                        continue
                    }
                    if rewritten == nil { rewritten = targets }
                    rewritten![position] = new
                }
                if let rewritten { values.values[index] = .references(rewritten) }
            default:
                break
            }
            values.formIndex(after: &index)
        }
        return everyOneRewritten
    }

    /// A copy with every identifier (its own and every reference) rewritten through `remap`.
    public func remapped(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> DefaultSnapshot {
        DefaultSnapshot(
            persistentIdentifier: remap(persistentIdentifier),
            values: values.mapValues { $0.remappingReferences(remap) })
    }
}
