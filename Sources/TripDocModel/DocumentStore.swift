import Foundation
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// A store that rewrites, in the snapshots it saves, references to models inserted in the same
/// save (as SwiftData's default store does), so the context need not send them again.
public protocol RewritesReferencesOnSave: AnyObject {}

/// A configuration of one of tripdoc's document stores: where the document is (or that it is
/// kept in memory only), its format, and whether saving is allowed.
public protocol DocumentStoreConfiguration: DataStoreConfiguration {
    /// The document file.
    var url: URL { get }
    /// Whether the store keeps its document in memory only (same semantics, history included).
    var isStoredInMemoryOnly: Bool { get }
    /// Whether contexts may save.
    var allowsSave: Bool { get }
    /// Whether a save appends its changes to the document's journal (`NAME.journal`, folded
    /// into the document when it grows, when the container is released, and by
    /// `tripdoc compact`) instead of rewriting the whole document. `true` unless a
    /// configuration says otherwise: see docs/DESIGN.md, "Journaled saves".
    var savesToJournal: Bool { get }
    /// The document's format.
    func documentFormat() throws -> any DocumentFormat
}

/// tripdoc's store: a whole document (JSON, plist or bundle) read on fetch and rewritten
/// atomically on save through `ArchiveStore`, or kept in memory. Uniqueness upserts, delete
/// rules and history are the shared engine's. Predicates and sorts are left to the context
/// (`DataStoreError.preferInMemoryFilter`), which evaluates them on the snapshots when it can
/// (through the document's indexes, or, in memory, a column of an attribute's values), else on
/// the models.
public final class DocumentStore<Configuration: DocumentStoreConfiguration>: DataStore, HistoryProviding,
    RewritesReferencesOnSave, ReportsAppliedSaves, MintsIdentifiersAhead, JournalFolding, ProvidesIndexedDocument, ProvidesAttributeColumns
{
    public typealias Snapshot = DefaultSnapshot

    private enum Backend {
        case file(ArchiveStore)
        case memory(InMemoryDocument)
    }

    /// The document of a store kept in memory, changed in place by saves.
    private final class InMemoryDocument {
        var document: IndexedDocument {
            didSet { generation &+= 1 }
        }
        /// Counts the changes to the document.
        private var generation = 0
        /// An entity's snapshots in document order, as fetches read them, and the values of the
        /// attributes fetches have scanned, at the same positions.
        private struct Listing {
            var generation: Int
            var snapshots: [DefaultSnapshot]
            var columns: [String: [SnapshotValue]] = [:]
        }
        /// Each entity's listing: made on the first fetch of the entity after a change, so that
        /// the next fetches read its snapshots (and an attribute's values) in one pass over an
        /// array rather than looking each one up. A change leaves the listing to the next fetch
        /// of the entity to replace: releasing it then costs what listing again does, where a
        /// save dropping it would cost a release per snapshot.
        private var listings: [String: Listing] = [:]

        init(_ document: IndexedDocument) { self.document = document }

        /// The snapshots of `entityName`, in document order.
        func snapshots(of entityName: String) -> [DefaultSnapshot] {
            if let listing = listings[entityName], listing.generation == generation { return listing.snapshots }
            let snapshots = document.snapshots(of: entityName)
            listings[entityName] = Listing(generation: generation, snapshots: snapshots)
            return snapshots
        }

        /// The snapshots of `entityName` and their values of `attribute`.
        func column(of entityName: String, attribute: String) -> AttributeColumn {
            let snapshots = snapshots(of: entityName)
            if let values = listings[entityName]?.columns[attribute] { return AttributeColumn(snapshots: snapshots, values: values) }
            let values = snapshots.map { $0[attribute] ?? .null }
            listings[entityName]?.columns[attribute] = values
            return AttributeColumn(snapshots: snapshots, values: values)
        }
    }

    public let configuration: Configuration
    public let schema: Schema
    public let identifier: String
    private var backend: Backend
    /// Contexts on several threads share the store: every use of the backend holds this.
    private let lock = NSLock()

    /// Opens the configuration's document, creating it when there is none. A document of
    /// another schema is migrated to the configuration's (`Document.migrated(to:migrationPlan:)`):
    /// through `migrationPlan`'s stages, or with the lightweight migration inferred from the
    /// two schemas; the migrated document replaces it atomically, or, when a stage fails, the
    /// document is left as it was.
    ///
    /// - Throws: ``MigrationError``, `SchemaMigrationError`, or what opening the document throws.
    public init(_ configuration: Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        guard var schema = configuration.schema else { throw ModelContextError.noSchema(configuration.name) }
        try configuration.validate()
        if let migrationPlan { schema = try migrationPlan.currentSchema(matching: schema) }
        self.configuration = configuration
        if let stage = configuration as? MigrationStageStore {
            backend = .memory(InMemoryDocument(IndexedDocument(stage.workspace.document, indexingAttributes: true)))
            identifier = stage.workspace.document.storeIdentifier
        } else if configuration.isStoredInMemoryOnly {
            let document = IndexedDocument.empty(schema: schema, indexingAttributes: true)
            backend = .memory(InMemoryDocument(document))
            identifier = document.storeIdentifier
        } else {
            let path = configuration.url.path
            let format = try configuration.documentFormat()
            var store: ArchiveStore
            do {
                store = try ArchiveStore(path: path, format: format, schema: schema, savesToJournal: configuration.savesToJournal)
            } catch ArchiveStoreError.schemaMismatch {
                let older = try ArchiveStore(path: path, format: format)
                if migrationPlan == nil, older.schema.hasTheEntities(of: schema) {
                    // Models without versions opening a document of theirs that was given one
                    // (by a plan, or tripdoc migrate): nothing to migrate; the version stays.
                    schema = older.schema
                    store = older
                    store.savesToJournal = configuration.savesToJournal
                } else {
                    let document = try older.readDocument()
                    guard configuration.allowsSave else {
                        throw MigrationError.saveNotAllowed(
                            configuration: configuration.name, document: document.schema.version, current: schema.version)
                    }
                    try older.replaceDocument(try document.migrated(to: schema, migrationPlan: migrationPlan))
                    store = try ArchiveStore(
                        path: path, format: format, schema: schema, savesToJournal: configuration.savesToJournal)
                }
            }
            backend = .file(store)
            identifier = store.identifier
        }
        self.schema = schema
        if case .file(let store) = backend, store.savesToJournal { JournalCompaction.register(self) }
    }

    /// Folds the journal into the document when the store is released (the container is), so
    /// that a document left by a program that ended normally is one file again. A failure is
    /// reported on standard error; the journal then stays, and the next open folds it in.
    deinit {
        JournalCompaction.unregister(self)
        foldJournal()
    }

    func foldJournal() {
        lock.withLock {
            guard case .file(let store) = backend, store.journal.exists else { return }
            do {
                try store.compact()
            } catch {
                FileHandle.standardError.write(
                    Data("tripdoc: could not fold the journal into \(store.path): \(error)\n".utf8))
            }
        }
    }

    func indexedDocument(holding entityName: String) throws -> IndexedDocument {
        try lock.withLock { try document(holding: [entityName]) }
    }

    func attributeColumn(of entityName: String, attribute: String) -> AttributeColumn? {
        lock.withLock {
            guard case .memory(let memory) = backend else { return nil }
            return memory.column(of: entityName, attribute: attribute)
        }
    }

    /// The whole document as it is now (what a migration stage's context left).
    func currentDocument() throws -> Document {
        try lock.withLock { try document().document }
    }

    /// The whole document.
    private func document() throws -> IndexedDocument {
        switch backend {
        case .file(let store): try store.readIndexedDocument()
        case .memory(let memory): memory.document
        }
    }

    /// The document, or as much of it as reading the snapshots of `entityNames` needs: a file
    /// store reads only those entities while the whole document is not in memory
    /// (`ArchiveStore.readSnapshots(of:)`).
    private func document(holding entityNames: some Sequence<String>) throws -> IndexedDocument {
        switch backend {
        case .file(let store): try store.readSnapshots(of: entityNames)
        case .memory(let memory): memory.document
        }
    }

    public func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        try lock.withLock {
            let descriptor = request.descriptor
            if descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
            if !descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
            let entityName = ModelDescription.of(T.self).entityName
            let all: [DefaultSnapshot] =
                switch backend {
                case .file(let store): try store.readSnapshots(of: [entityName]).snapshots(of: entityName)
                case .memory(let memory): memory.snapshots(of: entityName)
                }
            guard descriptor.fetchOffset != nil || descriptor.fetchLimit != nil else {
                return DataStoreFetchResult(descriptor: descriptor, fetchedSnapshots: all)
            }
            var snapshots = all[...]
            if let offset = descriptor.fetchOffset { snapshots = snapshots.dropFirst(max(offset, 0)) }
            if let limit = descriptor.fetchLimit { snapshots = snapshots.prefix(max(limit, 0)) }
            return DataStoreFetchResult(descriptor: descriptor, fetchedSnapshots: Array(snapshots))
        }
    }

    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        try applySave(request).result
    }

    /// Saves, reporting every model the save changed, so that a context refreshes only those.
    func applySave(_ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> AppliedSave {
        // Handed on, not copied: the save takes the snapshots out of it (see ModelStore.save).
        var handedOn = Optional(consume request)
        return try lock.withLock {
            guard configuration.allowsSave else { throw ModelContextError.saveNotAllowed(configuration.name) }
            let request = handedOn.take()!
            switch backend {
            case .file(let store):
                return try store.applySave(consume request)
            case .memory(let memory):
                return try memory.document.applySaveChanges(
                    consume request, timestamp: Date(), processIdentifier: String(ProcessInfo.processInfo.processIdentifier),
                    bundleIdentifier: ProcessInfo.processInfo.processName)
            }
        }
    }

    /// Saves a request made once its inserts' permanent identifiers are minted, reporting every
    /// model the save changed; `nil`, without calling `makeRequest`, when a save of
    /// `insertCount` inserts is better made with temporary identifiers (a small save appended
    /// to a journal, which reads only what it changes).
    ///
    /// `makeRequest` is called with the store locked: it must not use the store.
    func applySave(
        insertCount: Int,
        makingRequestWith makeRequest: (_ mint: (_ entityName: String) throws -> PersistentIdentifier) throws
            -> DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> AppliedSave? {
        try lock.withLock {
            guard configuration.allowsSave else { throw ModelContextError.saveNotAllowed(configuration.name) }
            switch backend {
            case .file(let store):
                guard store.readsWholeDocument(forSavingInserts: insertCount) else { return nil }
                return try store.applySave(makingRequestWith: makeRequest)
            case .memory(let memory):
                return try memory.document.applySaveChanges(
                    makingRequestWith: makeRequest, timestamp: Date(),
                    processIdentifier: String(ProcessInfo.processInfo.processIdentifier),
                    bundleIdentifier: ProcessInfo.processInfo.processName)
            }
        }
    }

    public func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        try lock.withLock {
            let document = try document(holding: Set(persistentIdentifiers.lazy.map(\.entityName)))
            var found: [PersistentIdentifier: DefaultSnapshot] = [:]
            for identifier in persistentIdentifiers {
                if let snapshot = document.snapshot(for: identifier) { found[identifier] = snapshot }
            }
            return found
        }
    }

    public func erase() throws {
        try lock.withLock {
            guard configuration.allowsSave else { throw ModelContextError.saveNotAllowed(configuration.name) }
            switch backend {
            case .file(let store):
                var document = try store.readDocument()
                document.snapshots = []
                document.history = DocumentHistory(deletedThrough: document.history.transactions.last?.transactionIdentifier ?? 0)
                try store.replaceDocument(document)
            case .memory(let memory):
                memory.document = IndexedDocument.empty(
                    schema: schema, storeIdentifier: memory.document.storeIdentifier, indexingAttributes: true)
            }
        }
    }

    // MARK: History

    /// The transactions `descriptor` selects. Changes of entities outside this store's schema
    /// (a document shared with an app that has more models) are left out of them.
    ///
    /// - Throws: `HistoryError.historyTokenExpired(_:deletedThrough:)` when the predicate
    ///   compares transactions' tokens with a token of this store older than the history kept
    ///   (deleted history may have held changes after it): discard the token and fetch from
    ///   the start.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        try lock.withLock {
            try document().history.transactions(descriptor, storeIdentifier: identifier, schema: schema)
        }
    }

    /// Deletes the transactions `descriptor` selects, which must be the oldest ones kept: a
    /// document records deleted history as a point before which nothing is kept (docs/FORMATS.md 2.5).
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        guard configuration.allowsSave else { throw ModelContextError.saveNotAllowed(configuration.name) }
        // One read of the history: the selection is the predicate applied to all of it.
        let all = try fetchHistory(HistoryDescriptor())
        let matching = Set(try all.filter { try descriptor.predicate?.evaluate($0) ?? true }.map(\.token))
        guard !matching.isEmpty else { return }
        let prefix = all.prefix { matching.contains($0.token) }
        guard prefix.count == matching.count, let last = prefix.last else {
            throw ModelContextError.historyDeletionNotOldest
        }
        try lock.withLock {
            switch backend {
            case .file(let store):
                try store.deleteHistory(through: last.token)
            case .memory(let memory):
                try memory.document.history.delete(through: last.token, storeIdentifier: identifier)
            }
        }
    }
}

/// tripdoc's default configuration (SwiftData's `ModelConfiguration`): the store's format is
/// chosen by the file's extension (`.json` or `.store`, `.plist`, `.tripbundle`), or, for any
/// other name (`Guide.sqlite`, no extension), by the file's bytes, a new file being JSON.
public struct ModelConfiguration: DocumentStoreConfiguration {
    public typealias Store = DocumentStore<ModelConfiguration>

    public var name: String
    public var schema: Schema?
    public var url: URL
    public var isStoredInMemoryOnly: Bool
    public var allowsSave: Bool
    /// Whether saves append to the document's journal instead of rewriting the whole document
    /// (tripdoc's own setting; see ``DocumentStoreConfiguration/savesToJournal``).
    public var savesToJournal = true

    /// A store in the default location, `$XDG_DATA_HOME/PROCESS/NAME.json` (`~/.local/share`
    /// when `XDG_DATA_HOME` is not set), or in memory. `groupContainer` and `cloudKitDatabase`
    /// are accepted for source compatibility; there are no app groups or CloudKit on Linux.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.url = Self.defaultFolder().appendingPathComponent(name + ".json")
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
    }

    /// A store in the document at `url`, in the format its extension names (`.store`, SwiftData's
    /// usual extension, is a JSON document; see ``ModelConfiguration`` for other names).
    /// `cloudKitDatabase` is accepted and has no effect.
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? url.deletingPathExtension().lastPathComponent
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
    }

    /// A configuration for the given model types only.
    public init(
        for forType: any PersistentModel.Type, _ otherTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false
    ) {
        self.init(schema: Schema([forType] + otherTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    public func validate() throws { _ = try documentFormat() }

    /// Where SwiftData would sync (accepted for source compatibility; no effect on Linux).
    public struct CloudKitDatabase: Hashable, Sendable {
        let name: String
        /// Sync if the app is set up for it.
        public static let automatic = CloudKitDatabase(name: "automatic")
        /// No sync.
        public static let none = CloudKitDatabase(name: "none")
        /// Sync with a named private database.
        public static func `private`(_ identifier: String) -> CloudKitDatabase { CloudKitDatabase(name: identifier) }
    }

    /// Which app group's folder holds the default store (accepted; no effect on Linux).
    public struct GroupContainer: Hashable, Sendable {
        let name: String
        /// The app's first group, if any.
        public static let automatic = GroupContainer(name: "automatic")
        /// No group.
        public static let none = GroupContainer(name: "none")
        /// A named group.
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(name: groupName) }
    }

    public func documentFormat() throws -> any DocumentFormat {
        if isStoredInMemoryOnly { return JSONFormat() }
        switch url.pathExtension.lowercased() {
        // `.store` is SwiftData's usual extension; such a store is a JSON document here.
        case "json", "store": return JSONFormat()
        case "plist": return PlistFormat()
        case "tripbundle": return BundleFormat()
        default:
            // SwiftData takes any file name (apps write `Guide.sqlite`, `data.db`, no extension):
            // the file's own bytes choose its format, and a new or empty file is a JSON document,
            // as a `.store` is.
            // Only a regular file is read to choose: a FIFO or device would be waited on and
            // lose the bytes read, so it must be named with a format's extension.
            let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]
            let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
            guard let type else { return JSONFormat() }
            guard type == .typeRegular else { throw ModelContextError.unrecognizedDocument(url) }
            guard let prefix = Self.firstBytes(of: url), !prefix.isEmpty else { return JSONFormat() }
            if let format = formats.first(where: { $0.recognizes(prefix) }) { return format }
            throw ModelContextError.unrecognizedDocument(url)
        }
    }

    /// The first bytes of the regular file at `url` (up to 512, what a format needs to
    /// recognise its own), or `nil` when it cannot be read.
    private static func firstBytes(of url: URL) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: 512)
    }

    private static func defaultFolder() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent(ProcessInfo.processInfo.processName)
    }
}

extension DocumentStoreConfiguration {
    public var savesToJournal: Bool { true }
}

/// A document format a configuration can name by type: it has an initializer with no arguments.
public protocol DefaultDocumentFormat: DocumentFormat {
    init()
}

extension JSONFormat: DefaultDocumentFormat {}
extension PlistFormat: DefaultDocumentFormat {}
extension BundleFormat: DefaultDocumentFormat {}

/// A document store in one format named explicitly, whatever the file's extension:
/// ``JSONStoreConfiguration``, ``PlistStoreConfiguration``, ``BundleStoreConfiguration``.
public struct FormatStoreConfiguration<Format: DefaultDocumentFormat>: DocumentStoreConfiguration {
    public typealias Store = DocumentStore<FormatStoreConfiguration<Format>>
    public var name: String
    public var schema: Schema?
    public var url: URL
    public var isStoredInMemoryOnly: Bool { false }
    public var allowsSave: Bool
    /// Whether saves append to the document's journal instead of rewriting the whole document
    /// (see ``DocumentStoreConfiguration/savesToJournal``).
    public var savesToJournal = true

    /// A store in the document at `url`.
    public init(name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.name = name ?? url.deletingPathExtension().lastPathComponent
        self.schema = schema
        self.url = url
        self.allowsSave = allowsSave
    }

    public func documentFormat() throws -> any DocumentFormat { Format() }
}

/// A JSON document store, named explicitly.
public typealias JSONStoreConfiguration = FormatStoreConfiguration<JSONFormat>
/// An XML property-list document store, named explicitly.
public typealias PlistStoreConfiguration = FormatStoreConfiguration<PlistFormat>
/// A zipped bundle document store, named explicitly.
public typealias BundleStoreConfiguration = FormatStoreConfiguration<BundleFormat>

/// The default store's type (SwiftData's `DefaultStore`).
public typealias DefaultStore = DocumentStore<ModelConfiguration>
