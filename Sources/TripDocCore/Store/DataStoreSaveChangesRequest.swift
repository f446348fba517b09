import Foundation

/// The changes of one save, as a context hands them to its store.
///
/// Inserted snapshots carry temporary identifiers; the store gives them permanent ones and
/// reports the mapping in ``DataStoreSaveChangesResult``.
public struct DataStoreSaveChangesRequest<Snapshot: DataStoreSnapshot>: Sendable {
    /// The context the changes come from.
    public var editingState: EditingState
    /// Snapshots of newly inserted models.
    public var inserted: [Snapshot]
    /// Snapshots of changed models, with all their values.
    public var updated: [Snapshot]
    /// Snapshots of deleted models.
    public var deleted: [Snapshot]

    /// Creates a request.
    public init(
        editingState: EditingState = EditingState(), inserted: [Snapshot] = [], updated: [Snapshot] = [],
        deleted: [Snapshot] = []
    ) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
