import Foundation

/// One way of writing a ``Document`` as bytes. A format knows only its syntax: it reads and
/// writes documents through the shared ``DocumentDecoder`` and ``DocumentEncoder``, and it
/// recognises its own bytes. Everything else (saving, remapping, checking) is written once.
public protocol DocumentFormat: Sendable {
    /// The short name users type (`json`, `plist`, `bundle`).
    var name: String { get }
    /// File extensions, without the dot, that select this format when writing.
    var fileExtensions: [String] { get }
    /// How a file of this format starts, for messages: "a JSON document (starting with '{')".
    var signatureDescription: String { get }
    /// Whether `prefix` (the first bytes of a file, up to 512) looks like this format.
    func recognizes(_ prefix: Data) -> Bool
    /// Reads a document under `limits`; `file` names it in errors.
    ///
    /// - Throws: ``DocumentReadError``.
    func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document
    /// The document's bytes. Same document, same bytes.
    func writeDocument(_ document: Document) throws -> Data
    /// Reads a document under `limits` and hands it to `sink` piece by piece, so that it need
    /// not be whole in memory (see ``DocumentDecodingSink``); `file` names it in errors.
    ///
    /// - Throws: ``DocumentReadError``, or what `sink` throws.
    func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink) throws
    /// A writer that writes one document, piece by piece, to `sink`: the same bytes as
    /// ``writeDocument(_:)``.
    func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter
    /// Whether reading where a document's history stands
    /// (``DocumentDecodingSink/wantsHistoryPositionOnly``) costs the format's streaming read about
    /// what passing over the history does (default `false`): so for a format read in one pass
    /// whose history is inline (JSON, plist), not for a bundle, whose history entry would have
    /// to be inflated. An ``ArchiveStore`` then reads the position as it opens the document
    /// (passing over the history to reach the schema), so that its first journaled save does
    /// not read the file again. A format that knows the position of some documents without
    /// reading their history (a bundle whose manifest records it) leaves this `false` and
    /// hands it to a sink that ``DocumentDecodingSink/takesHistoryPositionWhenKnown``, as the
    /// store's reads are.
    var readsHistoryPositionCheaply: Bool { get }
}

extension DocumentFormat {
    public var readsHistoryPositionCheaply: Bool { false }

    /// Reads a document under the ``DocumentLimits/standard`` limits; `file` names it in errors.
    ///
    /// - Throws: ``DocumentReadError``.
    public func readDocument(from data: Data, file: String) throws -> Document {
        try readDocument(from: data, file: file, limits: .standard)
    }
}

extension DocumentFormat {
    /// Reads the whole document, then hands it over: for formats that cannot stream.
    public func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink
    ) throws {
        let document = try readDocument(from: data, file: file, limits: limits)
        try sink.begin(header: document.header, schema: document.schema, history: document.history)
        for (entity, snapshots) in DocumentEncoder.groupedByEntity(document.orderedSnapshots, schema: document.schema)
        where sink.wantsSnapshots(of: entity) {
            try sink.beginEntity(entity)
            for snapshot in snapshots {
                guard sink.wantsMoreSnapshots else { break }
                try sink.add(snapshot)
            }
            try sink.endEntity(entity, count: snapshots.count)
        }
    }

    /// The document's bytes as ``makeStreamWriter(sink:)`` writes them, collected in memory: how
    /// a format that streams implements ``writeDocument(_:)``, so both give the same bytes.
    public func writeDocumentThroughStream(_ document: Document) throws -> Data {
        var data = Data()
        var writer = makeStreamWriter { data.append(contentsOf: $0) }
        try writer.write(document)
        return data
    }

    /// Collects the document in memory and writes it at the end: for formats that cannot stream.
    public func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter {
        CollectingStreamWriter(format: self, sink: sink)
    }
}

/// The stream writer of a format that can only write whole documents.
private struct CollectingStreamWriter: DocumentStreamWriter {
    let format: any DocumentFormat
    let sink: DocumentByteSink
    var document: Document?

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        document = Document(header: header, schema: schema, history: history)
    }
    mutating func beginEntity(_ entity: Schema.Entity) throws {}
    mutating func add(_ snapshot: DefaultSnapshot) throws { document!.snapshots.append(snapshot) }
    mutating func endEntity() throws {}
    mutating func finish() throws {
        let data = try format.writeDocument(document!)
        try data.withUnsafeBytes { try sink($0) }
    }
}

