import Foundation

/// The store engine every document format shares: an *archive store*, whose document is one
/// file that each save rewrites atomically or appends to the document's journal
/// (``savesToJournal``).
///
/// Opening reads the header and schema only (and the journal, when there is one). A fetch reads
/// the entities it asks for (``readSnapshots(of:)``), passing over the others and the history
/// undecoded, as long as the whole document is not in memory, and folds the journal's saves
/// into them. A save appended to the journal reads the entities it needs and where the history
/// stands; a save that writes the document, a history fetch and a compaction read the whole
/// document, and keep it for the reads and saves after them. Damage in an entity a read does
/// not need is reported by the read that needs it.
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
        didSet {
            cached = nil
            partial = nil
        }
    }
    /// Whether a save appends its changes to the document's journal (``DocumentJournal``)
    /// instead of writing the whole document: a save then costs what it changed. The journal
    /// is folded into the document (``compact()``) once it is ``compactionFraction`` of the
    /// document's size. Reads fold a journal whatever this says.
    public var savesToJournal: Bool
    /// How large the journal may grow, as a fraction of the document's size (and at least
    /// 64 KiB), before a save folds it into the document.
    public var compactionFraction = 0.5
    /// The document's journal.
    public let journal: DocumentJournal
    /// The version of the document and journal files this store last read or wrote.
    private var loadedStamp: StoreStamp
    /// The document as last read or written, and the version of the files it came from: reads
    /// of unchanged files use it instead of decoding them again, and saves change it in place
    /// at the cost of what they change.
    private var cached: (stamp: StoreStamp, document: IndexedDocument)?
    /// The entities read without the rest of the document, and the version of the file they
    /// came from: fetches read what they need this way while the whole document is not in
    /// memory (see ``readSnapshots(of:)``).
    private var partial: (stamp: StoreStamp, document: IndexedDocument)?
    /// What of the journal can be appended to: the length of its lines that the cached document
    /// folded in, or `nil` when the journal must be folded into the document before the next
    /// save (it holds records the document already has, or it is another store's).
    private var appendableJournalLength: Int?
    /// How many saves the journal held that the document file did not, when this store last
    /// read the two (0 once the journal is folded in).
    public private(set) var savesInJournal = 0

    /// The versions of a document file and of its journal.
    private struct StoreStamp: Equatable {
        var document: FileStamp?
        var journal: FileStamp?
    }

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
    ///   - savesToJournal: Whether saves append to the document's journal (see
    ///     ``savesToJournal``).
    /// - Throws: ``DocumentReadError``, ``JournalReadError``, ``FileReadError``,
    ///   ``FileWriteError``, or
    ///   ``ArchiveStoreError/schemaMismatch(path:documentVersion:expectedVersion:)``.
    public init(
        path: String, format: any DocumentFormat, schema: Schema? = nil, limits: DocumentLimits = .standard,
        fileWriter: AtomicFileWriter = AtomicFileWriter(), savesToJournal: Bool = false
    ) throws {
        self.path = path
        self.format = format
        self.limits = limits
        self.fileWriter = fileWriter
        self.savesToJournal = savesToJournal
        journal = DocumentJournal(documentPath: path)
        let lock = try DocumentFileLock(documentPath: path)
        AtomicFileWriter.removeStaleTemporaryFiles(besides: path)
        defer { withExtendedLifetime(lock) {} }
        loadedStamp = StoreStamp()
        if Self.isRegularFile(path) {
            // Opening reads the header and schema only (and where the history stands, when
            // the format passes over the history to reach the schema, or a journal is to be
            // folded in): fetches and saves read the entities they need (readSnapshots(of:)).
            let hasJournal = journal.exists
            var (stamp, read) = try Self.readSnapshots(
                of: [], path: path, format: format, limits: limits,
                readingHistoryPosition: format.readsHistoryPositionCheaply || hasJournal)
            if let schema, schema != read.schema, !schema.isPart(of: read.schema) {
                throw ArchiveStoreError.schemaMismatch(
                    path: path, documentVersion: read.schema.version, expectedVersion: schema.version)
            }
            self.schema = read.schema
            self.identifier = read.storeIdentifier
            appendableJournalLength = 0
            if hasJournal {
                // A journal's saves are read now, so that one that does not fit is reported on
                // opening; they are folded into the entities fetches read.
                stamp.journal = FileStamp(path: journal.path)
                (appendableJournalLength, savesInJournal) = try foldJournal(into: &read)
            }
            loadedStamp = stamp
            partial = (stamp, read)
        } else if FileManager.default.fileExists(atPath: path) {
            // A FIFO or device is read once, whole, its journal folded in.
            let (stamp, document) = try Self.decode(path: path, format: format, journal: journal, limits: limits)
            // A schema whose entities the document has, as they are, works on that document
            // (its other entities and their history are kept as they are on every save).
            if let schema, schema != document.document.schema, !schema.isPart(of: document.document.schema) {
                throw ArchiveStoreError.schemaMismatch(
                    path: path, documentVersion: document.document.schema.version, expectedVersion: schema.version)
            }
            self.schema = document.document.schema
            self.identifier = document.document.storeIdentifier
            loadedStamp = stamp
            appendableJournalLength = document.appendableJournalLength
            savesInJournal = document.savesInJournal
            cached = (stamp, document.document)
        } else {
            guard let schema else { throw ArchiveStoreError.missingSchema(path: path) }
            try schema.validate()
            let document = Document.empty(schema: schema)
            try fileWriter.write(format.writeDocument(document), to: path)
            self.schema = schema
            self.identifier = document.storeIdentifier
            // A journal left by a document of that name that is gone is another store's.
            appendableJournalLength = journal.exists ? nil : 0
            loadedStamp = currentStamp()
            cached = (loadedStamp, IndexedDocument(document, indexingAttributes: true))
        }
    }

    private func currentStamp() -> StoreStamp {
        StoreStamp(document: FileStamp(path: path), journal: FileStamp(path: journal.path))
    }

    /// Decodes the document at `path` and folds its journal into it.
    private static func decode(path: String, format: any DocumentFormat, journal: DocumentJournal, limits: DocumentLimits)
        throws -> (StoreStamp, (document: IndexedDocument, appendableJournalLength: Int?, savesInJournal: Int))
    {
        // A save between the stat and the read would make the stamp older than what was read,
        // which can only cause a needless conflict, never a lost update.
        let stamp = StoreStamp(document: FileStamp(path: path), journal: FileStamp(path: journal.path))
        let data = try DocumentFileReader.contents(of: path, limits: limits)
        var collector = IndexedDocumentCollector(indexingAttributes: true)
        try format.readDocument(from: data, file: path, limits: limits, into: &collector)
        var document =
            try collector.finished()
            ?? IndexedDocument(try format.readDocument(from: data, file: path, limits: limits), indexingAttributes: true)
        let contents = try journal.read(storeIdentifier: document.storeIdentifier, limits: limits)
        let alreadyHeld = try document.fold(contents, journalPath: journal.path)
        let appendable = contents.isOfAnotherStore || alreadyHeld > 0 ? nil : contents.completeLength
        return (stamp, (document, appendable, contents.records.count - alreadyHeld))
    }

    /// Reads the whole document (its journal folded in): decodes the files, unless they are
    /// still the versions (device, inode, size, modification time) this store last read or wrote.
    public func readDocument() throws -> Document {
        try readIndexedDocument().document
    }

    /// Reads the whole document, indexed, its journal folded in: decodes the files, unless
    /// they are still the versions (device, inode, size, modification time) this store last
    /// read or wrote.
    public func readIndexedDocument() throws -> IndexedDocument {
        let stamp = currentStamp()
        if let cached, cached.stamp == stamp {
            loadedStamp = stamp
            return cached.document
        }
        let (readStamp, read) = try Self.decode(path: path, format: format, journal: journal, limits: limits)
        loadedStamp = readStamp
        guard read.document.storeIdentifier == identifier else {
            throw ArchiveStoreError.storeReplaced(path: path, expected: identifier, found: read.document.storeIdentifier)
        }
        appendableJournalLength = read.appendableJournalLength
        savesInJournal = read.savesInJournal
        cached = readStamp.document == nil ? nil : (readStamp, read.document)
        partial = nil
        return read.document
    }

    /// The snapshots of `entityName` (all snapshots when `nil`), in document order.
    public func fetchSnapshots(entityName: String? = nil) throws -> [DefaultSnapshot] {
        guard let entityName else { return try readIndexedDocument().document.snapshots }
        return try readSnapshots(of: [entityName]).snapshots(of: entityName)
    }

    /// A document to read the snapshots of `entityNames` from, with their indexes: the whole
    /// document when it is in memory and current, otherwise one holding only the entities read
    /// so far from the current files (``IndexedDocument/heldEntities``), reading only what it
    /// lacks: the other entities' snapshots and the history are passed over undecoded (a
    /// bundle does not even inflate their entries). A fetch of one entity then costs that
    /// entity, not the document. A journal's saves are folded into the entities read.
    ///
    /// The result is for reading those entities: a document holding only some entities has no
    /// history and cannot be written.
    ///
    /// - Throws: ``DocumentReadError``, ``JournalReadError``, ``FileReadError``, or
    ///   ``ArchiveStoreError/storeReplaced(path:expected:found:)``.
    public func readSnapshots(of entityNames: some Sequence<String>) throws -> IndexedDocument {
        try readSnapshots(of: Set(entityNames), forSaving: false)
    }

    /// ``readSnapshots(of:)``, and, `forSaving`, where the history stands, so that a save can
    /// be applied to the result.
    private func readSnapshots(of entityNames: Set<String>, forSaving: Bool) throws -> IndexedDocument {
        let stamp = currentStamp()
        if let cached, cached.stamp == stamp {
            loadedStamp = stamp
            return cached.document
        }
        // Taken out of the cache (and put back) so that what is added to it does not copy it.
        var document = partial?.stamp == stamp ? partial.take()?.document : nil
        partial = nil
        let missing = entityNames.subtracting(document?.heldEntities ?? [])
        let readsPosition = forSaving && !(document?.knowsHistoryPosition ?? false)
        if document == nil || !missing.isEmpty || readsPosition {
            // A FIFO or device cannot be read again, and is read once, whole.
            guard stamp.document != nil, Self.isRegularFile(path) else { return try readIndexedDocument() }
            // A whole document of an older version of the files is of no more use.
            cached = nil
            let hasJournal = stamp.journal != nil
            // Where the history stands is read when a save or the journal needs it, and with
            // the entities a fetch reads when that costs the format nothing more; a document
            // that knows it keeps it (with the transactions of the saves since).
            let positionKnown = document?.knowsHistoryPosition ?? false
            let addsToDocument = document != nil
            var (readStamp, read) = try Self.readSnapshots(
                of: missing, path: path, format: format, limits: limits, into: document.take(), of: stamp,
                readingHistoryPosition: !positionKnown && (readsPosition || hasJournal || format.readsHistoryPositionCheaply))
            guard read.storeIdentifier == identifier else {
                throw ArchiveStoreError.storeReplaced(path: path, expected: identifier, found: read.storeIdentifier)
            }
            if hasJournal, addsToDocument, readStamp.document == stamp.document {
                // The journal's saves are in the document (its entities and history): they are
                // folded into the entities just read, if the journal is still the one they
                // came from; otherwise everything is read again, with the journal as it is now.
                let contents = try journal.read(storeIdentifier: identifier, limits: limits)
                guard FileStamp(path: journal.path) == stamp.journal else {
                    return try readSnapshots(of: entityNames.union(read.heldEntities ?? []), forSaving: forSaving)
                }
                readStamp.journal = stamp.journal
                try read.fold(contents, journalPath: journal.path, into: missing)
            } else if hasJournal {
                readStamp.journal = FileStamp(path: journal.path)
                (appendableJournalLength, savesInJournal) = try foldJournal(into: &read)
            } else {
                appendableJournalLength = 0
                savesInJournal = 0
            }
            document = read
            loadedStamp = readStamp
        } else {
            loadedStamp = stamp
        }
        partial = (loadedStamp, document!)
        return document!
    }

    /// Whether `path` finally names a regular file (symbolic links followed), which can be
    /// read a part at a time.
    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Reads the header, schema and the snapshots of `entityNames` of the document at `path`
    /// (none: the header and schema only) into `document`, which holds some entities of the
    /// file version `stamp`, or into a new document; `readingHistoryPosition`, where the
    /// history stands too. What is read is of one version of the file: when the file was
    /// replaced while it was read, it is read again, from the start.
    private static func readSnapshots(
        of entityNames: Set<String>, path: String, format: any DocumentFormat, limits: DocumentLimits,
        into document: consuming IndexedDocument? = nil, of stamp: StoreStamp? = nil, readingHistoryPosition: Bool = false
    ) throws -> (StoreStamp, IndexedDocument) {
        var entityNames = entityNames
        var readingHistoryPosition = readingHistoryPosition
        while true {
            let before = StoreStamp(document: FileStamp(path: path), journal: nil)
            if document != nil, before.document != stamp?.document {
                // Another version than the part already held: read all of it again.
                entityNames.formUnion(document?.heldEntities ?? [])
                readingHistoryPosition = readingHistoryPosition || document!.knowsHistoryPosition
                document = nil
            }
            let data = try DocumentFileReader.contents(of: path, limits: limits, mapped: true)
            // Handed over, not copied, so that holding more entities does not copy those held.
            var collector = IndexedDocumentCollector(
                entities: entityNames, into: document.take(), readingHistoryPosition: readingHistoryPosition)
            do {
                try DocumentFileReader.reading(data, path: path) {
                    try format.readDocument(from: data, file: path, limits: limits, into: &collector)
                }
            } catch is IndexedDocumentCollector.HeaderRead {}
            let read = collector.finished()!
            if StoreStamp(document: FileStamp(path: path), journal: nil) == before { return (before, read) }
            // The file changed while it was read: read everything wanted, what was held too, again.
            entityNames.formUnion(read.heldEntities ?? [])
            readingHistoryPosition = readingHistoryPosition || read.knowsHistoryPosition
        }
    }

    /// Applies a save to the document and writes it: appends it to the journal (when
    /// ``savesToJournal``), or writes the whole document atomically.
    ///
    /// - Throws: ``SaveChangesError`` (nothing is written), or a read or write error.
    @discardableResult
    public func save(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        try applySave(request).result
    }

    /// Applies a save to the document and writes it, as ``save(_:)``, reporting every model the
    /// save changed (see ``IndexedDocument/applySaveChanges(_:timestamp:processIdentifier:bundleIdentifier:keepingInsertedIdentifiers:)``).
    ///
    /// - Throws: ``SaveChangesError`` (nothing is written), or a read or write error.
    public func applySave(_ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> AppliedSave {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        try checkUnchanged()
        let document = try self.document(forSaving: request)
        var handedOn = Optional(consume request)
        return try applyAndWrite(document) { document, timestamp, process, program in
            try document.applySaveChanges(
                handedOn.take()!, timestamp: timestamp, processIdentifier: process, bundleIdentifier: program)
        }
    }

    /// Whether a save of `insertCount` inserts reads the whole document whatever it holds (the
    /// store does not save to a journal, or the save is a bulk one), so that
    /// ``applySave(makingRequestWith:)`` costs it no more than ``applySave(_:)``.
    public func readsWholeDocument(forSavingInserts insertCount: Int) -> Bool {
        readsWholeDocument(forSavingChanges: insertCount)
    }

    /// Whether a save of `changeCount` inserted, updated and deleted models reads the whole
    /// document: always without a journal; with one, when the save is too large to append.
    private func readsWholeDocument(forSavingChanges changeCount: Int) -> Bool {
        !savesToJournal || changeCount > Self.largestJournaledBulk
    }

    /// Applies a save whose request is made once its inserts' permanent identifiers are minted,
    /// and writes it, as ``applySave(_:)`` does (see
    /// ``IndexedDocument/applySaveChanges(makingRequestWith:timestamp:processIdentifier:bundleIdentifier:)``).
    /// Reads the whole document. `makeRequest` is called with the store's file locked.
    ///
    /// - Throws: ``SaveChangesError`` or what `makeRequest` throws (nothing is written), or a
    ///   read or write error.
    public func applySave(
        makingRequestWith makeRequest: (_ mint: (_ entityName: String) throws -> PersistentIdentifier) throws
            -> DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> AppliedSave {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        try checkUnchanged()
        return try applyAndWrite(try readIndexedDocument()) { document, timestamp, process, program in
            try document.applySaveChanges(
                makingRequestWith: makeRequest, timestamp: timestamp, processIdentifier: process, bundleIdentifier: program)
        }
    }

    /// Applies a save to `document`, read with the file locked, through `apply` (given the
    /// save's time, process and program), and writes it. The caches let go of the document
    /// first, so that the save changes it in place; a refused save keeps it as the cache, and
    /// a failed write leaves none (the next read decodes the files).
    private func applyAndWrite(
        _ document: consuming IndexedDocument,
        applying apply: (inout IndexedDocument, _ timestamp: Date, _ process: String, _ program: String) throws -> AppliedSave
    ) throws -> AppliedSave {
        var document = document
        let isWhole = document.heldEntities == nil
        cached = nil
        partial = nil
        let applied: AppliedSave
        do {
            applied = try apply(
                &document, Date(), String(ProcessInfo.processInfo.processIdentifier), ProcessInfo.processInfo.processName)
        } catch {
            keep(document)
            throw error
        }
        try write(applied, of: document, isWhole: isWhole)
        return applied
    }

    /// Writes a save applied to `document` (which holds every entity when `isWhole`): appends
    /// it to the journal, or writes the whole document.
    private func write(_ applied: AppliedSave, of document: IndexedDocument, isWhole: Bool) throws {
        // A save that changes a large part of the document (an import) writes it whole: its
        // record would cost more than the document, and be folded in at once.
        let isBulk =
            isWhole && applied.changes.count > Self.largestJournaledBulk
            && applied.changes.count * 4 > document.count
        guard savesToJournal, let appendable = appendableJournalLength, !isBulk else {
            try write(document)
            return
        }
        guard let transaction = applied.transaction else {
            // Nothing changed: nothing to write.
            keep(document)
            return
        }
        try journal.append(
            JournalRecord(applied, transaction: transaction, header: document.header), storeIdentifier: identifier,
            keepingLength: appendable, mode: documentMode())
        loadedStamp = currentStamp()
        let journalLength = Int(loadedStamp.journal?.size ?? 0)
        appendableJournalLength = journalLength
        savesInJournal += 1
        keep(document)
        let documentLength = Int(loadedStamp.document?.size ?? 0)
        if journalLength > max(64 << 10, Int(Double(documentLength) * compactionFraction)) {
            // Already saved; a failed compaction leaves the journal, which the next save or
            // open folds in again.
            try? write(isWhole ? document : readIndexedDocument())
        }
    }

    /// A save changing more models than this, and a quarter of the document, writes the
    /// document whole instead of appending to the journal.
    private static let largestJournaledBulk = 1024

    /// The document a save of `request` is applied to: the whole document when it is in
    /// memory, when the save writes the document (saves are not appended to the journal, the
    /// journal must be folded in first, or the save is large), or when it needs the whole
    /// document (``IndexedDocument/entitiesMissing(toSave:)``); otherwise one holding the
    /// entities the save reads and knowing where the history stands, read without the rest.
    /// A save appended to the journal then costs what it reads and changes.
    private func document(forSaving request: borrowing DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> IndexedDocument
    {
        let size = request.inserted.count + request.updated.count + request.deleted.count
        guard !readsWholeDocument(forSavingChanges: size) else { return try readIndexedDocument() }
        var document = try readSnapshots(of: [], forSaving: true)
        while document.heldEntities != nil {
            guard appendableJournalLength != nil, let missing = document.entitiesMissing(toSave: request) else {
                return try readIndexedDocument()
            }
            if missing.isEmpty { break }
            document = try readSnapshots(of: missing, forSaving: true)
        }
        return document
    }

    /// Keeps `document` as the cache of the files' versions last read or written.
    private func keep(_ document: IndexedDocument) {
        if document.heldEntities == nil {
            cached = (loadedStamp, document)
        } else {
            partial = (loadedStamp, document)
        }
    }

    /// The permission bits of the document file.
    private func documentMode() -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0o644 }
        return status.st_mode & 0o777
    }

    /// Folds the journal into the document: writes the whole document atomically and removes
    /// the journal. Nothing to do when there is no journal.
    ///
    /// - Throws: ``ArchiveStoreError/conflict(path:)`` when the files changed since this store
    ///   last read them (read again first), or a read or write error.
    public func compact() throws {
        let lock = try DocumentFileLock(documentPath: path)
        defer { withExtendedLifetime(lock) {} }
        guard journal.exists else { return }
        let document = try readIndexedDocument()
        try write(document)
    }

    /// Throws ``ArchiveStoreError/conflict(path:)`` when the files are not the versions this
    /// store last read or wrote.
    private func checkUnchanged() throws {
        guard currentStamp() != loadedStamp else { return }
        // Written again without a save in between (another store folded the journal into the
        // document, or wrote it whole on close): the same document, no conflict. Known by
        // what only a save changes: the history's position, the header and the model count.
        if let known = cached?.document {
            let (stamp, read) = try Self.decode(path: path, format: format, journal: journal, limits: limits)
            guard read.document.storeIdentifier == identifier,
                read.document.history.nextTransactionIdentifier == known.history.nextTransactionIdentifier,
                read.document.history.deletedThrough == known.history.deletedThrough,
                read.document.header == known.header, read.document.count == known.count
            else { throw ArchiveStoreError.conflict(path: path) }
            loadedStamp = stamp
            appendableJournalLength = read.appendableJournalLength
            savesInJournal = read.savesInJournal
            cached = (stamp, read.document)
        } else if let known = partial?.document, known.knowsHistoryPosition, Self.isRegularFile(path) {
            // The same, for the entities held: read again, with where the history stands.
            let held = known.heldEntities ?? []
            var (stamp, read) = try Self.readSnapshots(
                of: held, path: path, format: format, limits: limits, readingHistoryPosition: true)
            stamp.journal = FileStamp(path: journal.path)
            let journalState = try foldJournal(into: &read)
            guard read.storeIdentifier == identifier,
                read.history.nextTransactionIdentifier == known.history.nextTransactionIdentifier,
                read.header == known.header, held.allSatisfy({ read.count(of: $0) == known.count(of: $0) })
            else { throw ArchiveStoreError.conflict(path: path) }
            loadedStamp = stamp
            (appendableJournalLength, savesInJournal) = journalState
            partial = (stamp, read)
        } else {
            throw ArchiveStoreError.conflict(path: path)
        }
    }

    /// Folds the journal, if any, into `document`, a document holding some entities just read
    /// with where its history stands; returns what of the journal can be appended to (see
    /// ``appendableJournalLength``) and how many saves it held that the document file did not.
    private func foldJournal(into document: inout IndexedDocument) throws -> (appendable: Int?, saves: Int) {
        let contents = try journal.read(storeIdentifier: identifier, limits: limits)
        let alreadyHeld = try document.fold(contents, journalPath: journal.path)
        return (contents.isOfAnotherStore || alreadyHeld > 0 ? nil : contents.completeLength, contents.records.count - alreadyHeld)
    }

    /// Writes `document` whole, removes the journal (which it now holds), and remembers the
    /// new files' versions.
    ///
    /// - Throws: ``SaveChangesError/documentHasProblems(_:)`` for a document that lists an
    ///   identifier twice (written, it would keep one of the two): nothing is written, and a
    ///   journal stays.
    private func write(_ document: IndexedDocument) throws {
        guard document.problems.isEmpty else { throw SaveChangesError.documentHasProblems(document.problems) }
        cached = nil
        partial = nil
        // Streamed to the file: neither a `Document` of every snapshot nor the file's bytes are
        // gathered in memory first.
        try fileWriter.write(to: path) { output in
            var writer = format.makeStreamWriter { try output.write($0) }
            try document.write(to: &writer)
        }
        // Should the removal not happen, the journal's records are in the document's history,
        // and the next read passes over them.
        if journal.exists { try journal.remove() }
        appendableJournalLength = 0
        savesInJournal = 0
        loadedStamp = currentStamp()
        cached = (loadedStamp, document)
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
        try write(IndexedDocument(document, indexingAttributes: true))
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
