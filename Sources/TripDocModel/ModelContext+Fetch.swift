import Foundation
import TripDocCore

extension ModelContext {
    /// The models a descriptor selects, in its order. The store filters and sorts when it can;
    /// otherwise (tripdoc's own stores) the context does: on the stored snapshots when the
    /// predicate and sort descriptors allow it (comparisons of scalar attributes with constants
    /// joined by `&&`, `||`, `!`; sorts by scalar attributes; an `#Index` serving ranges and sorts),
    /// making models of the selected ones only, else on the models. With
    /// `includePendingChanges`, unsaved inserts count and unsaved deletions do not.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        switch try select(descriptor) {
        case .snapshots(let snapshots):
            return try materializeFetched(snapshots, as: T.self)
        case .models(let models):
            return models
        }
    }

    /// What a fetch selects: stored snapshots, when no unsaved change of the entity can change
    /// the answer and the store or the snapshots could answer it, or models.
    private enum Selection<T> {
        case snapshots([DefaultSnapshot])
        case models([T])
    }

    private func select<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Selection<T> {
        let entityName = ModelDescription.entityName(of: T.self)
        if container.stores.count > 1 {
            let holders = container.stores(for: entityName)
            if holders.count > 1 { return .models(try selectAcrossStores(holders, entityName, descriptor)) }
        }
        let store = try container.store(for: entityName)
        let hasPendingOfEntity = hasPendingChanges(of: entityName)
        let countsPending = descriptor.includePendingChanges && hasPendingOfEntity
        if !hasPendingOfEntity, let provider = store.store as? any ProvidesIndexedDocument,
            let selected = try? selectThroughIndex(try provider.indexedDocument(holding: entityName), entityName, descriptor)
        {
            return .snapshots(selected)
        }
        if !hasPendingOfEntity, let provider = store.store as? any ProvidesAttributeColumns,
            let selected = try? selectThroughColumn(provider, entityName, descriptor)
        {
            return .snapshots(selected)
        }
        var storeDescriptor = descriptor
        var inMemory = countsPending
        if countsPending {
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
        var fetched = result.fetched
        if fetched.contains(where: { $0.entityName != entityName }) { fetched.removeAll { $0.entityName != entityName } }
        if !hasPendingOfEntity {
            if !inMemory { return .snapshots(fetched) }
            if let selected = try? selectSnapshots(fetched, descriptor) { return .snapshots(selected) }
        }
        let models = includingPending(try materializeFetched(fetched, as: T.self), descriptor)
        guard inMemory else { return .models(models) }
        return .models(try selectedInMemory(models, descriptor))
    }

    /// `models` with the context's unsaved inserts added and its unsaved deletes taken out, when
    /// the descriptor includes pending changes.
    private func includingPending<T: PersistentModel>(_ models: [T], _ descriptor: FetchDescriptor<T>) -> [T] {
        guard descriptor.includePendingChanges else { return models }
        var models = models
        models.removeAll { deletedIdentifiers.contains($0.persistentModelID) }
        models += insertedIdentifiers.compactMap { registry[$0] as? T }
        return models
    }

    /// `models` filtered, sorted and cut to the offset and limit as `descriptor` says, in memory.
    private func selectedInMemory<T: PersistentModel>(_ models: [T], _ descriptor: FetchDescriptor<T>) throws -> [T] {
        var models = models
        if let predicate = descriptor.predicate { models = try models.filter { try predicate.evaluate($0) } }
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        if let offset = descriptor.fetchOffset { models = Array(models.dropFirst(max(offset, 0))) }
        if let limit = descriptor.fetchLimit { models = Array(models.prefix(max(limit, 0))) }
        return models
    }

    /// The models a descriptor selects from an entity several stores hold (a container whose
    /// configurations share it): every store's models of the entity, filtered, sorted and cut to
    /// the offset and limit together, as SwiftData fetches from every store holding the entity.
    private func selectAcrossStores<T: PersistentModel>(
        _ stores: [ModelStore], _ entityName: String, _ descriptor: FetchDescriptor<T>
    ) throws -> [T] {
        var fetched: [DefaultSnapshot] = []
        for store in stores {
            let result = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<T>(), editingState: editingState))
            snapshotCache.merge(result.related) { _, new in new }
            fetched += result.fetched.filter { $0.entityName == entityName }
        }
        return try selectedInMemory(includingPending(try materializeFetched(fetched, as: T.self), descriptor), descriptor)
    }

    /// The snapshots a descriptor selects, read through an index of the document: candidates
    /// from the range of an indexed attribute the predicate requires, or, for a fetch with a
    /// limit sorted by an indexed attribute alone, the first models in the index's order; then
    /// filtered and ordered as ``selectSnapshots(_:_:)`` does.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` when no index serves the descriptor (the
    ///   caller then reads every snapshot of the entity).
    private func selectThroughIndex<T: PersistentModel>(
        _ document: IndexedDocument, _ entityName: String, _ descriptor: FetchDescriptor<T>
    ) throws -> [DefaultSnapshot] {
        var candidates: [PersistentIdentifier]?
        if let predicate = descriptor.predicate, let range = SnapshotPredicate(predicate, of: T.self)?.range,
            let identifiers = document.identifiers(of: entityName, where: range.name, from: range.lower, to: range.upper)
        {
            // In document order, as a fetch without a sort gives them.
            candidates = identifiers.sorted()
        } else if descriptor.predicate == nil, let limit = descriptor.fetchLimit, !descriptor.sortBy.isEmpty,
            let key = SnapshotSortOrder(descriptor.sortBy, of: T.self)?.singleKey,
            !document.hasUnorderedValues(in: key.name, of: entityName),
            let identifiers = document.identifiers(
                of: entityName, withFirst: max(descriptor.fetchOffset ?? 0, 0) + max(limit, 0), of: key.name,
                reversed: key.isReversed)
        {
            candidates = identifiers.sorted()
        }
        guard let candidates else { throw SnapshotPredicate.Unevaluable() }
        return try selectSnapshots(candidates.compactMap { document.snapshot(for: $0) }, descriptor)
    }

    /// The snapshots a descriptor selects when its predicate bounds an attribute no index
    /// serves: the candidates are the snapshots whose value of the attribute, read from the
    /// store's column of it, is within the bounds; then filtered and ordered as
    /// ``selectSnapshots(_:_:)`` does.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` when the predicate bounds no attribute, or
    ///   the store keeps no columns.
    private func selectThroughColumn<T: PersistentModel>(
        _ provider: any ProvidesAttributeColumns, _ entityName: String, _ descriptor: FetchDescriptor<T>
    ) throws -> [DefaultSnapshot] {
        guard let predicate = descriptor.predicate, let range = SnapshotPredicate(predicate, of: T.self)?.range,
            let column = provider.attributeColumn(of: entityName, attribute: range.name)
        else { throw SnapshotPredicate.Unevaluable() }
        return try selectSnapshots(column.snapshots(within: range), descriptor)
    }

    /// The snapshots a descriptor selects, filtered and sorted on the snapshots themselves.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` when the predicate or the sort needs the
    ///   models (the caller then evaluates them on the models).
    private func selectSnapshots<T: PersistentModel>(_ snapshots: [DefaultSnapshot], _ descriptor: FetchDescriptor<T>) throws
        -> [DefaultSnapshot]
    {
        var selected = snapshots
        if let predicate = descriptor.predicate {
            guard let condition = SnapshotPredicate(predicate, of: T.self) else { throw SnapshotPredicate.Unevaluable() }
            selected = try selected.filter(condition.matches)
        }
        let offset = max(descriptor.fetchOffset ?? 0, 0)
        if !descriptor.sortBy.isEmpty {
            guard let order = SnapshotSortOrder(descriptor.sortBy, of: T.self) else { throw SnapshotPredicate.Unevaluable() }
            selected = try order.sorted(selected, limit: descriptor.fetchLimit.map { offset + max($0, 0) })
        }
        if offset > 0 { selected = Array(selected.dropFirst(offset)) }
        if let limit = descriptor.fetchLimit { selected = Array(selected.prefix(max(limit, 0))) }
        return selected
    }

    /// The models a descriptor selects (SwiftData's batched spelling): every model is made at
    /// once, as ``fetch(_:)`` makes them (``FetchResultsCollection`` is an array).
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        try fetch(descriptor)
    }

    /// How many models a descriptor selects; counted on the stored snapshots, without making
    /// models, when ``fetch(_:)`` would select snapshots.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        switch try select(descriptor) {
        case .snapshots(let snapshots): snapshots.count
        case .models(let models): models.count
        }
    }

    /// The identifiers of the models a descriptor selects; without making models when
    /// ``fetch(_:)`` would select snapshots.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        switch try select(descriptor) {
        case .snapshots(let snapshots): snapshots.map(\.persistentIdentifier)
        case .models(let models): models.map(\.persistentModelID)
        }
    }

    /// The identifiers of the models a descriptor selects (SwiftData's batched spelling): all at
    /// once, as ``fetchIdentifiers(_:)`` gives them.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws
        -> FetchResultsCollection<PersistentIdentifier>
    {
        try fetchIdentifiers(descriptor)
    }

    /// Calls `block` with each model a descriptor selects, in its order.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        for model in try fetch(descriptor) { try block(model) }
    }

    private func hasPendingChanges(of entityName: String) -> Bool {
        insertedIdentifiers.contains { $0.entityName == entityName }
            || changedIdentifiers.contains { $0.entityName == entityName }
            || deletedIdentifiers.contains { $0.entityName == entityName }
    }
}

/// What a batched fetch returns (SwiftData's `FetchResultsCollection`, a random-access
/// collection of models, or of identifiers, made a batch at a time): in tripdoc, an array made
/// at once, so that code naming the type, indexing it or iterating it compiles and runs unchanged.
public typealias FetchResultsCollection<Element> = [Element]
