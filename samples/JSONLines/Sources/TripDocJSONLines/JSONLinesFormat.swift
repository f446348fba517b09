import Foundation
import TripDoc

// The format the article "Writing a document format" (Sources/TripDocCore/TripDocCore.docc)
// walks through, kept here so that it compiles and its tests run: the article quotes this file.

/// JSON Lines: the header, the schema and the history on a line each, then one line per
/// snapshot, `{"Trip":[{"$id":"1","name":"Tokyo",…}]}`, so that line tools (`grep`, `wc -l`,
/// `git diff`) see one snapshot per line.
public struct JSONLinesFormat: DefaultDocumentFormat {
    /// The format; it has no settings.
    public init() {}

    /// `jsonl`, what `--to` takes.
    public var name: String { "jsonl" }
    /// `jsonl`: an output named `*.jsonl` is written in this format.
    public var fileExtensions: [String] { ["jsonl"] }
    /// How the format's files start, for messages.
    public var signatureDescription: String {
        #"a JSON Lines document (a first line holding the header's members, '"format":"tripdoc"' among them)"#
    }

    /// Whether `prefix` starts with the header line: an object of the header's members on one
    /// line, `"format":"tripdoc"` among them. Which member comes first is the shared encoder's
    /// business (a converted document's `derivedFrom` comes before `format`), so the line is
    /// searched, not its start compared; a tripdoc JSON document starts `{` and a newline.
    public func recognizes(_ prefix: Data) -> Bool {
        guard prefix.starts(with: Data(#"{""#.utf8)), !prefix.starts(with: Data(#"{"header""#.utf8)) else {
            return false
        }
        let headerLine = prefix.prefix { $0 != UInt8(ascii: "\n") }
        return headerLine.range(of: Data(#""format":"tripdoc""#.utf8)) != nil
    }

    /// Reads a whole document, through the streaming read.
    public func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
        var collector = DocumentCollector()
        try readDocument(from: data, file: file, limits: limits, into: &collector)
        return collector.document!
    }

    /// The document's lines, through the stream writer.
    public func writeDocument(_ document: Document) throws -> Data {
        try writeDocumentThroughStream(document)
    }

    /// A writer of one document, a line at a time.
    public func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter {
        JSONLinesStreamWriter(sink: sink)
    }

    /// Reads a document line by line and hands it to `sink`: the header, the schema and the
    /// history, then each entity's snapshots as their lines come.
    public func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink
    ) throws {
        try limits.checkDocumentSize(data.count, file: file)
        try data.withUnsafeBytes { bytes in
            var lines = JSONLines(bytes: bytes, file: file, limits: limits)
            let decoder = DocumentDecoder(limits: limits)
            let header = try lines.decodeNext("the header") { reader in
                try decoder.decodeHeader(from: &reader, file: file)
            }
            let schema = try lines.decodeNext("the schema") { reader in
                try decoder.decodeSchema(from: &reader, file: file)
            }
            try decoder.checkHeader(header, against: schema, file: file, location: SourceLocation(line: 1))
            let history = try lines.decodeNext("the history") { reader in
                try decoder.decodeHistory(
                    from: &reader, schema: schema, storeIdentifier: header.storeIdentifier, file: file)
            }
            try sink.begin(header: header, schema: schema, history: history)

            // Entities come in byte order of their names, as every tripdoc document lists
            // them; each one gets its beginEntity/endEntity, with or without snapshots.
            let entities = schema.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            var next = 0
            var current: (entity: Schema.Entity, count: Int)?
            var total = 0
            func endCurrent() throws {
                if let (entity, count) = current, sink.wantsSnapshots(of: entity) {
                    try sink.endEntity(entity, count: count)
                }
                current = nil
            }
            func begin(upTo index: Int) throws {
                while next <= index {
                    try endCurrent()
                    current = (entities[next], 0)
                    if sink.wantsSnapshots(of: entities[next]) { try sink.beginEntity(entities[next]) }
                    next += 1
                }
            }
            while let line = lines.next() {
                let count = try lines.decode(line) { reader in
                    try reader.beginObject()
                    let entityStart = reader.bookmark
                    guard let name = try reader.nextKey() else {
                        throw StructuredReadError(
                            location: reader.location(of: entityStart),
                            message: "expected a snapshot line, {\"Entity\":[snapshot]}, found an empty object")
                    }
                    // The current entity's (entities[next - 1]) or a later one's.
                    guard let index = entities.firstIndex(where: { $0.name == name }), index >= next - 1 else {
                        throw StructuredReadError(
                            location: reader.location(of: entityStart),
                            message: entities.contains(where: { $0.name == name })
                                ? "a snapshot of \(name) after those of \(entities[next - 1].name): a document lists "
                                    + "each entity's snapshots together, entities in byte order of their names"
                                : "'\(name)' is not an entity of the schema")
                    }
                    try begin(upTo: index)
                    var snapshotLine = SnapshotLineReader(line: reader)
                    guard sink.wantsSnapshots(of: entities[index]) else {
                        // Not wanted: counted, not decoded.
                        var skipped = 0
                        try snapshotLine.beginArray()
                        while try snapshotLine.nextElement() {
                            try snapshotLine.skipValue()
                            skipped += 1
                        }
                        try snapshotLine.finish()
                        return skipped
                    }
                    return try decoder.decodeSnapshots(
                        of: entities[index], from: &snapshotLine, storeIdentifier: header.storeIdentifier, file: file,
                        keyPath: name, counted: &total, into: &sink)
                }
                current!.count += count
            }
            try begin(upTo: entities.count - 1)
            try endCurrent()
        }
    }
}
