import Foundation

extension Document {
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
    /// - Returns: The store identifier, the temporary → permanent identifier map and the
    ///   snapshots the context should re-register (upserted models).
    /// - Throws: ``SaveChangesError``; the document is unchanged.
    @discardableResult
    public mutating func applySaveChanges(
        _ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>, timestamp: Date = Date(),
        processIdentifier: String? = nil, bundleIdentifier: String? = nil, keepingInsertedIdentifiers: Bool = false
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var indexed = IndexedDocument(self)
        // The document lets go of its history while the save is applied, so that appending to
        // it does not copy every transaction the two would share.
        history = DocumentHistory()
        defer { history = indexed.history }
        let applied = try indexed.applySaveChanges(
            consume request, timestamp: timestamp, processIdentifier: processIdentifier, bundleIdentifier: bundleIdentifier,
            keepingInsertedIdentifiers: keepingInsertedIdentifiers)
        self = indexed.document
        return applied.result
    }
}
