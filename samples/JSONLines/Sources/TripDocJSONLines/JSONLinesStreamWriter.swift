import Foundation
import TripDoc

/// Writes a JSON Lines document as it is handed over, one line per snapshot, emptying its
/// buffer into the sink whenever a piece is full: a conversion to JSON Lines never holds the
/// document in memory.
struct JSONLinesStreamWriter: DocumentStreamWriter {
    let sink: DocumentByteSink
    /// Writes each value on a line of its own (nothing is indented at level 0 or deeper).
    private var writer = JSONWriter(compactLevel: 0)
    /// The entity whose snapshots are being written, and its name.
    private var current: (name: String, encoder: EntityStreamEncoder)?
    /// The last entity begun: entities come in byte order of their names.
    private var lastEntity: String?

    init(sink: @escaping DocumentByteSink) {
        self.sink = sink
    }

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        let encoder = DocumentEncoder()
        encoder.encodeHeader(header, to: &writer)
        encoder.encodeSchema(schema, to: &writer)
        try encoder.encodeHistory(history, schema: schema, to: &writer)
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws {
        if let lastEntity, !lastEntity.utf8.lexicographicallyPrecedes(entity.name.utf8) {
            throw DocumentStreamOrderError(message: "the snapshots of \(entity.name) are not in document order")
        }
        lastEntity = entity.name
        current = (entity.name, EntityStreamEncoder(entity: entity))
    }

    mutating func add(_ snapshot: DefaultSnapshot) throws {
        try writeLine(of: snapshot.persistentIdentifier) { encoder, writer in
            try encoder.add(snapshot, to: &writer)
        }
    }

    /// What a conversion hands over: the snapshot as the reader decoded it, written without
    /// making a dictionary of its values.
    mutating func add(record: consuming SnapshotRecord) throws {
        let record = record
        try writeLine(of: record.persistentIdentifier) { encoder, writer in
            try encoder.add(record: record, to: &writer)
        }
    }

    /// Writes `{"Entity":[snapshot]}` and a newline; `body` writes the snapshot.
    private mutating func writeLine(
        of identifier: PersistentIdentifier, _ body: (inout EntityStreamEncoder, inout JSONWriter) throws -> Void
    ) throws {
        guard current != nil else {
            throw DocumentStreamOrderError(message: "\(identifier) comes outside its entity's snapshots")
        }
        writer.beginObject()
        writer.key(current!.name)
        writer.beginArray()
        try body(&current!.encoder, &writer)
        writer.endArray()
        writer.endObject()
        if writer.bufferedByteCount >= Self.pieceSize { try writer.drain(into: sink) }
    }

    mutating func endEntity() throws {
        current = nil
    }

    mutating func finish() throws {
        try writer.drain(into: sink)
    }
}
