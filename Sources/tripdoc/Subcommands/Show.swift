import ArgumentParser
import Foundation
import TripDoc
import TripDocKit

extension TripDocCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a document's snapshots.",
            discussion: """
                Prints one table per entity: a row per snapshot ($id is its primary key), a column \
                per property. To-one relationships show as →KEY, to-many as [KEY,KEY]. With --json, \
                prints {"snapshots": {ENTITY: [SNAPSHOT, ...]}, "storeIdentifier": ID} in the \
                document coding of docs/FORMATS.md.

                It reads only what it shows, so --entity and --limit are quick on large documents: \
                other entities are skipped (a bundle does not inflate their entries), and the \
                snapshots of an entity past --limit are counted, not decoded.

                Examples:
                  tripdoc show trips.json
                  tripdoc show trips.json --entity Trip --limit 10
                  tripdoc show trips.json --json
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var file: String

        @Option(help: "Show only this entity.")
        var entity: String?

        @Option(parsing: .unconditional, help: "Show at most this many snapshots per entity.")
        var limit: Int?

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        }

        func run() throws {
            let limits = try limitOptions.limits()
            // Read piece by piece, keeping only what is shown; a document whose snapshots are
            // out of order is read whole instead.
            let data = try DocumentFileReader.contents(of: file, limits: limits, mapped: true)
            let format = try DocumentFileReader.reading(data, path: file) { try DocumentFile.format(of: data, path: file) }
            var selection = SnapshotSelection(entityName: entity, limit: limit)
            let document: Document
            let tables: [SnapshotTable]
            do {
                try DocumentFileReader.reading(data, path: file) {
                    try format.readDocument(from: data, file: file, limits: limits, into: &selection)
                }
                document = selection.document!
                tables = SnapshotTable.tables(for: selection)
            } catch is SnapshotSelection.OutOfOrder {
                let source = try DocumentFile.read(data, path: file, limits: limits)
                document = source.document
                tables = SnapshotTable.tables(for: document, entityName: entity, limit: limit)
            }
            try DocumentFile(path: file, format: format, size: data.count, document: document).checkEntity(entity)
            if json {
                try StandardOutput.write(try SnapshotTable.jsonData(for: tables, of: document))
            } else {
                try StandardOutput.write(tables.map(\.text).joined(separator: "\n"))
            }
        }
    }
}
