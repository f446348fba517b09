import Foundation
import TripDocCore

/// A container's store as its contexts use it, whatever its type: snapshots are
/// ``DefaultSnapshot``s and history is ``DefaultHistoryTransaction``s.
final class ModelStore {
    let identifier: String
    let schema: Schema
    let configurationName: String
    let store: any DataStore

    init<S: DataStore>(_ store: S, configurationName: String) throws {
        guard S.Snapshot.self == DefaultSnapshot.self else {
            throw ModelContextError.unsupportedSnapshotType(String(describing: S.Snapshot.self))
        }
        self.store = store
        self.identifier = store.identifier
        self.schema = store.schema
        self.configurationName = configurationName
    }

    /// The snapshots a fetch request selects, and related snapshots the store offers.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws
        -> (fetched: [DefaultSnapshot], related: [PersistentIdentifier: DefaultSnapshot])
    {
        func open<S: DataStore>(_ store: S) throws -> ([DefaultSnapshot], [PersistentIdentifier: DefaultSnapshot]) {
            let result = try store.fetch(request)
            return (
                result.fetchedSnapshots as! [DefaultSnapshot],
                result.relatedSnapshots as! [PersistentIdentifier: DefaultSnapshot]
            )
        }
        return try open(store)
    }

    /// Saves; with every model the save changed when the store reports them (tripdoc's own
    /// stores do), `nil` otherwise.
    func save(_ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> (result: DataStoreSaveChangesResult<DefaultSnapshot>, changed: ChangedSnapshots?)
    {
        if let reporting = store as? any ReportsAppliedSaves {
            let applied = try reporting.applySave(consume request)
            return (applied.result, applied.changes)
        }
        func open<S: DataStore>(_ store: S, _ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
            -> DataStoreSaveChangesResult<DefaultSnapshot>
        {
            let result = try store.save(request as! DataStoreSaveChangesRequest<S.Snapshot>)
            return result as! DataStoreSaveChangesResult<DefaultSnapshot>
        }
        return (try open(store, request), nil)
    }

    /// Saves a request made once its inserts' permanent identifiers are minted (tripdoc's own
    /// stores, see ``MintsIdentifiersAhead``), with every model the save changed; `nil`,
    /// without calling `makeRequest`, when the store takes temporary identifiers instead.
    func save(
        insertCount: Int,
        makingRequestWith makeRequest: (_ mint: (_ entityName: String) throws -> PersistentIdentifier) throws
            -> DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> (result: DataStoreSaveChangesResult<DefaultSnapshot>, changed: ChangedSnapshots)? {
        guard let minting = store as? any MintsIdentifiersAhead,
            let applied = try minting.applySave(insertCount: insertCount, makingRequestWith: makeRequest)
        else { return nil }
        return (applied.result, applied.changes)
    }

    func cachedSnapshots(for identifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        func open<S: DataStore>(_ store: S) throws -> [PersistentIdentifier: DefaultSnapshot] {
            try store.cachedSnapshots(for: identifiers, editingState: editingState) as! [PersistentIdentifier: DefaultSnapshot]
        }
        return try open(store)
    }

    /// The store's history, or `nil` when it keeps none.
    func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction]? {
        guard let provider = store as? any HistoryProviding else { return nil }
        func open<H: HistoryProviding>(_ store: H) throws -> [DefaultHistoryTransaction] {
            guard let typed = descriptor as? HistoryDescriptor<H.HistoryType> else {
                throw ModelContextError.unsupportedSnapshotType(String(describing: H.HistoryType.self))
            }
            return try store.fetchHistory(typed) as! [DefaultHistoryTransaction]
        }
        return try open(provider)
    }

    /// Deletes history, returning `false` when the store keeps none.
    func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> Bool {
        guard let provider = store as? any HistoryProviding else { return false }
        func open<H: HistoryProviding>(_ store: H) throws {
            guard let typed = descriptor as? HistoryDescriptor<H.HistoryType> else {
                throw ModelContextError.unsupportedSnapshotType(String(describing: H.HistoryType.self))
            }
            try store.deleteHistory(typed)
        }
        try open(provider)
        return true
    }

    func erase() throws { try store.erase() }
}

/// A store that tells, for each save, every model it changed (tripdoc's own stores), so that a
/// context refreshes only those models instead of every one it holds.
protocol ReportsAppliedSaves: AnyObject {
    /// Saves, reporting every model the save changed.
    ///
    /// The store may take the request's snapshots and change them in place: a caller that gives
    /// the request up spares a copy of every inserted snapshot.
    func applySave(_ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> AppliedSave
}

/// A store that mints the permanent identifiers of a save's inserts before their snapshots are
/// made (tripdoc's own): the snapshots then refer to them from the start, so the store keeps
/// them as they are, with no table of temporary identifiers and no reference rewritten.
protocol MintsIdentifiersAhead: AnyObject {
    /// Saves the request `makeRequest` makes with the identifiers it mints (`mint` gives one for
    /// an entity), reporting every model the save changed; `nil`, without calling
    /// `makeRequest`, when a save of `insertCount` inserts is better made with temporary
    /// identifiers. `makeRequest` is called with the store locked: it must not use the store.
    func applySave(
        insertCount: Int,
        makingRequestWith makeRequest: (_ mint: (_ entityName: String) throws -> PersistentIdentifier) throws
            -> DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> AppliedSave?
}

/// A store whose document a context may read directly, indexes included (tripdoc's own), so
/// that a fetch an index can answer reads only what it selects.
protocol ProvidesIndexedDocument: AnyObject {
    /// The document as it is now, or a part of it holding at least the snapshots of
    /// `entityName` and their indexes.
    func indexedDocument(holding entityName: String) throws -> IndexedDocument
}
