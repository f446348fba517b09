import Foundation

/// A sendable, codable copy of one model's persisted values, the unit a `DataStore` exchanges
/// with its context (SwiftData's `DataStoreSnapshot`).
public protocol DataStoreSnapshot: Codable, Sendable {
    /// The identity of the model the snapshot copies.
    var persistentIdentifier: PersistentIdentifier { get }

    /// A copy of the snapshot under a new identifier, with every reference that appears in
    /// `remappedIdentifiers` rewritten to its new identifier.
    func copy(
        persistentIdentifier: PersistentIdentifier,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?
    ) -> Self
}

extension DataStoreSnapshot {
    /// A copy of the snapshot under a new identifier, references unchanged (the one-argument
    /// spelling of SwiftData's samples).
    public func copy(persistentIdentifier: PersistentIdentifier) -> Self {
        copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: nil)
    }
}
