import Foundation

/// The store engine every document format shares: an *archive store* that reads the whole
/// document on each fetch and rewrites it atomically on each save.
///
/// A format contributes only its ``DocumentFormat``; applying saves, minting identifiers,
/// upserts, delete rules and crash-safe writing are here, once.
///
/// Several stores (in one process or several) may share a document: a save holds the document's
/// lock file, and fails with ``ArchiveStoreError/conflict(path:)`` when the document changed on
/// disk since this store last read it — fetch again and retry; nothing is silently overwritten.
public final class ArchiveStore {
    /// The document file.
    public let path: String
    /// The format the document is written in.
    public let format: any DocumentFormat
    /// The schema of the document.
    public private(set) var schema: Schema
    /// The store's identifier, from the document header.
    public private(set) var identifier: String
    /// How files are written; tests substitute failing system calls.
    public var fileWriter: AtomicFileWriter
    /// The caps every read of the document is held to.
    public var limits: DocumentLimits {
        didSet { cached = nil }
    }
    /// The version of the file this store last read or wrote.
    private var loadedStamp: FileStamp?
    /// The document as last read or written, and the version of the file it came from: reads
    /// of an unchanged file use it instead of decoding the file again, and saves change it in
    /// place at the cost of what they change.
    private var cached: (stamp: FileStamp, document: IndexedDocument)?

    /// Opens the document at `path`, creating an empty one for `schema` when there is none.
    ///
    /// - Parameters:
    ///   - path: The document's file; it need not exist yet.
    ///   - format: The format to read and write it in.
    ///   - schema: The schema the caller expects. Required to create a document; when the
    ///     document exists it must have this schema or hold each of its entities as defined
    ///     here (``Schema/isPart(of:)``), or pass `nil` to take the document's. ``schema``
    ///     is then the document's.
    ///   - limits: The caps every read of the document is held to.
    ///   - fileWriter: How saves replace the file (temporary file, fsync, rename).
    /// - Throws: ``DocumentReadError``, ``FileReadError``, ``FileWriteError``, or
    ///   ``ArchiveStoreError/schemaMismatch(path:documentVersion:expectedVersion:)``.
    public init(
        path: String, format: any DocumentFormat, schema: Schema? = nil, limits: DocumentLimits = .standard,
        fileWriter: AtomicFileWriter = AtomicFileWriter()
    ) throws {
        self.path = path
        self.format = format
        self.limits = limits
        self.fileWriter = fileWriter
        let lock = try DocumentFileLock(documentPath: path)
        AtomicFileWriter.removeStaleTemporaryFiles(besides: path)
        defer { withExtendedLifetime(lock) {} }
        if FileManager.default.fileExists(atPath: path) {
            let stamp = FileStamp(path: path)
            let data = try DocumentFileReader.contents(of: path, limits: limits)
            let document = try format.readDocument(from: data, file: path, limits: limits)
            // A schema whose entities the document has, as they are, works on that document
            // (its other entities and their history are kept as they are on every save).
            if let schema, schema != document.schema, !schema.isPart(of: document.schema) {
                throw ArchiveStoreError.schemaMismatch(
                    path: path, documentVersion: document.schema.version, expectedVersion: schema.version)
            }
            self.schema = document.schema
            self.identifier = document.storeIdentifier
            // Opening reads the document once: the first fetch uses what was read here.
            cached = stamp.map { ($0, IndexedDocument(document)) }
            loadedStamp = stamp
        } else {
            guard let schema else { throw ArchiveStoreError.missingSchema(path: path) }
            try schema.validate()
            let document = Document.empty(schema: schema)
            try fileWriter.write(format.writeDocument(document), to: path)
            self.schema = schema
            self.identifier = document.storeIdentifier
            loadedStamp = FileStamp(path: path)
            cached = loadedStamp.map { ($0, IndexedDocument(document)) }
        }
    }

    /// Reads the whole document: decodes the file, unless it is still the version (device,
    /// inode, size, modification time) this store last read or wrote.
    public func readDocument() throws -> Document {
        try readIndexedDocument().document
    }

    /// Reads the whole document, indexed: decodes the file, unless it is still the version
    /// (device, inode, size, modification time) this store last read or wrote.
    public func readIndexedDocument() throws -> IndexedDocument {
        let stamp = FileStamp(path: path)
        if let cached, cached.stamp == stamp {
            loadedStamp = stamp
            return cached.document
        }
        let data = try DocumentFileReader.contents(of: path, limits: limits)
        let document = try format.readDocument(from: data, file: path, limits: limits)
        // A save between the stat and the read would make the stamp older than what was read,
        // which can only cause a needless conflict, never a lost update.
        loadedStamp = stamp
        guard document.storeIdentifier == identifier else {
            throw ArchiveStoreError.storeReplaced(path: path, expected: identifier, found: document.storeIdentifier)
        }
        let indexed = IndexedDocument(document)
        cached = stamp.map { ($0, indexed) }
        return indexed
    }

    /// The snapshots of `entityName` (all snapshots when `nil`), in document order.
    public func fetchSnapshots(entityName: String? = nil) throws -> [DefaultSnapshot] {
        let document = try readIndexedDocument()
        guard let entityName else { return document.document.snapshots }
        return document.snapshots(of: entityName)
    }

    /// Applies a save to the document and writes it atomically.
    ///
    /// - Throws: ``SaveChangesError`` (nothing is written), or a read or write error.
    @discardableResult
    public func save(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try applySave(request).result
    }

    /// Applies a save to the document and writes it atomically, reporting every model the save
    /// changed (see ``IndexedDocument/applySaveChanges(_:timestamp:processIdentifier:bundleIdentifier:keepingInsertedIdentifiers:)``).
    ///
    /// - Throws: ``SaveChangesError`` (nothing is written), or a read or write error.
    public func applySave(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> AppliedSave {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        try checkUnchanged()
        var document = try readIndexedDocument()
        // The cache lets go of the document so that the save changes it in place; a failed
        // write leaves no cache, and the next read decodes the file.
        cached = nil
        let applied: AppliedSave
        do {
            applied = try document.applySaveChanges(
                request, timestamp: Date(), processIdentifier: String(ProcessInfo.processInfo.processIdentifier),
                bundleIdentifier: ProcessInfo.processInfo.processName)
        } catch {
            cached = loadedStamp.map { ($0, document) }
            throw error
        }
        try write(document)
        return applied
    }

    /// Throws ``ArchiveStoreError/conflict(path:)`` when the file is not the version this store
    /// last read or wrote.
    private func checkUnchanged() throws {
        if let loadedStamp, FileStamp(path: path) != loadedStamp { throw ArchiveStoreError.conflict(path: path) }
    }

    /// Writes `document` and remembers the new file's version.
    private func write(_ document: IndexedDocument) throws {
        cached = nil
        try fileWriter.write(format.writeDocument(document.document), to: path)
        loadedStamp = FileStamp(path: path)
        cached = loadedStamp.map { ($0, document) }
    }

    /// Replaces the document with `document` (same store), writing it atomically.
    ///
    /// - Throws: ``ArchiveStoreError/conflict(path:)`` when the file changed since this store
    ///   last read it, ``ArchiveStoreError/storeReplaced(path:expected:found:)`` for another
    ///   store's document, or a write error.
    public func replaceDocument(_ document: Document) throws {
        guard document.storeIdentifier == identifier else {
            throw ArchiveStoreError.storeReplaced(path: path, expected: identifier, found: document.storeIdentifier)
        }
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        try checkUnchanged()
        try write(IndexedDocument(document))
    }

    /// The transactions `query` selects (SwiftData's `fetchHistory`).
    ///
    /// - Throws: ``HistoryError/historyTokenExpired(_:deletedThrough:)`` when the query's token
    ///   is older than the history kept: discard it and fetch from the start.
    public func fetchHistory(_ query: HistoryQuery = HistoryQuery()) throws -> [HistoryTransactionRecord] {
        try readIndexedDocument().history.transactions(matching: query, storeIdentifier: identifier)
    }

    /// The token of the newest transaction, or `nil` when there is none.
    public func currentHistoryToken() throws -> DefaultHistoryToken? {
        try readIndexedDocument().history.transactions.last?.token(in: identifier)
    }

    /// Deletes history through `token` (SwiftData's `deleteHistory`), writing the document.
    public func deleteHistory(through token: DefaultHistoryToken) throws {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        var document = try readIndexedDocument()
        cached = nil
        try document.history.delete(through: token, storeIdentifier: identifier)
        try write(document)
    }

    /// Deletes the history saved before `date`, writing the document.
    public func deleteHistory(before date: Date) throws {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        var document = try readIndexedDocument()
        cached = nil
        document.history.delete(before: date)
        try write(document)
    }
}

/// Why an archive store could not open or use its document.
public enum ArchiveStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document does not exist and no schema was given to create it.
    case missingSchema(path: String)
    /// The document's schema differs from the one the caller expects.
    case schemaMismatch(path: String, documentVersion: Schema.Version, expectedVersion: Schema.Version)
    /// The file now holds a different store than the one opened.
    case storeReplaced(path: String, expected: String, found: String)
    /// The document changed on disk since this store last read it.
    case conflict(path: String)

    public var description: String {
        switch self {
        case .missingSchema(let path):
            "cannot create \(path): no schema was given for a new document"
        case .schemaMismatch(let path, let documentVersion, let expectedVersion):
            "\(path) has a different schema (version \(documentVersion)) from the one expected (version "
                + "\(expectedVersion)); migrate the document first (tripdoc migrate)"
        case .conflict(let path):
            "\(path) changed on disk since this store last read it (another store or process saved); "
                + "nothing was written: fetch again, reapply the changes and save"
        case .storeReplaced(let path, let expected, let found):
            "\(path) now holds store \(found), not the store \(expected) that was opened; open it again"
        }
    }
}
