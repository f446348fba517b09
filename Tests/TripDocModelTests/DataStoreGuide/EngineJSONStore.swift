import Foundation
import TripDoc

// The store "Writing a custom DataStore" (Sources/TripDoc/TripDoc.docc) builds after the
// WWDC24 talk's: the same configuration, with the saving left to tripdoc's engine. The article
// quotes this file.

/// Where ``EngineJSONStore`` keeps its document.
struct EngineJSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = EngineJSONStore

    var name: String
    var schema: Schema?
    var url: URL
}

/// The talk's JSON store on tripdoc's engine: ``ArchiveStore`` reads the document, applies each
/// save (``Document/applySaveChanges(_:timestamp:processIdentifier:bundleIdentifier:keepingInsertedIdentifiers:)``) and
/// writes it atomically under the document's lock.
final class EngineJSONStore: DataStore, RewritesReferencesOnSave {
    typealias Configuration = EngineJSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: EngineJSONStoreConfiguration
    let schema: Schema
    let identifier: String
    let archive: ArchiveStore

    init(_ configuration: EngineJSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema!
        archive = try ArchiveStore(path: configuration.url.path, format: JSONFormat(), schema: schema)
        identifier = archive.identifier
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        // A model type's entity name is its type's name, as in SwiftData.
        var snapshots = try archive.fetchSnapshots(entityName: String(describing: T.self))[...]
        if let offset = request.descriptor.fetchOffset { snapshots = snapshots.dropFirst(max(offset, 0)) }
        if let limit = request.descriptor.fetchLimit { snapshots = snapshots.prefix(max(limit, 0)) }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(snapshots))
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try archive.save(request)
    }

    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        let wanted = Set(persistentIdentifiers)
        let found = try archive.fetchSnapshots().filter { wanted.contains($0.persistentIdentifier) }
        return Dictionary(uniqueKeysWithValues: found.map { ($0.persistentIdentifier, $0) })
    }

    /// The transactions the engine recorded, as the core keeps them.
    func historyRecords() throws -> [HistoryTransactionRecord] {
        try archive.fetchHistory()
    }
}
