import Foundation
import TripDocCore

extension ModelContext {
    /// Sends the unsaved inserts, changes and deletions to the stores, one request (one history
    /// transaction) per store, then takes the stores' state: inserted models get their permanent
    /// identifiers, upserts and delete rules show in the registered models.
    ///
    /// - Throws: The store's error (such as ``SaveChangesError`` for a `deny` rule or a missing
    ///   value); the unsaved changes stay in the context.
    public func save() throws {
        guard hasChanges else { return }
        let inserted = insertedIdentifiers.compactMap { registry[$0] }
        let changed = changedIdentifiers.compactMap { registry[$0] }
        let deleted = deletedIdentifiers.compactMap { registry[$0] }
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for store in container.stores {
            func held(_ models: [any PersistentModel]) -> [any PersistentModel] {
                models.filter { (try? container.store(for: $0.persistentModelID.entityName)) === store }
            }
            let request = DataStoreSaveChangesRequest<DefaultSnapshot>(
                editingState: EditingState(id: editingState.id, author: author),
                inserted: held(inserted).map { $0.backing.snapshot() },
                updated: held(changed).map { $0.backing.snapshot() },
                deleted: held(deleted).map { $0.backing.committed ?? $0.backing.snapshot() })
            guard !request.inserted.isEmpty || !request.updated.isEmpty || !request.deleted.isEmpty else { continue }
            let result = try store.save(request)
            remapped.merge(result.remappedIdentifiers) { _, new in new }
            try rewriteTemporaryReferences(in: request, remapped: result.remappedIdentifiers, store: store)
        }
        for model in inserted {
            let backing = model.backing
            let temporary = backing.persistentModelID
            registry[temporary] = nil
            let permanent = remapped[temporary] ?? temporary
            backing.persistentModelID = permanent
            registry[permanent] = model
        }
        for model in deleted {
            registry[model.persistentModelID] = nil
            model.backing.detach()
        }
        insertedIdentifiers = []
        changedIdentifiers = []
        deletedIdentifiers = []
        try refreshRegisteredModels()
    }

    /// A store that rewrites references between models inserted in one save (tripdoc's own do)
    /// needs nothing more. Others, like the WWDC24 talk's JSON store, copy inserted snapshots
    /// with `copy(persistentIdentifier:)` and keep their references to temporary identifiers:
    /// for those the context sends the snapshots that refer to inserted models again, as
    /// updates, with permanent identifiers.
    private func rewriteTemporaryReferences(
        in request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier],
        store: ModelStore
    ) throws {
        guard !(store.store is any RewritesReferencesOnSave), !remapped.isEmpty else { return }
        func refersToInserted(_ snapshot: DefaultSnapshot) -> Bool {
            snapshot.values.values.contains { value in
                switch value {
                case .reference(let id): remapped[id] != nil
                case .references(let ids): ids.contains { remapped[$0] != nil }
                default: false
                }
            }
        }
        let fixed = (request.inserted + request.updated).filter(refersToInserted).map { snapshot in
            snapshot.copy(
                persistentIdentifier: remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier,
                remappedIdentifiers: remapped)
        }
        guard !fixed.isEmpty else { return }
        _ = try store.save(
            DataStoreSaveChangesRequest(editingState: EditingState(id: editingState.id, author: author), updated: fixed))
    }

    /// Gives every registered model the state its store now holds; models the store no longer
    /// holds (deleted by a cascade, merged by an upsert) leave the context.
    private func refreshRegisteredModels() throws {
        snapshotCache = [:]
        for store in container.stores {
            let ids = registry.keys.filter { (try? container.store(for: $0.entityName)) === store }
            guard !ids.isEmpty else { continue }
            var snapshots = try store.cachedSnapshots(for: ids, editingState: editingState)
            if snapshots.count < ids.count {
                // A store without a cache: fetch each entity of the missing models.
                for entityName in Set(ids.filter { snapshots[$0] == nil }.map(\.entityName)) {
                    guard let type = container.modelTypes[entityName] else { continue }
                    for snapshot in try fetchAll(type, from: store) { snapshots[snapshot.persistentIdentifier] = snapshot }
                }
            }
            for id in ids {
                guard let backing = registry[id]?.backing else { continue }
                if let snapshot = snapshots[id] {
                    backing.load(snapshot)
                } else {
                    registry[id] = nil
                    backing.isDeleted = true
                    backing.detach()
                }
            }
        }
    }

    private func fetchAll<M: PersistentModel>(_ type: M.Type, from store: ModelStore) throws -> [DefaultSnapshot] {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<M>(), editingState: editingState)).fetched
    }
}
