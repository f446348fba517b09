import Foundation
import TripDocCore

/// The JSON document format: one UTF-8 JSON text holding the header, the schema and the
/// snapshots (specified in docs/FORMATS.md).
public struct JSONFormat: DocumentFormat {
    /// Creates the format.
    public init() {}

    public var name: String { "json" }
    public var fileExtensions: [String] { ["json"] }
    public var signatureDescription: String { "a JSON document (starting with '{')" }
    /// One pass reads the document, its history inline: the history's position costs what
    /// passing over it does.
    public var readsHistoryPositionCheaply: Bool { true }

    /// A JSON document starts, after optional whitespace or a byte order mark, with `{`.
    public func recognizes(_ prefix: Data) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return false }
        return first == UInt8(ascii: "{")
    }

    public func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
        try limits.checkDocumentSize(data.count, file: file)
        return try data.withUnsafeBytes { bytes in
            var reader = JSONReader(bytes: bytes, limits: limits)
            return try DocumentDecoder(limits: limits).decode(from: &reader, file: file)
        }
    }

    public func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink
    ) throws {
        try limits.checkDocumentSize(data.count, file: file)
        try data.withUnsafeBytes { bytes in
            var reader = JSONReader(bytes: bytes, limits: limits)
            try DocumentDecoder(limits: limits).decode(from: &reader, file: file, into: &sink)
        }
    }

    public func writeDocument(_ document: Document) throws -> Data {
        try writeDocumentThroughStream(document)
    }

    public func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter {
        StructuredDocumentStreamWriter(writer: JSONWriter(capacity: 2 * StructuredDocumentStreamWriter<JSONWriter>.pieceSize), sink: sink)
    }
}

extension JSONFormat {
    /// Snapshots as a JSON object `{"snapshots": {entity: [snapshot, …]}, "storeIdentifier": …}`,
    /// each snapshot in the document coding: what `tripdoc show --json` prints.
    public func writeSnapshots(_ snapshots: [DefaultSnapshot], schema: Schema, storeIdentifier: String) throws -> Data {
        var writer = JSONWriter(compactLevel: 3, capacity: max(1 << 12, snapshots.count * 160))
        writer.beginObject()
        writer.key("snapshots")
        try DocumentEncoder().encodeSnapshots(snapshots, schema: schema, to: &writer)
        writer.key("storeIdentifier")
        writer.writeString(storeIdentifier)
        writer.endObject()
        return writer.data
    }
}
