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
        var handedOn = Optional(consume request)
        let worked = try workedOut { working in
            working.keepsInsertedIdentifiers = keepingInsertedIdentifiers
            return handedOn.take()!
        }
        return commit(worked, timestamp: timestamp, processIdentifier: processIdentifier, bundleIdentifier: bundleIdentifier)
    }

    /// Applies one save whose request is made once its inserts' permanent identifiers are
    /// minted: `makeRequest` is given a function minting one for an entity, to give each new
    /// model before its snapshot (and the snapshots referring to it) are made. The inserts
    /// holding those identifiers keep them, so no reference is rewritten and the result maps
    /// no identifier of theirs (except an insert merged into an existing model, an upsert,
    /// which maps its minted identifier to the existing one). Otherwise as
    /// ``applySaveChanges(_:timestamp:processIdentifier:bundleIdentifier:keepingInsertedIdentifiers:)``.
    ///
    /// What a context does for a bulk insert: its models' snapshots are then the ones the
    /// document keeps, so that models and document can share their values.
    ///
    /// - Throws: ``SaveChangesError`` (``SaveChangesError/entitiesNotRead(_:)`` for a document
    ///   holding only some entities), or what `makeRequest` throws; the document is unchanged
    ///   (the identifiers minted are minted again by a later save).
    @discardableResult
    public mutating func applySaveChanges(
        makingRequestWith makeRequest: (_ mint: (_ entityName: String) throws -> PersistentIdentifier) throws
            -> DataStoreSaveChangesRequest<DefaultSnapshot>,
        timestamp: Date = Date(), processIdentifier: String? = nil, bundleIdentifier: String? = nil
    ) throws -> AppliedSave {
        if let heldEntities {
            throw SaveChangesError.entitiesNotRead(schema.entities.map(\.name).filter { !heldEntities.contains($0) }.sorted())
        }
        let worked = try workedOut { working in try makeRequest { try working.mintAhead(for: $0) } }
        return commit(worked, timestamp: timestamp, processIdentifier: processIdentifier, bundleIdentifier: bundleIdentifier)
    }

    /// A save worked out and not yet taken into the document.
    private struct WorkedOutSave {
        let author: String?
        let result: DataStoreSaveChangesResult<DefaultSnapshot>
        let overlay: ChangedSnapshots
        let header: DocumentHeader
        let changes: [HistoryChangeRecord]
    }

    /// The save of the request `prepare` readies the workspace for and returns, worked out
    /// against the document as it is. The workspace, which shares the document's storage, is
    /// gone when this returns, so that taking the changes in does not copy the document.
    private func workedOut(
        _ prepare: (inout SaveChangesWorkspace) throws -> DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> WorkedOutSave {
        var working = SaveChangesWorkspace(base: self)
        let request = try prepare(&working)
        let author = request.editingState.author
        let result = try working.apply(consume request)
        return WorkedOutSave(
            author: author, result: result, overlay: working.overlay, header: working.header, changes: working.changes)
    }

    /// Takes a save worked out into the document, recording its transaction.
    private mutating func commit(
        _ worked: consuming WorkedOutSave, timestamp: Date, processIdentifier: String?, bundleIdentifier: String?
    ) -> AppliedSave {
        var transaction: HistoryTransactionRecord?
        if !worked.changes.isEmpty {
            transaction = HistoryTransactionRecord(
                transactionIdentifier: history.nextTransactionIdentifier, author: worked.author,
                timestamp: timestamp, bundleIdentifier: bundleIdentifier, processIdentifier: processIdentifier,
                changes: worked.changes)
        }
        let changed = worked.overlay
        let result = worked.result
        commit(changed, header: worked.header, transaction: transaction)
        return AppliedSave(result: result, changes: changed, transaction: transaction)
    }
}
