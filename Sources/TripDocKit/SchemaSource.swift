import Foundation
import TripDoc

/// A schema read from a file: a document's (any format), or a schema file — a JSON object in
/// the document coding's `schema` form (docs/FORMATS.md 2.3), what `tripdoc schema --json` prints.
public struct SchemaSource {
    /// The path as the user gave it (`-` for standard input).
    public var path: String
    /// The schema.
    public var schema: Schema
    /// The document's header, or `nil` for a schema file.
    public var header: DocumentHeader?
    /// The format of the document, or `nil` for a schema file.
    public var format: (any DocumentFormat)?

    /// Reads the schema of the document or schema file at `path`. A JSON text whose first key
    /// is `entities` or `version` is a schema file; anything else is read as a document (only
    /// its header and schema: no snapshot is decoded).
    ///
    /// - Throws: `FileReadError`, ``TripDocError/unrecognizedFormat(path:start:)`` or
    ///   `DocumentReadError` (which names the file, line and column, and key path).
    public static func read(_ path: String, limits: DocumentLimits = .standard) throws -> SchemaSource {
        let data = try DocumentFile.contents(of: path, limits: limits, mapped: true)
        if isSchemaFile(data) {
            let schema = try data.withUnsafeBytes { bytes in
                var reader = JSONReader(bytes: bytes, limits: limits)
                return try DocumentDecoder(limits: limits).decodeSchema(from: &reader, file: path, keyPath: "")
            }
            return SchemaSource(path: path, schema: schema)
        }
        let format = try DocumentFile.format(of: data, path: path)
        var collector = HeaderCollector()
        try format.readDocument(from: data, file: path, limits: limits, into: &collector)
        return SchemaSource(path: path, schema: collector.schema!, header: collector.header, format: format)
    }

    /// Creates a source.
    public init(path: String, schema: Schema, header: DocumentHeader? = nil, format: (any DocumentFormat)? = nil) {
        self.path = path
        self.schema = schema
        self.header = header
        self.format = format
    }

    /// Whether `data` is a JSON object whose first key is `entities` or `version`.
    static func isSchemaFile(_ data: Data) -> Bool {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        func skipSpace() { while let byte = bytes.first, [0x20, 0x0A, 0x0D, 0x09].contains(byte) { bytes = bytes.dropFirst() } }
        skipSpace()
        guard bytes.first == UInt8(ascii: "{") else { return false }
        bytes = bytes.dropFirst()
        skipSpace()
        return bytes.starts(with: Array("\"entities\"".utf8)) || bytes.starts(with: Array("\"version\"".utf8))
    }

    /// The schema in the document coding, as a schema file holds it (and a bundle's
    /// `schema.json`): what `tripdoc schema --json` prints.
    public static func jsonData(of schema: Schema) -> Data {
        var writer = JSONWriter(compactLevel: 2)
        DocumentEncoder().encodeSchema(schema, to: &writer)
        return writer.data + Data("\n".utf8)
    }
}

/// Keeps a document's header and schema, and wants no snapshots.
private struct HeaderCollector: DocumentDecodingSink {
    var header: DocumentHeader?
    var schema: Schema?

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        self.header = header
        self.schema = schema
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws {}
    mutating func add(_ snapshot: DefaultSnapshot) throws {}
    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
    mutating func lateHistory(_ history: DocumentHistory) throws {}
    func wantsSnapshots(of entity: Schema.Entity) -> Bool { false }
}
