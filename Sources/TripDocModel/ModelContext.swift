import Foundation
import TripDocCore

/// Where models are inserted, changed, deleted, fetched and saved (SwiftData's `ModelContext`).
///
/// A context registers each model once: fetching the same model twice gives the same object.
/// Changes stay in the context until ``save()``, which sends them to the store as one
/// `DataStoreSaveChangesRequest` (one history transaction) per store, or ``rollback()``.
/// What another context of the container saved shows in this one's models when it fetches
/// them again (a model with unsaved changes here keeps them).
///
/// A context is not `Sendable`: use it on one actor (``ModelContainer/mainContext`` on the
/// main actor, ``ModelActor/modelContext`` on a `@ModelActor`), and pass
/// `PersistentIdentifier`s between actors.
public final class ModelContext {
    /// The container whose stores the context uses.
    public let container: ModelContainer
    /// The author recorded with the context's saves in history, such as `"widget"`.
    public var author: String?
    /// Whether the context saves its pending changes on its own: for the container's
    /// ``ModelContainer/mainContext``, soon after they are made (on the main actor's next turn);
    /// for every context, at the latest when it is deinitialised or the process exits normally
    /// (see `Autosave.swift` and the README). `true` for `mainContext`, `false` for a context
    /// made with ``init(_:)``, as in SwiftData.
    public var autosaveEnabled = false {
        didSet {
            guard autosaveEnabled != oldValue else { return }
            if autosaveEnabled {
                Autosave.register(self)
                scheduleAutosave()
            } else {
                Autosave.unregister(self)
            }
        }
    }
    /// The error of the last autosave that failed, or `nil` when the last one succeeded
    /// (the failed changes stay pending; ``save()`` them or ``rollback()``).
    public private(set) var autosaveError: (any Error)?
    /// Posted with the context as the object when an autosave fails; `userInfo["error"]`
    /// holds the error.
    public static let autosaveDidFail = Notification.Name("TripDoc.ModelContext.autosaveDidFail")
    /// Whether an autosave is scheduled and has not run yet.
    private var isAutosaveScheduled = false
    /// Whether this is a container's `mainContext`, which the main actor owns.
    var isMainActorContext = false {
        didSet { scheduleAutosave() }
    }

    let editingState: EditingState
    /// Every model the context knows, by identifier (deleted ones until the save).
    var registry: [PersistentIdentifier: any PersistentModel] = [:]
    /// Models inserted and not yet saved, in order.
    var insertedIdentifiers: [PersistentIdentifier] = []
    /// Registered models changed and not yet saved, in the order of their first change.
    var changedIdentifiers: [PersistentIdentifier] = []
    /// Registered models deleted and not yet saved, in order.
    var deletedIdentifiers: [PersistentIdentifier] = []
    /// Snapshots stores offered alongside fetches, for resolving relationships.
    var snapshotCache: [PersistentIdentifier: DefaultSnapshot] = [:]
    /// Whether `save()` posts ``willSave`` and ``didSave``: not while the context is being
    /// deinitialised (its last autosave), nor for a save an observer of ``willSave`` makes.
    var postsSaveNotifications = true

    /// A context over the container's stores.
    public init(_ container: ModelContainer) {
        self.container = container
        editingState = EditingState()
        for store in container.stores { store.store.initializeState(for: editingState) }
    }

    deinit {
        if autosaveEnabled {
            Autosave.unregister(self)
            // No notification names a context that is going away.
            postsSaveNotifications = false
            autosave(isDeinitialising: true)
        }
        for store in container.stores { store.store.invalidateState(for: editingState) }
    }

    // MARK: Autosave

    /// Schedules an autosave if autosave is on and none is scheduled. Only the container's
    /// `mainContext`, which belongs to the main actor, is saved on the main actor's next turn:
    /// another context may be used on another thread, and saving it on the main actor would
    /// race with that thread, so it saves when deinitialised or at exit instead.
    private func scheduleAutosave() {
        guard autosaveEnabled, isMainActorContext, hasChanges, !isAutosaveScheduled else { return }
        isAutosaveScheduled = true
        Autosave.schedule(self)
    }

    /// Saves the pending changes, reporting a failure rather than throwing it (posted without
    /// the context as the object while it is being deinitialised).
    func autosave(isDeinitialising: Bool = false) {
        isAutosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
            autosaveError = nil
        } catch {
            autosaveError = error
            let store = container.dataStoreConfigurations.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("tripdoc: autosave of store \(store) failed: \(error); the changes are still pending in the context\n".utf8))
            NotificationCenter.default.post(
                name: Self.autosaveDidFail, object: isDeinitialising ? nil : self, userInfo: ["error": error])
        }
    }

    // MARK: Pending changes

    /// Whether there are inserts, changes or deletions not yet saved.
    public var hasChanges: Bool {
        !insertedIdentifiers.isEmpty || !changedIdentifiers.isEmpty || !deletedIdentifiers.isEmpty
    }

    /// The models inserted and not yet saved.
    public var insertedModelsArray: [any PersistentModel] { insertedIdentifiers.compactMap { registry[$0] } }
    /// The models changed and not yet saved.
    public var changedModelsArray: [any PersistentModel] { changedIdentifiers.compactMap { registry[$0] } }
    /// The models deleted and not yet saved.
    public var deletedModelsArray: [any PersistentModel] { deletedIdentifiers.compactMap { registry[$0] } }

    /// Whether a model's backing data is in one of the three lists. (Each model's backing data
    /// says so, ``ModelBacking/isPending``: a table of every pending identifier cost a bulk
    /// insert a look-up per change and as much memory as the lists.)
    func isPending(_ backing: any ModelBacking) -> Bool { backing.isPending }

    /// Records that a registered model changed (a model not registered here is ignored).
    func modelDidChange(_ backing: any ModelBacking) {
        defer { scheduleAutosave() }
        // Pending first: a model changed again, or set up right after its insert, costs no
        // look-up. (The registered model's backing data is compared rather than the backing
        // data's context, a weak reference, whose reads are slow.)
        guard !backing.isPending else { return }
        let id = backing.persistentModelID
        guard let registered = registry[id], registered.backing === backing else { return }
        changedIdentifiers.append(id)
        backing.isPending = true
    }

    /// Takes identifiers out of the pending lists (their models' backing data already says
    /// they are not pending).
    func removePending(_ ids: Set<PersistentIdentifier>) {
        guard !ids.isEmpty else { return }
        insertedIdentifiers.removeAll { ids.contains($0) }
        changedIdentifiers.removeAll { ids.contains($0) }
        deletedIdentifiers.removeAll { ids.contains($0) }
    }

    // MARK: Insert and delete

    /// Registers a new model (and the models its relationships reach); saved by ``save()``.
    public func insert<T: PersistentModel>(_ model: T) {
        insertModel(model)
    }

    func insertModel(_ model: any PersistentModel) {
        let backing = model.backing
        let id = backing.persistentModelID
        if backing.context === self, registry[id] != nil {
            if let index = deletedIdentifiers.firstIndex(of: id) {
                // Deleted, then inserted again: it is a changed model again (its edits count).
                deletedIdentifiers.remove(at: index)
                backing.isPending = false
                backing.isDeleted = false
                modelDidChange(backing)
            }
            return
        }
        backing.attach(to: self)
        backing.isDeleted = false
        registry[id] = model
        insertedIdentifiers.append(id)
        backing.isPending = true
        scheduleAutosave()
        // Relationships set before the model was inserted: their destinations join the context
        // and get the inverse.
        for property in backing.description.properties where property.isRelationship {
            let destinations = backing.destinations(of: property)
            if !destinations.isEmpty {
                relationshipDidChange(of: model, property: property, removed: [], added: destinations)
            }
        }
    }

    /// Marks a model deleted; the store deletes it (and applies its relationships' delete
    /// rules) at ``save()``. A model inserted and not yet saved is simply forgotten.
    public func delete<T: PersistentModel>(_ model: T) {
        let backing = model.backing
        let id = backing.persistentModelID
        guard backing.context === self, registry[id] != nil, !deletedIdentifiers.contains(id) else { return }
        if let index = insertedIdentifiers.firstIndex(of: id) {
            insertedIdentifiers.remove(at: index)
            backing.isPending = false
            for property in backing.description.properties where property.isRelationship {
                relationshipDidChange(of: model, property: property, removed: backing.destinations(of: property), added: [])
            }
            registry[id] = nil
            backing.detach()
            backing.isDeleted = true
            return
        }
        changedIdentifiers.removeAll { $0 == id }
        deletedIdentifiers.append(id)
        backing.isPending = true
        backing.isDeleted = true
        scheduleAutosave()
    }

    /// Marks every model of a type that `predicate` selects deleted (all of them without one).
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true)
        throws
    {
        for model in try fetch(FetchDescriptor<T>(predicate: predicate)) { delete(model) }
    }

    /// Forgets every change since the last save: inserted models leave the context, changed
    /// and deleted ones get back their saved state.
    public func rollback() {
        for id in insertedIdentifiers {
            guard let backing = registry[id]?.backing else { continue }
            backing.isPending = false
            backing.detach()
            registry[id] = nil
        }
        for id in changedIdentifiers + deletedIdentifiers {
            guard let backing = registry[id]?.backing else { continue }
            backing.isPending = false
            backing.isDeleted = false
            if let committed = backing.committed { backing.load(committed) }
        }
        insertedIdentifiers = []
        changedIdentifiers = []
        deletedIdentifiers = []
    }

    /// Runs `block` and saves; if either throws, rolls back and rethrows.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    // MARK: Models by identifier

    /// The model with an identifier: the registered one, or one made from the store's snapshot.
    ///
    /// A model no store holds is a programming error, as in SwiftData.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        if let model = try? existingModel(for: persistentModelID) { return model }
        preconditionFailure(ModelContextError.modelNotFound(persistentModelID).description)
    }

    /// The registered model with an identifier, or `nil`.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        registry[persistentModelID] as? T
    }

    /// The model with an identifier as `T`, registered or made from a store's snapshot; `nil`
    /// when no store holds it (or its store cannot be read) or it is not a `T`.
    func existingModel<T: PersistentModel>(identifiedBy id: PersistentIdentifier, as type: T.Type) -> T? {
        (try? existingModel(for: id, as: type)) as? T
    }

    /// The model with an identifier, made from a store's snapshot if it is not registered (as
    /// `type` when the caller knows it; see ``materialize(_:as:)``).
    func existingModel(for id: PersistentIdentifier, as type: (any PersistentModel.Type)? = nil) throws
        -> (any PersistentModel)?
    {
        if let model = registry[id] { return model }
        if let snapshot = snapshotCache[id] { return materialize(snapshot, as: type) }
        let store = try container.store(holding: id)
        guard let snapshot = try store.cachedSnapshots(for: [id], editingState: editingState)[id] else { return nil }
        return materialize(snapshot, as: type)
    }

    /// The models for snapshots of `T`'s entity a store has just fetched, in their order. A
    /// registered model without unsaved changes takes the snapshot's state, which differs when
    /// another context of the container has saved it since this one last read it; one with
    /// unsaved changes keeps them. The model type's description is looked up once, and the
    /// registry grows once.
    ///
    /// - Throws: The first ``DefaultBackingData/loadProblem`` of a model made or refreshed.
    func materializeFetched<T: PersistentModel>(_ snapshots: [DefaultSnapshot], as type: T.Type) throws -> [T] {
        let description = ModelDescription.of(T.self)
        registry.reserveCapacity(registry.count + snapshots.count)
        var models: [T] = []
        models.reserveCapacity(snapshots.count)
        var problem: ModelContextError?
        for snapshot in snapshots {
            let id = snapshot.persistentIdentifier
            if let registered = registry[id] {
                refreshFetched(registered, from: snapshot)
                if problem == nil { problem = registered.backing.loadProblem }
                models.append(registered as! T)
                continue
            }
            let backing = DefaultBackingData<T>(snapshot: snapshot, context: self, description: description)
            let model = ModelBeingMade.making(T.self) { T(backingData: backing) }
            backing.restoreStoredLets(in: model)
            registry[id] = model
            if problem == nil { problem = backing.loadProblem }
            models.append(model)
        }
        if let problem { throw problem }
        return models
    }

    /// Gives a registered model without unsaved changes the state a store has just fetched.
    private func refreshFetched(_ model: any PersistentModel, from snapshot: DefaultSnapshot) {
        let backing = model.backing
        if !backing.isPending, backing.committed != snapshot { backing.load(snapshot) }
    }

    /// The registered model for a snapshot, or a new one made from it: of the type the caller
    /// knows (a fetch's, a relationship's destination) when its entity is the snapshot's, else of
    /// the container's type of that entity. (Two model classes may share an entity name in one
    /// program, in two modules or two schema versions: the name alone does not say which.)
    func materialize(_ snapshot: DefaultSnapshot, as known: (any PersistentModel.Type)? = nil) -> any PersistentModel {
        if let model = registry[snapshot.persistentIdentifier] { return model }
        let knownType = known.flatMap { ModelDescription.of($0).entityName == snapshot.entityName ? $0 : nil }
        guard
            let type = knownType ?? container.modelTypes[snapshot.entityName]
                ?? ModelDescription.registeredTypes()[snapshot.entityName]
        else {
            preconditionFailure(ModelContextError.unknownEntity(snapshot.entityName).description)
        }
        func make<M: PersistentModel>(_ type: M.Type) -> any PersistentModel {
            let backing = DefaultBackingData<M>(snapshot: snapshot, context: self)
            let model = ModelBeingMade.making(M.self) { M(backingData: backing) }
            backing.restoreStoredLets(in: model)
            return model
        }
        let model = make(type)
        registry[snapshot.persistentIdentifier] = model
        return model
    }
}
