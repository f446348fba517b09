import Foundation
import TripDoc

/// `tripdoc convert` for documents larger than memory: the source is decoded one snapshot at a
/// time, and each snapshot is checked, moved to the new store and written to the output as it
/// comes (on three threads, handing batches of at most 512 records on), so memory holds the
/// header, schema and history, the integrity check's compact tables and a few thousand
/// snapshots, never the whole document. The bytes are exactly those of ``DocumentConversion``
/// without renumbering.
///
/// It needs what tripdoc itself writes: the history before the snapshots, and the snapshots in
/// document order. A document that differs (edited by hand or by another tool) makes it throw
/// ``DocumentStreamConversion/Unavailable`` before anything is kept, and the caller converts in
/// memory instead. Integrity problems are found as the snapshots pass and reported at the end,
/// when the output is discarded.
public struct DocumentStreamConversion: DocumentDecodingSink {
    /// Why a document cannot be converted in one pass.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What the document does differently from tripdoc.
        public var reason: String
        public var description: String { reason }
    }

    private let path: String
    private let storeIdentifier: String
    private var writer: any DocumentStreamWriter
    private var sourceStore = ""
    /// Each entity's primary keys, when a remap table is wanted.
    private var keys: [String: [String: String]]?
    private var history = DocumentHistory()

    /// Converts the document in `data`, read from `path` in `format`, into a new store
    /// `storeIdentifier`, handing the new document's bytes to `sink`; returns the remap table
    /// when `wantsRemapTable`.
    ///
    /// - Throws: ``Unavailable`` (convert in memory instead), `DocumentReadError`,
    ///   ``TripDocError/documentHasProblems(path:problems:)``, `DocumentWriteError`, or what
    ///   `sink` throws. The bytes handed to `sink` before a throw are not a document.
    public static func convert(
        _ data: Data, path: String, format: any DocumentFormat, limits: DocumentLimits, to outputFormat: any DocumentFormat,
        storeIdentifier: String, wantsRemapTable: Bool, sink: @escaping DocumentByteSink
    ) throws -> RemapTable? {
        let conversion = DocumentStreamConversion(
            path: path, storeIdentifier: storeIdentifier, writer: outputFormat.makeStreamWriter(sink: sink),
            keys: wantsRemapTable ? [:] : nil)
        // Three threads in a row: this one decodes, the next checks, the last encodes and
        // writes. Which stage costs most depends on the formats (reading XML, writing a zip), so
        // each has a thread and the system shares the cores among them.
        var problems: [IntegrityProblem] = []
        var written: DocumentStreamConversion
        do {
            written = try BackgroundSink.run(conversion) { writing in
                // The checking thread has the writing feeder until it is done; `writing` is
                // not touched meanwhile (the two copies share the batch being filled).
                var checked = try BackgroundSink.run(IntegrityCheckingSink(next: writing)) { checking in
                    try format.readDocument(from: data, file: path, limits: limits, into: &checking)
                }
                writing = checked.next
                try writing.flush()
                // While the last thread writes what is queued.
                problems = checked.session?.finish() ?? []
            }
        } catch let error as DocumentStreamOrderError {
            throw Unavailable(reason: error.message)
        }
        guard problems.isEmpty else { throw TripDocError.documentHasProblems(path: path, problems: problems) }
        return try written.finish()
    }

    private init(path: String, storeIdentifier: String, writer: any DocumentStreamWriter, keys: [String: [String: String]]?) {
        self.path = path
        self.storeIdentifier = storeIdentifier
        self.writer = writer
        self.keys = keys
    }

    private func moved(_ identifier: PersistentIdentifier) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: identifier.entityName, primaryKey: identifier.primaryKey)
    }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        sourceStore = header.storeIdentifier
        let source = history ?? DocumentHistory()
        self.history = source.remapped(moved)
        if keys != nil {
            for transaction in source.transactions {
                for change in transaction.changes {
                    let identifier = change.changedPersistentIdentifier
                    keys![identifier.entityName, default: [:]][identifier.primaryKey] = identifier.primaryKey
                }
            }
        }
        var newHeader = header
        newHeader.storeIdentifier = storeIdentifier
        newHeader.generator = TripDocVersion.generator
        newHeader.derivedFrom = header.derivation(copyingTo: storeIdentifier, history: source)
        try writer.begin(header: newHeader, schema: schema, history: self.history)
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {
        try writer.beginEntity(entity)
    }

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        // Documents hold primary keys, never store identifiers, so the snapshot is written as it
        // was read: the new store identifier is the header's.
        try writer.add(snapshot)
        if keys != nil {
            keys![snapshot.entityName, default: [:]][snapshot.persistentIdentifier.primaryKey] =
                snapshot.persistentIdentifier.primaryKey
        }
    }

    public mutating func add(record: consuming SnapshotRecord) throws {
        if keys != nil { keys![record.entityName, default: [:]][record.primaryKey] = record.primaryKey }
        try writer.add(record: consume record)
    }

    public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
        try writer.endEntity()
    }

    public mutating func lateHistory(_ history: DocumentHistory) throws {
        throw Unavailable(reason: "the history comes after the snapshots")
    }

    private mutating func finish() throws -> RemapTable? {
        try writer.finish()
        guard let keys else { return nil }
        let tokens = history.transactions.isEmpty ? nil : Dictionary(
            uniqueKeysWithValues: history.transactions.map {
                ($0.token(in: sourceStore).description, $0.token(in: storeIdentifier).description)
            })
        return RemapTable(fromStore: sourceStore, toStore: storeIdentifier, identifiers: keys, tokens: tokens)
    }
}

/// Checks the snapshots on their way to the next sink (a conversion's input, a migration's output).
struct IntegrityCheckingSink<Next: DocumentDecodingSink>: DocumentDecodingSink {
    var next: Next
    var session: IntegrityChecker.Session?

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        session = IntegrityChecker.Session(schema: schema, header: header)
        try next.begin(header: header, schema: schema, history: history)
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws { try next.beginEntity(entity) }

    mutating func add(_ snapshot: DefaultSnapshot) throws {
        session!.add(snapshot)
        try next.add(snapshot)
    }

    mutating func add(record: consuming SnapshotRecord) throws {
        session!.add(record: record)
        try next.add(record: consume record)
    }

    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws { try next.endEntity(entity, count: count) }

    mutating func lateHistory(_ history: DocumentHistory) throws { try next.lateHistory(history) }
}

