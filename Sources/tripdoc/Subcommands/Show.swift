import ArgumentParser
import Foundation
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

                Examples:
                  tripdoc show trips.json
                  tripdoc show trips.json --entity Trip --limit 10
                  tripdoc show trips.json --json
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var file: String

        @Option(help: "Show only this entity.")
        var entity: String?

        @Option(help: "Show at most this many snapshots per entity.")
        var limit: Int?

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        }

        func run() throws {
            let source = try DocumentFile.read(file, limits: limitOptions.limits())
            let document = source.document
            try source.checkEntity(entity)
            let tables = SnapshotTable.tables(for: document, entityName: entity, limit: limit)
            if json {
                FileHandle.standardOutput.write(try SnapshotTable.jsonData(for: tables, of: document))
            } else {
                print(tables.map(\.text).joined(separator: "\n"), terminator: "")
            }
        }
    }
}
