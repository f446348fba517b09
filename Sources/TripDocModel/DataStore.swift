import Foundation
import TripDocCore

/// How a store is set up: a name, the schema, and the store type it makes (SwiftData's
/// `DataStoreConfiguration`). Conformers name the store type as `Store` (the shipped SDK) or
/// `StoreType` (the WWDC24 talk's code); either spelling gives both.
public protocol DataStoreConfiguration: Hashable {
    /// The store this configuration makes (the talk's spelling).
    associatedtype StoreType: DataStore = Store
    /// The store this configuration makes (the SDK's spelling).
    associatedtype Store: DataStore = StoreType
    /// The configuration's name.
    var name: String { get }
    /// The schema; the container sets it to the one made from its model types when it is `nil`.
    var schema: Schema? { get set }
    /// Throws when the configuration cannot be used.
    func validate() throws
}

extension DataStoreConfiguration {
    public func validate() throws {}
}

/// A store a ``ModelContainer`` keeps models in (SwiftData's `DataStore`): it exchanges
/// snapshots with the context. Synchronous, as SwiftData's.
public protocol DataStore: AnyObject {
    /// The configuration type that makes this store.
    associatedtype Configuration: DataStoreConfiguration
    /// The snapshot type the store exchanges (tripdoc's context works with `DefaultSnapshot`).
    associatedtype Snapshot: DataStoreSnapshot

    /// Opens the store.
    init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws
    /// The configuration it was opened with.
    var configuration: Configuration { get }
    /// The store's identifier, part of every permanent `PersistentIdentifier` it mints.
    var identifier: String { get }
    /// The schema it holds.
    var schema: Schema { get }

    /// The snapshots a fetch asks for. A store that cannot evaluate the descriptor's predicate
    /// or sort throws `DataStoreError.preferInMemoryFilter` or `DataStoreError.preferInMemorySort`
    /// and the context does it.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Snapshot>
    /// Applies a save: inserts (minting permanent identifiers), updates, deletes.
    func save(_ request: DataStoreSaveChangesRequest<Snapshot>) throws -> DataStoreSaveChangesResult<Snapshot>
    /// How many models a fetch would return.
    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int
    /// The identifiers a fetch would return.
    func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    /// Removes everything the store holds.
    func erase() throws
    /// Snapshots the store already holds for `persistentIdentifiers`.
    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    /// Called when a context starts using the store.
    func initializeState(for editingState: EditingState)
    /// Called when a context stops using the store.
    func invalidateState(for editingState: EditingState)
}

extension DataStore {
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        try fetchIdentifiers(request).count
    }

    public func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] {
        let entityName = ModelDescription.entityName(of: T.self)
        return try fetch(request).fetchedSnapshots.map(\.persistentIdentifier).filter { $0.entityName == entityName }
    }

    public func erase() throws { throw DataStoreError.unsupportedFeature }

    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: Snapshot]
    {
        [:]
    }

    public func initializeState(for editingState: EditingState) {}
    public func invalidateState(for editingState: EditingState) {}
}

/// What a context asks a store for (SwiftData's `DataStoreFetchRequest`).
public struct DataStoreFetchRequest<T: PersistentModel> {
    /// The fetch.
    public var descriptor: FetchDescriptor<T>
    /// The asking context.
    public var editingState: EditingState

    /// Creates a request.
    public init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}

/// What a store answers a fetch with (SwiftData's `DataStoreFetchResult`).
public struct DataStoreFetchResult<T: PersistentModel, Snapshot: DataStoreSnapshot> {
    /// The fetch answered.
    public var descriptor: FetchDescriptor<T>
    /// The snapshots of the models fetched.
    public var fetchedSnapshots: [Snapshot]
    /// Snapshots of other models the fetched ones refer to, by identifier.
    public var relatedSnapshots: [PersistentIdentifier: Snapshot]

    /// Creates a result.
    public init(
        descriptor: FetchDescriptor<T>, fetchedSnapshots: [Snapshot], relatedSnapshots: [PersistentIdentifier: Snapshot] = [:]
    ) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}

/// A batch delete a store can do itself (SwiftData's `DataStoreBatchDeleteRequest`).
public struct DataStoreBatchDeleteRequest<T: PersistentModel> {
    /// Which models; `nil` for all of the type.
    public var predicate: Predicate<T>?
    /// Whether subclasses count (accepted for source compatibility; tripdoc models have none).
    public var includeSubclasses: Bool
    /// The asking context.
    public var editingState: EditingState

    /// Creates a request.
    public init(predicate: Predicate<T>?, includeSubclasses: Bool = true, editingState: EditingState) {
        self.predicate = predicate
        self.includeSubclasses = includeSubclasses
        self.editingState = editingState
    }
}

/// A store that deletes in batches (SwiftData's `DataStoreBatching`).
public protocol DataStoreBatching: DataStore {
    /// Deletes the models a request selects.
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}

/// A store that records history (SwiftData's `HistoryProviding`).
public protocol HistoryProviding<HistoryType>: DataStore {
    /// The store's transaction type.
    associatedtype HistoryType: HistoryTransaction
    /// The transactions a descriptor selects.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Deletes the transactions a descriptor selects.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
}

/// A versioned schema: its version and model types (SwiftData's `VersionedSchema`).
public protocol VersionedSchema {
    /// The version.
    static var versionIdentifier: Schema.Version { get }
    /// The model types of this version.
    static var models: [any PersistentModel.Type] { get }
}

/// How a store's schema moves from version to version (SwiftData's `SchemaMigrationPlan`).
public protocol SchemaMigrationPlan {
    /// Every version, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The steps between them.
    static var stages: [MigrationStage] { get }
}

/// One step of a migration plan (SwiftData's `MigrationStage`).
///
/// Sendable, with `@Sendable` closures, as in SwiftData: a plan's stages are usually `static let`s
/// (`static let migrateV1toV2 = MigrationStage.custom(…)`), which Swift 6 accepts only of a
/// Sendable type. (Unchecked because Swift does not take a protocol's metatypes, which hold no
/// state, to be Sendable unless every conforming type's conformance is usable from any thread.)
public enum MigrationStage: @unchecked Sendable {
    /// A step the store does on its own (renames through `originalName`, new optional properties).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A step with code run before and after.
    @preconcurrency
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?, didMigrate: (@Sendable (ModelContext) throws -> Void)?)
}
