import ArgumentParser
import Foundation
import TripDoc
import TripDocKit

extension TripDocCommand {
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a document's history: its transactions and their changes.",
            discussion: """
                Every save is a transaction with a token (STORE:N), a time, an author and its changes \
                in order: insert, update (the changed properties, with the new values of attributes) \
                and delete (with a tombstone of the attributes marked preserveValueOnDeletion). \
                --after takes a token from an earlier listing (or just N); a token older than the \
                history kept is refused: discard it and list from the start.

                --where, with --entity, keeps only the changes to objects that meet a condition (the \
                language of show --where): an object the document holds as it is now, a deleted one \
                as its tombstone keeps it (attributes not preserved on deletion are nil); --limit \
                counts the transactions left.

                --json prints {"deletedThrough": N, "storeIdentifier": ID, "transactions": [{"author", \
                "bundleIdentifier", "changes": [{"attributes", "entity", "id", "kind", "tombstone", \
                "values"}], "id", "processIdentifier", "timestamp", "token"}]}, values in the document \
                coding of docs/FORMATS.md; absent members are omitted.

                Examples:
                  tripdoc sample -o trips.json --history
                  tripdoc history trips.json --author widget
                  tripdoc history trips.json --after 2 --entity LivingAccommodation --json
                  tripdoc history trips.json --entity Trip --where 'name.hasPrefix("Tokyo")'
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var file: String

        @Option(help: "Only transactions after this token (STORE:N, or N).")
        var after: String?

        @Option(help: "Only transactions saved by this author.")
        var author: String?

        @Option(help: "Only changes to this entity (and the transactions that have some).")
        var entity: String?

        @Option(
            name: .customLong("where"),
            help: "Only changes to objects of --entity that meet this condition (the language of show --where).")
        var condition: String?

        @Option(parsing: .unconditional, help: "At most this many transactions.")
        var limit: Int?

        @Flag(help: "Newest transactions first.")
        var newestFirst = false

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
            if condition != nil, entity == nil { throw ValidationError("--where applies to one entity: give --entity") }
        }

        func run() throws {
            let limits = try limitOptions.limits()
            let source = try TerminalProgress.reading([file]) { try DocumentFile.read(file, limits: limits) }
            let document = source.document
            try source.checkEntity(entity)
            let query = HistoryQuery(
                after: try after.map { try HistoryReport.token($0, storeIdentifier: document.storeIdentifier) },
                author: author, entityNames: entity.map { [$0] }, fetchLimit: limit, newestFirst: newestFirst)
            let report = try HistoryReport(source, query: query, condition: condition)
            if json {
                try StandardOutput.write(try report.jsonData())
            } else {
                try StandardOutput.write(report.text)
            }
        }
    }
}
