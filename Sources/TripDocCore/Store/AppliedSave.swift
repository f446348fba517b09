/// What a save applied to a document: the answer for the saving context, every model it
/// changed as the document now holds it, and the transaction it recorded.
public struct AppliedSave: Sendable {
    /// The store identifier, the temporary → permanent identifier map and the snapshots the
    /// context should re-register (upserted models).
    public var result: DataStoreSaveChangesResult<DefaultSnapshot>
    /// Every model the save changed (inserted, updated, deleted, and those whose relationships
    /// its delete rules and inverses changed), by permanent identifier: its snapshot now, or
    /// `nil` when the save deleted it.
    public var changes: ChangedSnapshots
    /// ``changes`` as a dictionary, made on each read: read ``changes`` instead, or keep what
    /// this returns, rather than reading it again for each model.
    public var changedSnapshots: [PersistentIdentifier: DefaultSnapshot?] { changes.dictionary }
    /// The history transaction the save recorded, or `nil` when it changed nothing.
    public var transaction: HistoryTransactionRecord?
}
