import Foundation
import TripDoc

// The multi-file store of "Writing a custom DataStore": one file per entity in a folder, saved
// all together. The engine applies each save; the store writes its files itself, with the public
// pieces a store of its own needs: the folder's lock, the conflict check by file stamp, and a
// generations folder whose commit switches every file at once. The article quotes this file.

/// Where ``EntityFolderStore`` keeps its files.
struct EntityFolderStoreConfiguration: DataStoreConfiguration {
    typealias Store = EntityFolderStore

    var name: String
    var schema: Schema?
    var url: URL
    /// The system calls the commits make (the tests substitute failing ones); not part of the
    /// configuration's identity.
    var calls: any FileSystemCalls = SystemFileSystemCalls()

    static func == (a: Self, b: Self) -> Bool { a.name == b.name && a.schema == b.schema && a.url == b.url }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }
}

/// A store of one file per entity (`Trip.json`, `BucketListItem.json`) and one for the header and
/// history (`document.json`), in the current generation of a ``GenerationFolder``.
final class EntityFolderStore: DataStore, RewritesReferencesOnSave {
    typealias Configuration = EntityFolderStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    let configuration: EntityFolderStoreConfiguration
    let schema: Schema
    let identifier: String
    let folder: GenerationFolder
    /// The document as the current generation holds it, and the pointer's stamp when it was read.
    private var document: Document
    private var readStamp: FileStamp?

    init(_ configuration: EntityFolderStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        let schema = configuration.schema!
        let folder = GenerationFolder(path: configuration.url.path, calls: configuration.calls)
        (document, readStamp) = try DocumentFileLock.withLock(onDocumentAt: folder.path) {
            let stamp = folder.pointerStamp()
            if let document = try Self.read(folder) { return (document, stamp) }
            let document = Document.empty(schema: schema)
            try Self.write(document, to: folder)
            return (document, folder.pointerStamp())
        }
        self.schema = schema
        self.folder = folder
        identifier = document.storeIdentifier
    }

    /// The document the current generation's files hold, or `nil` before the first commit.
    static func read(_ folder: GenerationFolder) throws -> Document? {
        guard let generation = try folder.currentGeneration() else { return nil }
        let files = URL(fileURLWithPath: generation)
        let headerFile = files.appendingPathComponent("document.json")
        var document = try JSONFormat().readDocument(
            from: Data(contentsOf: headerFile), file: headerFile.path, limits: .standard)
        for entity in document.schema.entities {
            let file = files.appendingPathComponent("\(entity.name).json")
            document.snapshots += try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: file))
        }
        return document
    }

    /// Writes every file of `document` into a new generation and switches to it.
    static func write(_ document: Document, to folder: GenerationFolder) throws {
        var header = document
        header.snapshots = []
        try folder.commit { generation in
            try generation.write(JSONFormat().writeDocument(header), toFileNamed: "document.json")
            for entity in document.schema.entities {
                let snapshots = document.snapshots.filter { $0.entityName == entity.name }
                try generation.write(JSONEncoder().encode(snapshots), toFileNamed: "\(entity.name).json")
            }
        }
    }

    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
        if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
        try readAgainIfChanged()
        let entityName = String(describing: T.self)
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: document.snapshots.filter { $0.entityName == entityName })
    }

    /// Reads the files again when another store or process committed since this store read them.
    func readAgainIfChanged() throws {
        try DocumentFileLock.withLock(onDocumentAt: folder.path) {
            let stamp = folder.pointerStamp()
            guard stamp != readStamp, let read = try Self.read(folder) else { return }
            (document, readStamp) = (read, stamp)
        }
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try DocumentFileLock.withLock(onDocumentAt: folder.path) {
            // Another save since this store read the files: writing would lose it.
            try FileStamp.checkUnchanged(folder.pointerPath, since: readStamp)
            var saved = document
            let result = try saved.applySaveChanges(request)
            try Self.write(saved, to: folder)
            (document, readStamp) = (saved, folder.pointerStamp())
            return result
        }
    }

    func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        let wanted = Set(persistentIdentifiers)
        let found = document.snapshots.filter { wanted.contains($0.persistentIdentifier) }
        return Dictionary(uniqueKeysWithValues: found.map { ($0.persistentIdentifier, $0) })
    }
}
