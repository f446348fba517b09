import Foundation

extension IndexedDocument {
    /// Applies one save to the document, as every archive store does: inserted snapshots get
    /// permanent identifiers (or, when they match an existing model on a uniqueness constraint,
    /// update it: an upsert), references to them are rewritten, updates replace, deletes remove
    /// and follow the delete rules. Either the whole save applies or nothing does.
    ///
    /// A save that changes anything is recorded in ``history`` as one transaction: inserts,
    /// then updates (with the names and new values of the changed attributes), then deletes
    /// (cascades included, each with a tombstone of its `.preserveValueOnDeletion` attributes).
    ///
    /// - Parameters:
    ///   - request: The inserted, updated and deleted snapshots, and the saving context's state
    ///     (its author names the transaction's).
    ///   - timestamp: The transaction's time.
    ///   - processIdentifier: The saving process, if known.
    ///   - bundleIdentifier: The saving program, if known.
    ///   - keepingInsertedIdentifiers: An inserted snapshot whose identifier is a permanent one of
    ///     this store that the document does not hold keeps it (the entity's key sequence moves
    ///     past it), instead of getting a new one; one the document holds gets a new key, with
    ///     references to it rewritten, instead of being refused. Inserts are then never upserts:
    ///     one with the values of another model on a uniqueness constraint, as the whole save
    ///     leaves them, is refused. What applying a patch and merging two lines of work need.
    ///
    /// The save's work is proportional to what it changes: the snapshots it names, their
    /// relationships' other sides and the uniqueness indexes of their entities.
    ///
    /// A document holding only some entities (``heldEntities``) takes a save that reads only
    /// those (``entitiesMissing(toSave:)``), once it knows where its history stands
    /// (``knowsHistoryPosition``).
    ///
    /// - Returns: The context's answer, every model the save changed, and the transaction.
    /// - Throws: ``SaveChangesError``; the document is unchanged.
    @discardableResult
    public mutating func applySaveChanges(
        _ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>, timestamp: Date = Date(),
        processIdentifier: String? = nil, bundleIdentifier: String? = nil, keepingInsertedIdentifiers: Bool = false
    ) throws -> AppliedSave {
        if heldEntities != nil {
            // A document holding only some entities takes a save that reads only them, once it
            // knows where its history stands.
            let missing = knowsHistoryPosition ? entitiesMissing(toSave: request) : nil
            guard let missing, missing.isEmpty else { throw SaveChangesError.entitiesNotRead((missing ?? []).sorted()) }
        }
        let author = request.editingState.author
        let worked = try workedOut(consume request, keepingInsertedIdentifiers: keepingInsertedIdentifiers)
        var transaction: HistoryTransactionRecord?
        if !worked.changes.isEmpty {
            transaction = HistoryTransactionRecord(
                transactionIdentifier: history.nextTransactionIdentifier, author: author,
                timestamp: timestamp, bundleIdentifier: bundleIdentifier, processIdentifier: processIdentifier,
                changes: worked.changes)
        }
        let changed = ChangedSnapshots(worked.overlay)
        let result = worked.result
        commit(changed, header: worked.header, transaction: transaction)
        return AppliedSave(result: result, changes: changed, transaction: transaction)
    }

    /// The save worked out against the document as it is. The workspace, which shares the
    /// document's storage, is gone when this returns, so that taking the changes in does not
    /// copy the document.
    private func workedOut(_ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>, keepingInsertedIdentifiers: Bool) throws
        -> (
            result: DataStoreSaveChangesResult<DefaultSnapshot>, overlay: IdentifierTable<DefaultSnapshot?>,
            header: DocumentHeader, changes: [HistoryChangeRecord]
        )
    {
        var working = SaveChangesWorkspace(base: self)
        working.keepsInsertedIdentifiers = keepingInsertedIdentifiers
        let result = try working.apply(consume request)
        return (result, working.overlay, working.header, working.changes)
    }
}
