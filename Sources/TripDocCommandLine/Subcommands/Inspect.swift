import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a document and check its integrity.",
            discussion: """
                Prints the format, store identifier, schema, snapshot counts, the entries of a \
                bundle (name, size, compressed size, ratio, CRC and manifest digest, all verified) \
                and every integrity problem (the document is read one snapshot at a time, so \
                memory holds the check's tables, not the document): duplicate identifiers, dangling references, relationships whose inverse \
                disagrees, values that do not fit the schema, uniqueness violations. Problems are \
                reported, not errors: the exit status is 0 when the document could be read, \
                unless --check asks for 1 when it has problems (for scripts and CI jobs that gate \
                on a document).

                --json prints an object with at least: file, size, format, formatVersion, \
                storeIdentifier, derivedFrom (where convert copied it from, STORE:N; absent \
                otherwise), schemaVersion, generator, entities, counts (entity name to \
                number of snapshots), snapshots, historyTransactions, historyTokenSpan ({"first", \
                "last"} or absent), historyDeletedThrough, problems (objects with kind, \
                identifier, property, message), and for a bundle entries (objects with name, \
                size, compressedSize, ratio, crc, digest).

                Examples:
                  tripdoc inspect trips.json
                  tripdoc inspect trips.json --json
                  tripdoc inspect trips.json --check --json
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var file: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Flag(help: "Exit with 1 when the document has integrity problems (the report is printed all the same).")
        var check = false

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let limits = try limitOptions.limits()
            let report = try TerminalProgress.reading([file]) { try InspectionReport.inspect(path: file, limits: limits) }
            if json {
                try StandardOutput.write(try report.jsonData())
            } else {
                try StandardOutput.write(report.text)
            }
            if check, !report.problems.isEmpty { throw ExitCode(1) }
        }
    }
}
