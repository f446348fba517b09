import Foundation
import TripDocCore

extension ModelContext {
    /// The models a descriptor selects, in its order. The store filters and sorts when it can;
    /// otherwise (tripdoc's own stores) the context evaluates the predicate and the sort on the
    /// models. With `includePendingChanges`, unsaved inserts count and unsaved deletions do not.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let entityName = ModelDescription.entityName(of: T.self)
        let store = try container.store(for: entityName)
        let hasPendingOfEntity = descriptor.includePendingChanges && hasPendingChanges(of: entityName)
        var storeDescriptor = descriptor
        var inMemory = hasPendingOfEntity
        if hasPendingOfEntity {
            storeDescriptor.fetchLimit = nil
            storeDescriptor.fetchOffset = nil
        }
        var result: (fetched: [DefaultSnapshot], related: [PersistentIdentifier: DefaultSnapshot])
        do {
            result = try store.fetch(DataStoreFetchRequest(descriptor: storeDescriptor, editingState: editingState))
        } catch DataStoreError.preferInMemoryFilter, DataStoreError.preferInMemorySort {
            storeDescriptor.predicate = nil
            storeDescriptor.sortBy = []
            storeDescriptor.fetchLimit = nil
            storeDescriptor.fetchOffset = nil
            inMemory = true
            result = try store.fetch(DataStoreFetchRequest(descriptor: storeDescriptor, editingState: editingState))
        }
        snapshotCache.merge(result.related) { _, new in new }
        // A store may answer with snapshots of every entity (the WWDC24 talk's JSON store does).
        var models = result.fetched.filter { $0.entityName == entityName }.map { materializeFetched($0, as: T.self) as! T }
        if let problem = models.lazy.compactMap({ $0.backing.loadProblem }).first { throw problem }
        if descriptor.includePendingChanges {
            models.removeAll { deletedIdentifiers.contains($0.persistentModelID) }
            models += insertedIdentifiers.compactMap { registry[$0] as? T }
        }
        guard inMemory else { return models }
        if let predicate = descriptor.predicate { models = try models.filter { try predicate.evaluate($0) } }
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        if let offset = descriptor.fetchOffset { models = Array(models.dropFirst(max(offset, 0))) }
        if let limit = descriptor.fetchLimit { models = Array(models.prefix(max(limit, 0))) }
        return models
    }

    /// The models a descriptor selects (SwiftData's batched spelling; tripdoc's archive stores
    /// read whole documents, so the result is not batched).
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> [T] {
        try fetch(descriptor)
    }

    /// How many models a descriptor selects.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try fetch(descriptor).count
    }

    /// The identifiers of the models a descriptor selects.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        try fetch(descriptor).map(\.persistentModelID)
    }

    /// Calls `block` with each model a descriptor selects, in its order.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        for model in try fetch(descriptor) { try block(model) }
    }

    private func hasPendingChanges(of entityName: String) -> Bool {
        (insertedIdentifiers + changedIdentifiers + deletedIdentifiers).contains { $0.entityName == entityName }
    }
}
