import Foundation
import TripDocCore

/// The stores of an app's models and the schema they share (SwiftData's `ModelContainer`).
///
/// `ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))` opens the
/// document at `url`; with no configuration, the default location is used.
public final class ModelContainer: @unchecked Sendable {
    /// The schema of every model type the container holds.
    public let schema: Schema
    /// The migration plan the container was made with (SwiftData's `migrationPlan`), or `nil`
    /// when it was given none.
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// Every configuration, in the order given, each with the container's schema: tripdoc's
    /// ``ModelConfiguration``s and any other store's.
    public let dataStoreConfigurations: [any DataStoreConfiguration]
    /// The container's ``ModelConfiguration``s (SwiftData's `configurations`), so that
    /// `container.configurations.first?.url` finds the store's file; a custom store's
    /// configurations are in ``dataStoreConfigurations``.
    public var configurations: Set<ModelConfiguration> {
        Set(dataStoreConfigurations.compactMap { $0 as? ModelConfiguration })
    }
    /// The stores, one per configuration.
    let stores: [ModelStore]
    /// The model types, by entity name.
    let modelTypes: [String: any PersistentModel.Type]

    private let lock = NSLock()
    nonisolated(unsafe) private var mainContextStorage: ModelContext?

    /// Opens a store per configuration for the model types (and the types their relationships
    /// reach).
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: any DataStoreConfiguration...
    ) throws {
        try self.init(
            for: Schema(forTypes), modelTypes: Schema.modelTypes(reachableFrom: forTypes), migrationPlan: migrationPlan,
            configurations: configurations)
    }

    /// Opens a store per configuration for the model types: SwiftData's spelling with an array,
    /// `configurations: [.init(isStoredInMemoryOnly: true)]`.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(
            for: Schema(forTypes), modelTypes: Schema.modelTypes(reachableFrom: forTypes), migrationPlan: migrationPlan,
            configurations: configurations)
    }

    /// Opens a store per configuration for the model types, `configurations: .init(url: url)`.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(
            for: Schema(forTypes), modelTypes: Schema.modelTypes(reachableFrom: forTypes), migrationPlan: migrationPlan,
            configurations: configurations)
    }

    /// Opens a store per configuration for a schema, SwiftData's spelling with an array.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [ModelConfiguration]
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations.map { $0 as any DataStoreConfiguration })
    }

    /// Opens a store per configuration for a schema.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: any DataStoreConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens a store per configuration for a schema. Each entity's model type is the one of
    /// that name described so far; pass the types themselves (`ModelContainer(for: Trip.self)`)
    /// when two model classes in the program share a name.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [any DataStoreConfiguration]
    ) throws {
        let registered = SchemaModelTypes.types(for: givenSchema)
        try self.init(
            for: givenSchema, modelTypes: givenSchema.entities.compactMap { registered[$0.name] },
            migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Opens a store per configuration for a schema whose entities are `modelTypes`.
    init(
        for givenSchema: Schema, modelTypes givenTypes: [any PersistentModel.Type],
        migrationPlan: (any SchemaMigrationPlan.Type)?, configurations: [any DataStoreConfiguration]
    ) throws {
        // A model type tripdoc cannot store is refused before any store is opened.
        for type in givenTypes {
            if let problem = ModelDescription.of(type).problems.first { throw problem }
        }
        schema = givenSchema
        self.migrationPlan = migrationPlan
        var configured: [any DataStoreConfiguration] = []
        var stores: [ModelStore] = []
        for var configuration in configurations.isEmpty ? [ModelConfiguration()] : configurations {
            if configuration.schema == nil { configuration.schema = givenSchema }
            configured.append(configuration)
            stores.append(try Self.openStore(configuration, migrationPlan: migrationPlan))
        }
        self.dataStoreConfigurations = configured
        self.stores = stores
        var modelTypes: [String: any PersistentModel.Type] = [:]
        for type in givenTypes { modelTypes[ModelDescription.entityName(of: type)] = type }
        self.modelTypes = modelTypes
    }

    private static func openStore<C: DataStoreConfiguration>(
        _ configuration: C, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> ModelStore {
        guard let own = configuration as? C.Store.Configuration else {
            throw ModelContextError.noStore(configuration.name)
        }
        let folder = (configuration as? any DocumentStoreConfiguration).flatMap {
            $0.isStoredInMemoryOnly ? nil : $0.url.deletingLastPathComponent()
        }
        if let folder { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        return try ModelStore(C.Store(own, migrationPlan: migrationPlan), configurationName: configuration.name)
    }

    /// The context of the main actor, with ``ModelContext/autosaveEnabled`` on (as in
    /// SwiftData): its changes are saved without a call to `save()`.
    @MainActor public var mainContext: ModelContext {
        lock.withLock {
            if let context = mainContextStorage { return context }
            let context = ModelContext(self)
            context.isMainActorContext = true
            context.autosaveEnabled = true
            mainContextStorage = context
            return context
        }
    }

    /// The store that holds `entityName`'s new models: the first whose configuration's schema
    /// has it.
    func store(for entityName: String) throws -> ModelStore {
        if let store = stores.first(where: { $0.schema.entity(named: entityName) != nil }) { return store }
        throw ModelContextError.noStore(entityName)
    }

    /// Every store whose configuration's schema has `entityName`, in the configurations' order:
    /// a fetch reads them all, as SwiftData's reads every store holding the entity.
    func stores(for entityName: String) -> [ModelStore] {
        stores.filter { $0.schema.entity(named: entityName) != nil }
    }

    /// The store that holds the model `id` names: the one the identifier names among those that
    /// have its entity, else (a model not saved yet) the one new models of the entity go to.
    func store(holding id: PersistentIdentifier) throws -> ModelStore {
        if !id.isTemporary, stores.count > 1, let storeIdentifier = id.storeIdentifier,
            let store = stores.first(where: { $0.identifier == storeIdentifier && $0.schema.entity(named: id.entityName) != nil })
        {
            return store
        }
        return try store(for: id.entityName)
    }

    /// Removes every model and all history from every store, reporting failures.
    public func erase() throws {
        for store in stores { try store.erase() }
    }

    /// Removes every model and all history from every store (SwiftData's spelling, which does
    /// not throw: a store that cannot be erased keeps its data; use ``erase()`` to learn why).
    public func deleteAllData() {
        try? erase()
    }
}
