import Foundation
import TripDoc

/// `tripdoc migrate` as a library: a document in any format migrated to a new schema with the
/// lightweight migration inferred from the two schemas (`SchemaMigration`), written in any
/// format. The store identifier, the history and its tokens stay; the input is never changed,
/// and the output is written atomically (nothing is left when anything fails).
///
/// The document is read in one pass and written as it goes (decoding, migrating and checking,
/// and writing on three threads, as ``DocumentStreamConversion`` does), unless the output is
/// standard output, the document is not in the order tripdoc writes, or an entity is renamed
/// into another place in the order: those migrate in memory, with the same result.
public struct DocumentMigration {
    /// The differences the migration made.
    public var difference: SchemaDifference
    /// How many snapshots the migrated document holds.
    public var snapshotCount: Int
    /// The input's path.
    public var input: String
    /// The output's path (`-`: standard output; `nil`: a dry run).
    public var output: String?

    /// Migrates the document at `input` to `schema`, writing it to `destination` in `format`
    /// (or, when `destination` is `nil`, only checking that it would migrate: a dry run).
    ///
    /// - Throws: `SchemaMigrationError` (what cannot be migrated, or the duplicates a new
    ///   uniqueness constraint meets), ``TripDocError/migratedDocumentHasProblems(input:problems:)``,
    ///   or a read or write error. Nothing is written then.
    public static func migrate(
        _ input: String, to schema: Schema, writingTo destination: OutputDestination?, format: any DocumentFormat,
        limits: DocumentLimits = .standard
    ) throws -> DocumentMigration {
        let data = try DocumentFile.contents(of: input, limits: limits, mapped: true)
        let sourceFormat = try DocumentFile.format(of: data, path: input)
        if destination?.path != "-" {
            do {
                var result: (SchemaMigration, Int)?
                if let destination {
                    try destination.write { sink in
                        result = try stream(
                            data, path: input, format: sourceFormat, limits: limits, schema: schema,
                            writer: format.makeStreamWriter(sink: sink))
                    }
                } else {
                    // A dry run: everything but the writing.
                    result = try stream(
                        data, path: input, format: sourceFormat, limits: limits, schema: schema,
                        writer: DiscardingStreamWriter())
                }
                return DocumentMigration(
                    difference: result!.0.difference, snapshotCount: result!.1, input: input, output: destination?.path)
            } catch is DocumentStreamConversion.Unavailable {
                // Migrated in memory below.
            }
        }
        let source = try DocumentFile.read(data, path: input, limits: limits)
        let migration = try SchemaMigration(from: source.document.schema, to: schema)
        let migrated = try migration.migrate(source.document)
        let problems = IntegrityChecker().problems(in: migrated)
        guard problems.isEmpty else { throw TripDocError.migratedDocumentHasProblems(input: input, problems: problems) }
        try destination?.write(try format.writeDocument(migrated))
        return DocumentMigration(
            difference: migration.difference, snapshotCount: migrated.snapshots.count, input: input,
            output: destination?.path)
    }

    /// Decodes, migrates and checks, and writes on three threads; returns the migration and
    /// the number of snapshots written.
    private static func stream(
        _ data: Data, path: String, format: any DocumentFormat, limits: DocumentLimits, schema: Schema,
        writer: any DocumentStreamWriter
    ) throws -> (SchemaMigration, Int) {
        var problems: [IntegrityProblem] = []
        var migration: SchemaMigration?
        let written: WritingSink
        do {
            written = try BackgroundSink.run(WritingSink(writer: writer)) { writing in
                let migrating = DocumentMigratingSink(to: schema, next: IntegrityCheckingSink(next: writing))
                var done = try BackgroundSink.run(migrating) { feeding in
                    try format.readDocument(from: data, file: path, limits: limits, into: &feeding)
                }
                migration = done.migration
                writing = done.next.next
                try writing.flush()
                problems = done.next.session?.finish() ?? []
            }
        } catch let error as DocumentStreamOrderError {
            throw DocumentStreamConversion.Unavailable(reason: error.message)
        }
        guard problems.isEmpty else { throw TripDocError.migratedDocumentHasProblems(input: path, problems: problems) }
        var finished = written
        try finished.writer.finish()
        return (migration!, finished.count)
    }

    /// What the migration did, as text: one line for the document, one per change.
    public var text: String {
        let verb = output == nil ? "Would migrate" : "Migrated"
        var lines = [
            "\(verb) \(input) from schema \(difference.source.version) to \(difference.destination.version)"
                + (output.map { $0 == "-" ? "" : " into \($0)" } ?? "")
                + ": \(snapshotCount) snapshot\(snapshotCount == 1 ? "" : "s"), "
                + (difference.changes.isEmpty
                    ? "no schema changes" : "\(difference.changes.count) change\(difference.changes.count == 1 ? "" : "s")")
        ]
        for change in difference.changes { lines.append("  \(change)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Hands a decoded (and migrated) document to a stream writer, counting the snapshots; a
/// history after the snapshots makes the one-pass migration unavailable.
private struct WritingSink: DocumentDecodingSink {
    var writer: any DocumentStreamWriter
    var count = 0

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        try writer.begin(header: header, schema: schema, history: history ?? DocumentHistory())
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws { try writer.beginEntity(entity) }

    mutating func add(_ snapshot: DefaultSnapshot) throws {
        try writer.add(snapshot)
        count += 1
    }

    mutating func add(record: consuming SnapshotRecord) throws {
        try writer.add(record: record)
        count += 1
    }

    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws { try writer.endEntity() }

    mutating func lateHistory(_ history: DocumentHistory) throws {
        throw DocumentStreamConversion.Unavailable(reason: "the history comes after the snapshots")
    }
}

/// A stream writer that writes nothing: what a dry run migrates into.
private struct DiscardingStreamWriter: DocumentStreamWriter {
    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {}
    mutating func beginEntity(_ entity: Schema.Entity) throws {}
    mutating func add(_ snapshot: DefaultSnapshot) throws {}
    mutating func add(record: consuming SnapshotRecord) throws {}
    mutating func endEntity() throws {}
    mutating func finish() throws {}
}
