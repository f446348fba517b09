import Foundation
import TripDocCore

extension ModelContext {
    /// Sends the unsaved inserts, changes and deletions to the stores, one request (one history
    /// transaction) per store, then takes the stores' state: inserted models get their permanent
    /// identifiers, upserts and delete rules show in the registered models.
    ///
    /// Posts ``willSave`` before and ``didSave`` after (naming what the stores took, also when
    /// a later store then refused), both with the context as their object; a save that an
    /// observer of ``willSave`` makes posts neither.
    ///
    /// - Throws: The store's error (such as `SaveChangesError` for a `deny` rule or a missing
    ///   value); the unsaved changes stay in the context.
    public func save() throws {
        guard hasChanges else { return }
        let posts = postsSaveNotifications
        if posts {
            postsSaveNotifications = false
            NotificationCenter.default.post(name: Self.willSave, object: self)
            postsSaveNotifications = true
            // An observer may have saved, or undone, the changes.
            guard hasChanges else { return }
        }
        // The models each store took, for didSave.
        var saved = SavedModels()
        defer { if posts, !saved.isEmpty { postDidSave(saved) } }
        // Each entity's store, looked up once per save rather than once per model; an entity
        // several stores hold is looked up per model (a saved model goes back to its own store,
        // a new one to the first).
        var storesByEntity: [(entityName: String, store: ModelStore)] = []
        func storeHolding(_ id: PersistentIdentifier) throws -> ModelStore {
            let entityName = id.entityName
            if let known = storesByEntity.first(where: { $0.entityName == entityName }) { return known.store }
            if container.stores.count > 1, container.stores(for: entityName).count > 1 {
                return try container.store(holding: id)
            }
            let store = try container.store(for: entityName)
            storesByEntity.append((entityName, store))
            return store
        }
        // Every pending model must have a store before anything is sent.
        for ids in [insertedIdentifiers, changedIdentifiers, deletedIdentifiers] {
            for id in ids { _ = try storeHolding(id) }
        }
        var committedAny = false
        // What the stores changed, store by store: each model's snapshot now (`nil`: gone), or
        // `nil` once a store that does not report it has saved (then every registered model is
        // refreshed).
        var changed: [ChangedSnapshots]? = []
        do {
            for store in container.stores {
                // The models pending under `ids` that this store holds, and the identifiers
                // they are pending under (`ids` itself, not copied, with one store).
                func held(_ ids: [PersistentIdentifier]) -> (ids: [PersistentIdentifier], models: [any PersistentModel]) {
                    // With one store, every pending model is of it (checked above).
                    let ids = container.stores.count == 1 ? ids : ids.filter { (try? storeHolding($0)) === store }
                    // Sized once: a bulk insert's list is as long as its models.
                    var models: [any PersistentModel] = []
                    models.reserveCapacity(ids.count)
                    for id in ids {
                        if let model = registry[id] { models.append(model) }
                    }
                    return (models.count == ids.count ? ids : models.map(\.persistentModelID), models)
                }
                let (insertedIDs, inserted) = held(insertedIdentifiers)
                let changedModels = held(changedIdentifiers).models
                let deleted = held(deletedIdentifiers).models
                guard !inserted.isEmpty || !changedModels.isEmpty || !deleted.isEmpty else { continue }
                let editing = EditingState(id: editingState.id, author: author)
                // `sharingInserts`: each new model lets go of its values for the snapshot made of
                // them, which a store that minted the identifiers first keeps as it is.
                func request(sharingInserts: Bool) throws -> DataStoreSaveChangesRequest<DefaultSnapshot> {
                    DataStoreSaveChangesRequest(
                        editingState: editing,
                        inserted: try inserted.map { model in
                            let snapshot = try model.backing.snapshot()
                            if sharingInserts { model.backing.holdSentSnapshot(snapshot) }
                            return snapshot
                        },
                        updated: try changedModels.map { try $0.backing.snapshot() },
                        deleted: try deleted.map { try $0.backing.committed ?? $0.backing.snapshot() })
                }
                let result: DataStoreSaveChangesResult<DefaultSnapshot>
                var storeChanged: ChangedSnapshots?
                // The request, for a store that leaves references to inserted models as they
                // were (see `rewriteTemporaryReferences`).
                var kept: DataStoreSaveChangesRequest<DefaultSnapshot>?
                var minted = 0
                do {
                    // Tripdoc's own stores mint the inserts' identifiers first: the models take
                    // them before their snapshots are made, which the store then keeps as they
                    // are (nothing to remap, no reference to rewrite).
                    if let saved = try store.save(
                        insertCount: inserted.count,
                        makingRequestWith: { mint in
                            for (id, model) in zip(insertedIDs, inserted) where id.isTemporary {
                                let permanent = try mint(id.entityName)
                                registry[id] = nil
                                model.backing.persistentModelID = permanent
                                registry[permanent] = model
                                minted += 1
                            }
                            return try request(sharingInserts: true)
                        })
                    {
                        (result, storeChanged) = saved
                    } else {
                        let request = try request(sharingInserts: false)
                        // Kept only for a store that leaves references to inserted models as
                        // they were; tripdoc's own stores are given the request, which spares
                        // them copying every inserted snapshot.
                        kept = store.store is any RewritesReferencesOnSave ? nil : request
                        (result, storeChanged) = try store.save(consume request)
                    }
                } catch {
                    throw restoreTemporaryIdentifiers(of: minted, in: zip(insertedIDs, inserted), reporting: error)
                }
                // This store has the changes now, whatever happens with the next one.
                commit(
                    inserted: inserted, pendingAs: insertedIDs, changed: changedModels, deleted: deleted,
                    remapped: result.remappedIdentifiers)
                committedAny = true
                saved.append(inserted: inserted, updated: changedModels, deleted: deleted)
                if let storeChanged {
                    changed?.append(storeChanged)
                } else {
                    changed = nil
                }
                if let kept, try rewriteTemporaryReferences(in: kept, remapped: result.remappedIdentifiers, store: store) {
                    changed = nil
                }
            }
        } catch {
            if committedAny { try? refresh(changed) }
            throw error
        }
        try refresh(changed)
    }

    /// Gives the models a save changed the state their stores now hold (`changed`), or, when a
    /// store did not tell what it changed (`nil`), every registered model.
    private func refresh(_ changed: [ChangedSnapshots]?) throws {
        snapshotCache = [:]
        guard let changed else { return try refreshRegisteredModels() }
        // Stores hold models of distinct identifiers (each its own store identifier), so no
        // model is reported by two of them.
        for storeChanged in changed {
            storeChanged.forEach { id, snapshot in refresh(id, to: snapshot) }
        }
    }

    /// Takes a store's report of the model `id` into its registered model, if any: its snapshot
    /// now, or `nil` when the save deleted it.
    private func refresh(_ id: PersistentIdentifier, to snapshot: DefaultSnapshot?) {
        // Models still pending (a store that refused) keep their unsaved state.
        guard let backing = registry[id]?.backing, !backing.isPending else { return }
        if let snapshot {
            // Read when the model is next used: a bulk insert's models mostly are not.
            backing.loadOnFirstUse(snapshot)
        } else {
            registry[id] = nil
            backing.isDeleted = true
            backing.detach()
        }
    }

    /// Gives the first `count` inserts with temporary identifiers among `inserts` (each model
    /// with the identifier it was pending under) their temporary identifiers back, after a
    /// store minted permanent ones for them and then refused the save, as well as the
    /// references of the snapshots the new models hold in place of their values; returns
    /// `error` naming them by their temporary identifiers, as the program knows them.
    private func restoreTemporaryIdentifiers(
        of count: Int, in inserts: Zip2Sequence<[PersistentIdentifier], [any PersistentModel]>, reporting error: any Error
    ) -> any Error {
        guard count > 0 else { return error }
        var temporaryOf: [PersistentIdentifier: PersistentIdentifier] = [:]
        var restored = 0
        for (id, model) in inserts where id.isTemporary {
            guard restored < count else { break }
            let minted = model.backing.persistentModelID
            registry[minted] = nil
            model.backing.persistentModelID = id
            registry[id] = model
            temporaryOf[minted] = id
            restored += 1
        }
        func temporary(_ id: PersistentIdentifier) -> PersistentIdentifier { temporaryOf[id] ?? id }
        for (_, model) in inserts { model.backing.rewriteSentSnapshotReferences(temporary) }
        switch error {
        case let error as SaveChangesError:
            return error.replacingIdentifiers(with: temporary)
        case ModelContextError.unencodableValue(let id, let property, let reason):
            return ModelContextError.unencodableValue(temporary(id), property: property, reason: reason)
        default:
            return error
        }
    }

    /// Takes a store's successful save into the context: inserted models get their permanent
    /// identifiers (if the store did not mint them before), deleted ones leave, and none of
    /// them is pending any more. An insert the store merged into an existing model (an upsert)
    /// shares that model's backing data, so both objects show and change the one model.
    /// `pendingAs` lists the identifiers the inserts were pending under.
    private func commit(
        inserted: [any PersistentModel], pendingAs insertedIDs: [PersistentIdentifier], changed: [any PersistentModel],
        deleted: [any PersistentModel], remapped: [PersistentIdentifier: PersistentIdentifier]
    ) {
        func share<M: PersistentModel>(_ model: M, backingOf existing: any PersistentModel) {
            guard let existing = existing as? M else { return }
            model.persistentBackingData = existing.persistentBackingData
        }
        // A save of everything pending (one store's, the usual case) empties the pending lists
        // at once; otherwise the models saved are taken out of them.
        let savesAllPending =
            inserted.count == insertedIdentifiers.count && changed.count == changedIdentifiers.count
            && deleted.count == deletedIdentifiers.count
        var done: Set<PersistentIdentifier> = []
        for (pendingID, model) in zip(insertedIDs, inserted) {
            let backing = model.backing
            backing.isPending = false
            if !savesAllPending { done.insert(pendingID) }
            let temporary = backing.persistentModelID
            let permanent = remapped[temporary] ?? temporary
            guard permanent != temporary else { continue }
            registry[temporary] = nil
            backing.persistentModelID = permanent
            // One look-up for a new model; an upsert's model puts the existing one back.
            if let existing = registry.updateValue(model, forKey: permanent), existing !== model {
                registry[permanent] = existing
                share(model, backingOf: existing)
            }
        }
        for model in changed {
            model.backing.isPending = false
            if !savesAllPending { done.insert(model.persistentModelID) }
        }
        for model in deleted {
            model.backing.isPending = false
            if !savesAllPending { done.insert(model.persistentModelID) }
            registry[model.persistentModelID] = nil
            model.backing.detach()
        }
        if savesAllPending {
            insertedIdentifiers = []
            changedIdentifiers = []
            deletedIdentifiers = []
        } else {
            removePending(done)
        }
    }

    /// A store that rewrites references between models inserted in one save (tripdoc's own do)
    /// needs nothing more. Others, like the WWDC24 talk's JSON store, copy inserted snapshots
    /// with `copy(persistentIdentifier:)` and keep their references to temporary identifiers:
    /// for those the context sends the snapshots that refer to inserted models again, as
    /// updates, with permanent identifiers. Returns whether it did.
    private func rewriteTemporaryReferences(
        in request: DataStoreSaveChangesRequest<DefaultSnapshot>, remapped: [PersistentIdentifier: PersistentIdentifier],
        store: ModelStore
    ) throws -> Bool {
        guard !remapped.isEmpty else { return false }
        func refersToInserted(_ snapshot: DefaultSnapshot) -> Bool {
            snapshot.slots.contains { value in
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
        guard !fixed.isEmpty else { return false }
        _ = try store.save(
            DataStoreSaveChangesRequest(editingState: EditingState(id: editingState.id, author: author), updated: fixed))
        return true
    }

    /// Gives every registered model the state its store now holds; models the store no longer
    /// holds (deleted by a cascade, merged by an upsert) leave the context.
    private func refreshRegisteredModels() throws {
        for store in container.stores {
            // Models still pending (a store that refused) keep their unsaved state.
            let ids = registry.compactMap { id, model in
                !model.backing.isPending && (try? container.store(holding: id)) === store ? id : nil
            }
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
