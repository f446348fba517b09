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
    /// values holding one change, so a snapshot nothing else shares is not copied.
    mutating func remapReferences(_ remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]) {
        guard !remappedIdentifiers.isEmpty else { return }
        // Not `for index in values.indices`: the indices collection holds the dictionary, whose
        // first change would then copy it.
        var index = values.startIndex
        while index != values.endIndex {
            let value = values.values[index]
            if value.refers(where: { remappedIdentifiers[$0] != nil }) {
                values.values[index] = value.remappingReferences { remappedIdentifiers[$0] ?? $0 }
            }
            values.formIndex(after: &index)
        }
    }

    /// A copy with every identifier (its own and every reference) rewritten through `remap`.
    public func remapped(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> DefaultSnapshot {
        DefaultSnapshot(
            persistentIdentifier: remap(persistentIdentifier),
            values: values.mapValues { $0.remappingReferences(remap) })
    }
}
