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

                --where selects the snapshots of --entity that meet a condition, --sort orders \
                them (memory holds --limit of them, not the entity), --id shows one object and \
                --follow adds the objects the shown ones reference. A condition compares \
                properties with values (==, !=, <, <=, >, >=) and combines comparisons with &&, || \
                and !, with parentheses. Values are strings in double quotes, numbers, true, false, \
                nil and dates (2030-01-01, or 2030-01-01T09:30:00Z); a string compared with a UUID \
                or URL attribute is read as one. A property is an attribute, a to-one \
                relationship (compared with nil), an attribute of what a to-one relationship \
                points at (livingAccommodation.placeName), or the count of a to-many \
                relationship, string, array or data (bucketList.count). Strings have \
                contains(S), hasPrefix(S), hasSuffix(S), localizedStandardContains(S) (ignoring \
                case and diacritics), lowercased() and uppercased() (destination.lowercased() == \
                "lisbon"). The condition is checked against the document's schema first: an \
                unknown property, a string compared with a number or an order asked of values \
                that have none is an error that shows the column. Snapshots with nil sort first.

                Examples:
                  tripdoc show trips.json
                  tripdoc show trips.json --entity Trip --limit 10
                  tripdoc show trips.json --json
                  tripdoc show trips.json --entity Trip --where 'destination == "Lisbon" && startDate >= 2030-01-01'
                  tripdoc show trips.json --entity Trip --sort startDate --reverse --limit 10
                  tripdoc show trips.json --entity Trip --where 'bucketList.count > 3 || name.hasPrefix("Tok")'
                  tripdoc show trips.json --id Trip/42 --follow
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var file: String

        @Option(help: "Show only this entity.")
        var entity: String?

        @Option(parsing: .unconditional, help: "Show at most this many snapshots per entity.")
        var limit: Int?

        @Option(name: .customLong("where"), help: "Show only the snapshots of --entity that meet this condition.")
        var condition: String?

        @Option(help: "Order the snapshots of --entity by these properties (comma-separated).")
        var sort: String?

        @Flag(help: "Reverse the --sort order (largest first).")
        var reverse = false

        @Option(help: "Show only this object: Entity/key, as Trip/42.")
        var id: String?

        @Flag(help: "Also show the objects the shown ones reference (with --id or --where).")
        var follow = false

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
            if reverse, sort == nil { throw ValidationError("--reverse reverses --sort: give --sort too") }
        }

        func run() throws {
            let limits = try limitOptions.limits()
            let data = try DocumentFile.contents(of: file, limits: limits, mapped: true)
            let format = try DocumentFileReader.reading(data, path: file) { try DocumentFile.format(of: data, path: file) }
            let query = DocumentQuery(
                entityName: entity, condition: condition, sort: sort, reversed: reverse, limit: limit, identifier: id,
                follow: follow)
            let selection = try TerminalProgress.reading([file]) {
                try DocumentFileReader.reading(data, path: file) {
                    try query.select(from: data, format: format, file: file, limits: limits)
                }
            }
            if json {
                try StandardOutput.write(try SnapshotTable.jsonData(for: selection.tables, of: selection.document))
            } else {
                try StandardOutput.write(selection.tables.map(\.text).joined(separator: "\n"))
            }
        }
    }
}
