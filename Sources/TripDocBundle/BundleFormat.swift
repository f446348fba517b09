import Crypto
import Foundation
import TripDocCore
import TripDocJSON

/// The zipped bundle document format: one zip archive holding a manifest, the header, the
/// schema, one entry of snapshots per entity and, as content-addressed entries of their own, the
/// values of `.externalStorage` attributes (docs/FORMATS.md). Entries use the JSON encoding of
/// the shared coding. Any zip tool can list and extract it.
public struct BundleFormat: DocumentFormat, ArchiveInspecting {
    /// The most entries a bundle this format writes may hold: one per entity, one per distinct
    /// `.externalStorage` value, and the manifest, header, schema and history. What the reader
    /// accepts under the standard limits (`DocumentLimits.standard.maximumEntryCount`), so that
    /// every bundle tripdoc writes it reads back; a document that needs more is refused when
    /// written (`BundleWriteError`), not when read.
    public var maximumEntryCount: Int

    /// Creates the format, writing at most as many entries as the standard limits read.
    public init() {
        self.init(maximumEntryCount: DocumentLimits.standard.maximumEntryCount)
    }

    /// Creates the format, writing at most `maximumEntryCount` entries.
    public init(maximumEntryCount: Int) {
        self.maximumEntryCount = maximumEntryCount
    }

    public var name: String { "bundle" }
    public var fileExtensions: [String] { ["tripbundle"] }
    public var signatureDescription: String { "a zipped bundle (starting with 'PK')" }

    static let headerEntry = "header.json"
    static let schemaEntry = "schema.json"
    static let historyEntry = "history.json"
    static let snapshotsFolder = "snapshots/"
    static let externalFolder = "external/"

    /// A zip archive starts with a local file header (`PK\u{3}\u{4}`), or is empty (`PK\u{5}\u{6}`).
    public func recognizes(_ prefix: Data) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) || prefix.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    // MARK: Writing

    public func writeDocument(_ document: Document) throws -> Data {
        try writeDocumentThroughStream(document)
    }

    /// Keeps each entity's entry aside, deflated as it is written, until the archive is made: in
    /// memory, or past 16 MiB of deflated bytes in an unlinked temporary file.
    public func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter {
        BundleStreamWriter(sink: sink, maximumEntryCount: maximumEntryCount)
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).hexadecimal
    }

    // MARK: Reading

    public func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
        var collector = DocumentCollector()
        try readDocument(from: data, file: file, limits: limits, into: &collector)
        return collector.document!
    }

    /// Verifies the manifest, header, schema and history entries against the manifest, decodes
    /// them, then decodes each entity's entry in byte order of the names, one snapshot at a
    /// time, while the entries inflate on another thread (`BackgroundInflation`). An entity's
    /// entry is verified against the manifest once it has inflated, before the sink is told the
    /// entity has ended; an entry that is damaged or differs from the manifest is reported as
    /// such, whatever the decoder made of its bytes.
    public func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink
    ) throws {
        try limits.checkDocumentSize(data.count, file: file)
        // First everything but the snapshot entries; those are inflated once the sink has said
        // which entities it wants.
        let wantsHistory = sink.wantsHistory
        let historyPositionOnly = wantsHistory && sink.wantsHistoryPositionOnly
        // Where the history stands, when the manifest records it for the history entry it
        // lists (or lists none): history.json is then inflated only for its transactions.
        var recordedPosition: DocumentHistory?
        let verified = try verifiedEntries(of: data, file: file, limits: limits) { name in
            !name.hasPrefix(Self.snapshotsFolder) && (wantsHistory || name != Self.historyEntry)
        } inflatingHistory: { manifest in
            recordedPosition = try Self.recordedHistoryPosition(in: manifest, file: file)
            return wantsHistory && !(historyPositionOnly && recordedPosition != nil)
        }
        let contents = verified.contents
        let listed = verified.manifest.entriesByName
        let decoder = DocumentDecoder(limits: limits)

        func missing(_ name: String) -> DocumentReadError {
            DocumentReadError(
                file: file, location: SourceLocation(entry: name), message: "the bundle has no entry \(name)",
                hint: "The file is damaged or is not a tripdoc bundle")
        }

        func entry(_ name: String) throws -> Data {
            guard let data = contents[name] else { throw missing(name) }
            return data
        }

        /// Runs `read` over the JSON of entry `name`, placing errors in that entry.
        func readJSON<T>(_ name: String, _ read: (inout JSONReader) throws -> T) throws -> T {
            try entry(name).withUnsafeBytes { bytes in
                var reader = JSONReader(bytes: bytes, limits: limits)
                return try readJSON(name, with: &reader, read)
            }
        }

        /// Runs `read` over the JSON of the entry `name` that is inflating in `inflation`,
        /// then verifies the entry.
        func readJSON<T>(
            _ name: String, arrivingFrom inflation: BackgroundInflation, _ read: (inout JSONReader) throws -> T
        ) throws -> T {
            guard verified.names.contains(name) else { throw missing(name) }
            let entry = try refusingArchiveErrors(file: file) { try inflation.entry(name) }
            let result = Result {
                var reader = JSONReader(arriving: entry.region, limits: limits, arrived: entry.arrived(after:))
                return try readJSON(name, with: &reader, read)
            }
            // Before what was read, or the error reading it, counts: damage explains any error it causes.
            try verify(entry, against: listed, file: file)
            return try result.get()
        }

        /// Runs `read` with `reader`, which reads the entry `name`, placing errors in that entry.
        func readJSON<T>(_ name: String, with reader: inout JSONReader, _ read: (inout JSONReader) throws -> T) throws -> T {
            do {
                reader.externalDataResolver = { digest in
                    guard let value = contents[Self.externalFolder + digest] else {
                        throw StructuredReadError(
                            location: SourceLocation(),
                            message: "the value is kept in \(Self.externalFolder)\(digest), which the bundle does not hold",
                            isMalformed: false)
                    }
                    return value
                }
                return try read(&reader)
            } catch var error as DocumentReadError {
                var location = error.location ?? SourceLocation()
                location.entry = name
                error.location = location
                throw error
            }
        }

        let header = try readJSON(Self.headerEntry) { try decoder.decodeHeader(from: &$0, file: file) }
        let schema = try readJSON(Self.schemaEntry) { try decoder.decodeSchema(from: &$0, file: file) }
        try decoder.checkHeader(header, against: schema, file: file, location: SourceLocation(entry: Self.headerEntry))
        if verified.manifest.storeIdentifier != header.storeIdentifier
            || Schema.Version(verified.manifest.schemaVersion) != header.schemaVersion
        {
            throw DocumentReadError(
                file: file, location: SourceLocation(entry: BundleManifest.entryName),
                message: "the manifest names store \(verified.manifest.storeIdentifier) with schema version "
                    + "\(verified.manifest.schemaVersion), but header.json says store \(header.storeIdentifier) with "
                    + "schema version \(header.schemaVersion)",
                hint: "The file is damaged, was changed by hand, or is not a tripdoc bundle")
        }

        let entityEntries = Set(schema.entities.map { Self.snapshotsFolder + $0.name + ".json" })
        for name in verified.names.sorted() where name.hasPrefix(Self.snapshotsFolder) && !entityEntries.contains(name) {
            throw DocumentReadError(
                file: file, location: SourceLocation(entry: name),
                message: "the entry holds snapshots of an entity the schema does not have",
                hint: "The file is damaged or is not a tripdoc bundle")
        }
        func decodedHistory() throws -> DocumentHistory {
            if historyPositionOnly, let recordedPosition { return recordedPosition }
            guard contents[Self.historyEntry] != nil else { return DocumentHistory() }
            let history = try readJSON(Self.historyEntry) {
                historyPositionOnly
                    ? try decoder.decodeHistoryPosition(from: &$0, file: file)
                    : try decoder.decodeHistory(from: &$0, schema: schema, storeIdentifier: header.storeIdentifier, file: file)
            }
            // A recorded position a save would trust must be the history's.
            if let recordedPosition, recordedPosition.nextTransactionIdentifier != history.nextTransactionIdentifier {
                throw refusal(
                    file, BundleManifest.entryName,
                    "the manifest records \(recordedPosition.deletedThrough) as the history's last transaction identifier, "
                        + "but history.json's is \(history.nextTransactionIdentifier - 1)",
                    hint: "The file was changed by hand or by another program: restore the document from a copy. Saves "
                        + "journaled beside it since were numbered from the recorded position; removing the manifest's "
                        + "historyPosition member would make the journal's fold pass over those it takes for held")
            }
            return history
        }
        func readSnapshots() throws {
            let entities = schema.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
                .filter { sink.wantsSnapshots(of: $0) }
            let wanted = Set(entities.map { Self.snapshotsFolder + $0.name + ".json" })
            let inflation = BackgroundInflation(of: data, limits: limits, including: { wanted.contains($0) })
            defer { inflation.stop() }
            var count = 0
            for entity in entities {
                let name = Self.snapshotsFolder + entity.name + ".json"
                try sink.beginEntity(entity)
                let entityCount = try readJSON(name, arrivingFrom: inflation) {
                    try decoder.decodeSnapshots(
                        of: entity, from: &$0, storeIdentifier: header.storeIdentifier, file: file,
                        keyPath: "snapshots.\(entity.name)", counted: &count, into: &sink)
                }
                try sink.endEntity(entity, count: entityCount)
            }
            try refusingArchiveErrors(file: file) { try inflation.finish() }
        }
        // A sink that takes the history late has it decoded on one core while the snapshot
        // entries are on the other; an error in it is still the one reported, as when it is
        // read first.
        guard sink.acceptsLateHistory, wantsHistory, contents[Self.historyEntry] != nil else {
            let history =
                wantsHistory ? try decodedHistory() : (sink.takesHistoryPositionWhenKnown ? recordedPosition : nil)
            try sink.begin(header: header, schema: schema, history: history)
            try readSnapshots()
            return
        }
        try sink.begin(header: header, schema: schema, history: nil)
        let (history, snapshots) = TwoThreads.run({ Result { try decodedHistory() } }, { Result { try readSnapshots() } })
        try sink.lateHistory(history.get())
        try snapshots.get()
    }

    public func entryReports(of data: Data, file: String, limits: DocumentLimits) throws -> [ArchiveEntryReport] {
        try reports(of: data, listed: verifiedEntries(of: data, file: file, limits: limits).listed)
    }

    /// Reading the document inflated and verified every entry: only the manifest is read again.
    public func entryReports(ofRead data: Data, file: String, limits: DocumentLimits) throws -> [ArchiveEntryReport] {
        try reports(of: data, listed: verifiedEntries(of: data, file: file, limits: limits) { _ in false }.listed)
    }

    /// The central directory's entries, each CRC-checked (it was inflated) and with its digest
    /// checked when the manifest lists it.
    private func reports(of data: Data, listed: Set<String>) throws -> [ArchiveEntryReport] {
        try ZipCentralDirectory(data).records.filter { !$0.isDirectory }.map { record in
            ArchiveEntryReport(
                name: record.name, size: record.uncompressedSize, compressedSize: record.compressedSize, crc: "ok",
                digest: record.name == BundleManifest.entryName ? "unlisted" : (listed.contains(record.name) ? "ok" : "unlisted"))
        }
    }

    /// Where the history stands as the manifest records it (docs/FORMATS.md, 8.5): an empty
    /// history when the manifest lists no `history.json`; the recorded position when it
    /// records one for the `history.json` it lists (the same digest); otherwise `nil`, and the
    /// history entry tells.
    static func recordedHistoryPosition(in manifest: BundleManifest, file: String) throws -> DocumentHistory? {
        guard let listed = manifest.entries.first(where: { $0.name == historyEntry }) else { return DocumentHistory() }
        guard let recorded = manifest.historyPosition, recorded.sha256.lowercased() == listed.sha256.lowercased() else {
            return nil
        }
        guard recorded.lastTransactionIdentifier >= 0, recorded.lastTransactionIdentifier < Int64.max else {
            throw DocumentReadError(
                file: file, location: SourceLocation(entry: BundleManifest.entryName),
                message: "the manifest's historyPosition.lastTransactionIdentifier must be from 0 to 2^63-2, "
                    + "found \(recorded.lastTransactionIdentifier)",
                hint: "The file is damaged, was changed by hand, or is not a tripdoc bundle")
        }
        return DocumentHistory(deletedThrough: recorded.lastTransactionIdentifier)
    }

    /// Why an entry is refused, as a read error naming it.
    private func refusal(_ file: String, _ entry: String?, _ message: String, hint: String? = nil) -> DocumentReadError {
        DocumentReadError(
            file: file, location: entry.map { SourceLocation(entry: $0) }, message: message,
            hint: hint ?? "The file is damaged, was changed by hand, or is not a tripdoc bundle")
    }

    /// Runs `body`, turning an archive's errors into read errors of `file` naming the entry.
    private func refusingArchiveErrors<T>(file: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ZipArchiveError {
            throw refusal(file, error.entry, error.description, hint: error.hint)
        }
    }

    /// The entries `including` selects, inflated under the limits, as ``ZipArchive`` reads them.
    private func inflated(
        _ data: Data, file: String, limits: DocumentLimits, including: (String) -> Bool
    ) throws -> [ZipArchive.Entry] {
        try refusingArchiveErrors(file: file) { try ZipArchive.entries(of: data, limits: limits, including: including) }
    }

    /// Checks inflated entries against the manifest's sizes and SHA-256 digests.
    private func verify(_ entries: [ZipArchive.Entry], against manifest: BundleManifest, file: String) throws {
        let listed = manifest.entriesByName
        for entry in entries where entry.name != BundleManifest.entryName {
            try verify(
                entry.name, size: entry.data.count, digest: entry.digest ?? Self.sha256(entry.data),
                against: listed[entry.name], file: file)
        }
    }

    /// Waits for an inflating entry to end, and checks it against the manifest's entries by
    /// name (``BundleManifest/entriesByName``, made once for every entry checked).
    private func verify(_ entry: ArrivingEntry, against listed: [String: BundleManifest.Entry], file: String) throws {
        let digest = try refusingArchiveErrors(file: file) { try entry.digest() }
        try verify(entry.name, size: entry.declaredSize, digest: digest, against: listed[entry.name], file: file)
    }

    /// Checks an entry's size and SHA-256 digest against what the manifest lists for it.
    private func verify(_ name: String, size: Int, digest: String, against expected: BundleManifest.Entry?, file: String)
        throws
    {
        guard let expected else {
            throw refusal(file, name, "the archive holds an entry the manifest does not list")
        }
        guard size == expected.size, digest == expected.sha256.lowercased() else {
            throw refusal(file, name, "the entry's contents do not match the SHA-256 digest in the manifest")
        }
    }

    /// The archive's entries by name, checked against the limits, their CRCs and the manifest:
    /// every listed entry present with its size, nothing unlisted, and the SHA-256 of every
    /// entry `including` selects (only those are inflated; the manifest always is).
    /// `inflatingHistory`, given the verified manifest, says whether `history.json` is
    /// inflated after all, when `including` selects it.
    private func verifiedEntries(
        of data: Data, file: String, limits: DocumentLimits, including: (String) -> Bool = { _ in true },
        inflatingHistory: (BundleManifest) throws -> Bool = { _ in true }
    ) throws -> (contents: [String: Data], listed: Set<String>, manifest: BundleManifest, names: Set<String>) {
        func refuse(_ entry: String?, _ message: String, hint: String? = nil) -> DocumentReadError {
            refusal(file, entry, message, hint: hint)
        }
        // Every entry's name and size from the central directory, then the manifest alone: what
        // the manifest does not list is refused before anything else is inflated.
        let sizes = Dictionary(
            try refusingArchiveErrors(file: file) { try ZipCentralDirectory(data) }.records.filter { !$0.isDirectory }
                .map { ($0.name, $0.uncompressedSize) },
            uniquingKeysWith: { a, _ in a })
        guard sizes[BundleManifest.entryName] != nil,
            let manifestData = try inflated(data, file: file, limits: limits, including: { $0 == BundleManifest.entryName })
                .first(where: { $0.name == BundleManifest.entryName })?.data
        else {
            throw refuse(BundleManifest.entryName, "the bundle has no manifest.json")
        }
        let manifest: BundleManifest
        do {
            manifest = try JSONDecoder().decode(BundleManifest.self, from: manifestData)
        } catch {
            throw refuse(
                BundleManifest.entryName,
                "the manifest is not valid: " + ((error as? DecodingError)?.placedDescription(in: manifestData) ?? "\(error)"))
        }
        guard manifest.format == BundleManifest.format else {
            throw refuse(BundleManifest.entryName, "the manifest's format is '\(manifest.format)', expected '\(BundleManifest.format)'")
        }
        guard manifest.formatVersion >= 1, manifest.formatVersion <= BundleManifest.currentFormatVersion else {
            throw refuse(
                BundleManifest.entryName,
                "bundle format version \(manifest.formatVersion) is not one this tripdoc reads (1 to "
                    + "\(BundleManifest.currentFormatVersion)); a newer tripdoc may read it")
        }
        var listed: Set<String> = []
        for entry in manifest.entries {
            guard NameNormalization.isNFC(entry.name) else {
                throw refuse(BundleManifest.entryName, NameNormalization.problem(with: entry.name, what: "the listed entry name"))
            }
            guard listed.insert(entry.name).inserted else { throw refuse(entry.name, "the manifest lists the entry twice") }
            guard let size = sizes[entry.name] else {
                throw refuse(entry.name, "the manifest lists the entry, but the archive does not hold it")
            }
            guard size == entry.size else {
                throw refuse(entry.name, "the entry's contents do not match the SHA-256 digest in the manifest")
            }
        }
        for name in sizes.keys.sorted() where name != BundleManifest.entryName && !listed.contains(name) {
            throw refuse(name, "the archive holds an entry the manifest does not list")
        }
        for name in sizes.keys.sorted() {
            let known = [BundleManifest.entryName, Self.headerEntry, Self.schemaEntry, Self.historyEntry].contains(name)
                || name.hasPrefix(Self.snapshotsFolder) || name.hasPrefix(Self.externalFolder)
            guard known else { throw refuse(name, "a bundle of format version 1 has no such entry") }
        }
        // Only now the rest of what was asked for is inflated, and checked against the manifest.
        let history = try inflatingHistory(manifest)
        let entries = try inflated(data, file: file, limits: limits) {
            $0 != BundleManifest.entryName && including($0) && (history || $0 != Self.historyEntry)
        }
        var contents: [String: Data] = [BundleManifest.entryName: manifestData]
        var inflatedByName: [String: ZipArchive.Entry] = [:]
        for entry in entries {
            contents[entry.name] = entry.data
            inflatedByName[entry.name] = entry
        }
        try verify(entries, against: manifest, file: file)
        for name in sizes.keys.sorted() {
            if name.hasPrefix(Self.externalFolder), let entry = inflatedByName[name],
                (entry.digest ?? Self.sha256(entry.data)) != name.dropFirst(Self.externalFolder.count)
            {
                throw refuse(name, "an external entry's name must be the SHA-256 digest of its contents")
            }
        }
        return (contents, listed, manifest, Set(sizes.keys))
    }
}
