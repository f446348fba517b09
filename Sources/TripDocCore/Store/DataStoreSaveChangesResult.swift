import Foundation

/// What a store tells the context after a save.
public struct DataStoreSaveChangesResult<Snapshot: DataStoreSnapshot>: Sendable {
    /// The store that saved.
    public var storeIdentifier: String
    /// Each inserted model's temporary identifier and the permanent identifier it now has.
    public var remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Snapshots the context should take as the models' new state (for example after an
    /// upsert merged an insert into an existing model), keyed by permanent identifier.
    public var snapshotsToReregister: [PersistentIdentifier: Snapshot]

    /// Creates a result (SwiftData's spelling).
    public init(
        for storeIdentifier: String,
        remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: Snapshot] = [:]
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
    }

    /// Creates a result (the spelling of the WWDC24 talk's code); deleted identifiers are not
    /// needed by the context and are ignored.
    public init(
        for storeIdentifier: String,
        remappedPersistentIdentifiers: [PersistentIdentifier: PersistentIdentifier],
        deletedIdentifiers: [PersistentIdentifier]
    ) {
        self.init(for: storeIdentifier, remappedIdentifiers: remappedPersistentIdentifiers)
    }
}
