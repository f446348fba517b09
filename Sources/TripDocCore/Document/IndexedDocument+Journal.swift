import Foundation

extension IndexedDocument {
    /// Folds a journal's records into the document, in order: each save's models take the
    /// state it left them in, and its transaction joins the history. Records the document
    /// already holds (its history has their transactions: a compaction that ended before it
    /// could remove the journal) are passed over.
    ///
    /// Each record is checked as a save is: its models are of this store and of the schema's
    /// entities, their values fit, and their references resolve once it is folded in.
    ///
    /// A document holding only some entities (``heldEntities``), which must know where its
    /// history stands, takes the records' changes to those entities only, and their
    /// transactions; what a record says of the others is checked when they are read.
    ///
    /// - Returns: How many records the document already held.
    /// - Throws: ``JournalReadError`` naming the journal's line; the document is then as it
    ///   was before that record.
    @discardableResult
    public mutating func fold(_ journal: DocumentJournal.Contents, journalPath: String) throws -> Int {
        precondition(knowsHistoryPosition, "a document holding only some entities folds a journal once it knows its history's position")
        var alreadyHeld = 0
        for (index, record) in journal.records.enumerated() {
            let line = index + 2
            let last = max(history.transactions.last?.transactionIdentifier ?? 0, history.deletedThrough)
            let identifier = record.transaction.transactionIdentifier
            if identifier <= last {
                alreadyHeld += 1
                continue
            }
            guard identifier == last + 1 else {
                throw JournalReadError(
                    path: journalPath, line: line,
                    problem: "this save is transaction \(identifier), but the document's next is \(last + 1): the saves between are missing")
            }
            let changed = ChangedSnapshots(try checkedChanges(of: record, journalPath: journalPath, line: line))
            var newHeader = header
            for (entityName, next) in record.nextPrimaryKeys {
                newHeader.nextPrimaryKeys[entityName] = max(next, newHeader.nextPrimaryKeys[entityName] ?? 0)
            }
            commit(
                heldEntities == nil ? changed : changed.filter(entities: holds), header: newHeader,
                transaction: record.transaction)
        }
        return alreadyHeld
    }

    /// Folds a journal's records into the snapshots of `entities`, just read from the document
    /// file into a document holding only some entities, which already holds the records'
    /// changes to the others and their transactions: their changes to `entities`, checked as
    /// ``fold(_:journalPath:)`` checks them, and nothing else.
    ///
    /// - Throws: ``JournalReadError`` naming the journal's line.
    mutating func fold(_ journal: DocumentJournal.Contents, journalPath: String, into entities: Set<String>) throws {
        precondition(heldEntities != nil && knowsHistoryPosition, "a document holding some entities and its history's position")
        // The file's position: the transactions after it came from the journal.
        let inFile = history.deletedThrough
        for (index, record) in journal.records.enumerated() where record.transaction.transactionIdentifier > inFile {
            let changed = ChangedSnapshots(try checkedChanges(of: record, journalPath: journalPath, line: index + 2, in: entities))
            commit(changed.filter(entities: entities.contains), header: header, transaction: nil)
        }
    }

    /// The models a record changes, each checked as a save checks it; what it says of models of
    /// entities the document does not hold, or of entities other than `entities` (the record is
    /// in those already), is taken as it is.
    private func checkedChanges(of record: JournalRecord, journalPath: String, line: Int, in entities: Set<String>? = nil)
        throws -> [PersistentIdentifier: DefaultSnapshot?]
    {
        func checks(_ entityName: String) -> Bool { holds(entityName) && entities?.contains(entityName) ?? true }
        func problem(_ text: String) -> JournalReadError { JournalReadError(path: journalPath, line: line, problem: text) }
        // The workspace only checks values here; it is gone before the caller changes the document.
        let workspace = SaveChangesWorkspace(base: self)
        var changed: [PersistentIdentifier: DefaultSnapshot?] = [:]
        for snapshot in record.snapshots {
            let identifier = snapshot.persistentIdentifier
            guard !identifier.isTemporary, identifier.storeIdentifier == storeIdentifier else {
                throw problem("\(identifier) is not an identifier of this document's store")
            }
            guard let entity = workspace.entities[identifier.entityName] else {
                throw problem("\(identifier) is of an entity the document's schema does not have")
            }
            guard changed[identifier] == nil else { throw problem("\(identifier) is listed twice") }
            do {
                changed[identifier] = try workspace.normalized(snapshot, entity: entity, reportedAs: identifier)
            } catch {
                throw problem("\(error)")
            }
        }
        for identifier in record.deleted {
            guard byIdentifier[identifier] != nil || !checks(identifier.entityName), changed[identifier] == nil else {
                throw problem("\(identifier) is deleted, but the document holds no such model")
            }
            changed[identifier] = .some(nil)
        }
        // A reference the record adds (one its model did not hold in that property before the
        // record) must name a model held after it; one the model kept is as it was.
        for case let (identifier, snapshot?) in changed {
            let before = byIdentifier[identifier]
            for (property, value) in snapshot.values.sorted(by: { $0.key < $1.key }) {
                for target in value.referencedIdentifiers where !(before?.values[property]?.refers { $0 == target } ?? false) {
                    let held = changed[target].map { $0 != nil } ?? (byIdentifier[target] != nil || !checks(target.entityName))
                    if !held {
                        throw problem("\(identifier).\(property) refers to \(target), which the document does not hold after this save")
                    }
                }
            }
        }
        return changed
    }
}
