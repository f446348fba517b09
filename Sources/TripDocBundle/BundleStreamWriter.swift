import Foundation
import TripDocCore
import TripDocJSON

/// Writes a bundle snapshot by snapshot. The manifest comes first in the archive and lists every
/// entry's size and digest, so each entity's JSON is hashed and deflated as it is written, on a
/// thread of its own once an entry is large (``EntryCompressor``), and kept aside deflated
/// (``DeflatedEntry``); the archive is made at the end around the deflated bytes
/// (``ZipWriter``). Deflated entries stay in memory up to 16 MiB and move to unlinked temporary
/// files past that, so a document larger than memory never is in it, and a schema of many small
/// entities holds no file descriptors.
struct BundleStreamWriter: DocumentStreamWriter {
    private final class ExternalValues {
        var byDigest: [String: Data] = [:]
    }

    private let sink: DocumentByteSink
    private var header: DocumentHeader?
    private var schema: Schema?
    /// The header and schema entries.
    private var leading: [ZipArchive.Entry] = []
    /// The history's entry (when the document has one), then each entity's.
    private var spools: [DeflatedEntry] = []
    /// The identifier of the history's last transaction, kept or deleted, when the document
    /// has a history: recorded in the manifest with the history entry's digest.
    private var lastTransactionIdentifier: Int64?
    private var entities: [Schema.Entity] = []
    private var nextEntity = 0
    private var current: (encoder: EntityStreamEncoder, writer: JSONWriter, spool: DeflatedEntry)?
    /// Deflates the entries' bytes beside the writing.
    private let compressor = EntryCompressor()
    private let external = ExternalValues()
    /// The most entries the archive may hold (``BundleFormat/maximumEntryCount``).
    private let maximumEntryCount: Int

    /// A writer handing the archive to `sink`.
    init(sink: @escaping DocumentByteSink, maximumEntryCount: Int = DocumentLimits.standard.maximumEntryCount) {
        self.sink = sink
        self.maximumEntryCount = maximumEntryCount
    }

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        try begin(header: header, schema: schema, history: history, changes: { _, _ in })
    }

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory, changes: HistoryChangeStream) throws {
        try schema.validate()  // a schema a reader would refuse is refused before anything is written
        // A zip entry's name holds at most 65,535 bytes (its length is 16 bits), and each entity
        // has an entry named after it: libarchive wrote a longer name as a damaged archive, or crashed.
        let longest = 0xFFFF - (BundleFormat.snapshotsFolder + ".json").utf8.count
        let tooLong = schema.entities.filter { $0.name.utf8.count > longest }
        if !tooLong.isEmpty {
            throw SchemaError(
                problems: tooLong.map {
                    "the entity '\($0.name.prefix(40))…' has a name of \($0.name.utf8.count) bytes; a bundle keeps an entity's "
                        + "snapshots in a zip entry named after it, and a zip entry's name holds at most 65,535 bytes "
                        + "(an entity's name at most \(longest)): write the document as JSON or a property list"
                })
        }
        self.header = header
        self.schema = schema
        entities = schema.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        let encoder = DocumentEncoder()
        var headerWriter = JSONWriter(compactLevel: 1)
        encoder.encodeHeader(header, to: &headerWriter)
        leading.append(.init(name: BundleFormat.headerEntry, data: headerWriter.data))
        var schemaWriter = JSONWriter(compactLevel: 2)
        encoder.encodeSchema(schema, to: &schemaWriter)
        leading.append(.init(name: BundleFormat.schemaEntry, data: schemaWriter.data))
        if !history.isEmpty {
            // One transaction per line, kept aside as the snapshots are: the entry after the
            // schema's, before the first entity's.
            var historyWriter = JSONWriter(compactLevel: 2)
            let spool = try DeflatedEntry(name: BundleFormat.historyEntry, spillThreshold: ZipArchive.spillThreshold)
            let compressor = self.compressor
            try encoder.encodeHistory(
                history, schema: schema, changes: changes,
                afterChange: { writer in
                    if writer.bufferedByteCount >= Self.pieceSize { try writer.drain { try compressor.append($0, to: spool) } }
                }, to: &historyWriter)
            try historyWriter.drain { try compressor.append($0, to: spool) }
            try compressor.finish(spool)
            spools.append(spool)
            lastTransactionIdentifier = Self.lastTransactionIdentifier(of: history)
        }
    }

    /// The identifier of the last transaction of `history`, kept or deleted; `nil` when a
    /// reader would refuse the history's identifiers (out of range, or not increasing past
    /// `deletedThrough`), so that a read of the position alone finds what a whole read finds.
    static func lastTransactionIdentifier(of history: DocumentHistory) -> Int64? {
        let largest = Int64.max - 1
        guard (0...largest).contains(history.deletedThrough) else { return nil }
        var previous = history.deletedThrough
        for transaction in history.transactions {
            guard transaction.transactionIdentifier > previous, transaction.transactionIdentifier <= largest else { return nil }
            previous = transaction.transactionIdentifier
        }
        return previous
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws {
        guard current == nil, let index = entities[nextEntity...].firstIndex(where: { $0.name == entity.name }) else {
            throw DocumentStreamOrderError(message: "the snapshots of \(entity.name) are not in document order")
        }
        while nextEntity < index { try writeEmptyEntity() }
        try open(entities[index])
        nextEntity = index + 1
    }

    private mutating func open(_ entity: Schema.Entity) throws {
        var writer = JSONWriter(compactLevel: 1, capacity: 2 * Self.pieceSize)
        let external = self.external
        writer.externalDataSink = { data in
            let digest = BundleFormat.sha256(data)
            external.byDigest[digest] = data
            return digest
        }
        let encoder = EntityStreamEncoder(entity: entity)
        encoder.begin(to: &writer)
        current = (encoder, writer, try DeflatedEntry(
                name: BundleFormat.snapshotsFolder + entity.name + ".json",
                spillThreshold: ZipArchive.spillThreshold))
    }

    mutating func add(_ snapshot: DefaultSnapshot) throws {
        try add { try $0.add(snapshot, to: &$1) }
    }

    mutating func add(record: consuming SnapshotRecord) throws {
        try add { try $0.add(record: record, to: &$1) }
    }

    private mutating func add(_ write: (inout EntityStreamEncoder, inout JSONWriter) throws -> Void) throws {
        guard current != nil else {
            throw DocumentStreamOrderError(message: "a snapshot comes outside its entity's snapshots")
        }
        // Written in place: a copy of the entity's state taken out and put back for every
        // snapshot retained and released each of its references (a twentieth of converting a
        // property list to a bundle), and would share the writer's buffer while it grows.
        try Self.add(to: &current!, compressor: compressor, write)
    }

    private static func add(
        to entity: inout (encoder: EntityStreamEncoder, writer: JSONWriter, spool: DeflatedEntry),
        compressor: EntryCompressor, _ write: (inout EntityStreamEncoder, inout JSONWriter) throws -> Void
    ) throws {
        try write(&entity.encoder, &entity.writer)
        if entity.writer.bufferedByteCount >= pieceSize {
            let spool = entity.spool
            try entity.writer.drain { try compressor.append($0, to: spool) }
        }
    }

    mutating func endEntity() throws {
        guard var entity = current else { return }
        current = nil
        entity.encoder.end(to: &entity.writer)
        let spool = entity.spool
        try entity.writer.drain { try compressor.append($0, to: spool) }
        try compressor.finish(spool)
        spools.append(spool)
    }

    private mutating func writeEmptyEntity() throws {
        try open(entities[nextEntity])
        nextEntity += 1
        try endEntity()
    }

    mutating func finish() throws {
        try endEntity()
        while nextEntity < entities.count { try writeEmptyEntity() }
        guard let header, let schema else { return }
        // The entries deflated on the compressor's thread are done once it has stopped.
        try compressor.finishAll()
        let externals = external.byDigest.sorted(by: { $0.key < $1.key }).map {
            ZipArchive.Entry(name: BundleFormat.externalFolder + $0.key, data: $0.value, digest: $0.key)
        }
        var listed = leading.map { BundleManifest.Entry(name: $0.name, size: $0.data.count, sha256: BundleFormat.sha256($0.data)) }
        listed += spools.map { BundleManifest.Entry(name: $0.name, size: $0.size, sha256: $0.digest) }
        listed += externals.map { BundleManifest.Entry(name: $0.name, size: $0.data.count, sha256: $0.digest!) }
        // The manifest is an entry too.
        guard listed.count + 1 <= maximumEntryCount else {
            throw BundleWriteError.tooManyEntries(count: listed.count + 1, externalValues: externals.count, limit: maximumEntryCount)
        }
        let manifest = BundleManifest(
            format: BundleManifest.format, formatVersion: BundleManifest.currentFormatVersion,
            storeIdentifier: header.storeIdentifier, schemaVersion: schema.version.description, entries: listed,
            historyPosition: lastTransactionIdentifier.map {
                // The history's entry is the first kept aside; its digest is known once it is deflated.
                BundleManifest.HistoryPosition(lastTransactionIdentifier: $0, sha256: spools[0].digest)
            })

        let first = [ZipArchive.Entry(name: BundleManifest.entryName, data: try manifest.encoded())] + leading
        var archive = ZipWriter(sink: sink)
        for entry in first {
            try archive.add(try DeflatedEntry(name: entry.name, data: entry.data, spillThreshold: ZipArchive.spillThreshold))
        }
        for spool in spools { try archive.add(spool) }
        for entry in externals {
            try archive.add(try DeflatedEntry(name: entry.name, data: entry.data, spillThreshold: ZipArchive.spillThreshold))
        }
        try archive.close()
    }
}
