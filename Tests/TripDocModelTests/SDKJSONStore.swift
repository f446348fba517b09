import Foundation
import TripDoc

// The same store in the shipped SDK's spellings: `Store`, and
// `DataStoreSaveChangesResult(for:remappedIdentifiers:snapshotsToReregister:)`.

struct SDKJSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = SDKJSONStore

    var name: String
    var schema: Schema?
    var url: URL
}

final class SDKJSONStore: DataStore {
    typealias Configuration = SDKJSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: SDKJSONStoreConfiguration
    let schema: Schema
    let identifier: String

    init(_ configuration: SDKJSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.schema = configuration.schema!
        self.identifier = configuration.url.lastPathComponent
    }

    private func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        guard FileManager.default.fileExists(atPath: configuration.url.path) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let snapshots = try decoder.decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.url))
        return Dictionary(uniqueKeysWithValues: snapshots.map { ($0.persistentIdentifier, $0) })
    }

    private func write(_ snapshots: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(Array(snapshots.values)).write(to: configuration.url, options: .atomic)
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        let all = try read()
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: Array(all.values), relatedSnapshots: all)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        var all = try read()
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        for snapshot in request.inserted {
            let permanent = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            remapped[snapshot.persistentIdentifier] = permanent
        }
        for snapshot in request.inserted {
            let permanent = remapped[snapshot.persistentIdentifier]!
            all[permanent] = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: remapped)
        }
        for snapshot in request.updated {
            all[snapshot.persistentIdentifier] = snapshot.copy(
                persistentIdentifier: snapshot.persistentIdentifier, remappedIdentifiers: remapped)
        }
        for snapshot in request.deleted { all[snapshot.persistentIdentifier] = nil }
        try write(all)
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: [:])
    }
}
