import ArgumentParser
import Foundation
import TripDoc
import TripDocKit

extension TripDocCommand {
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Migrate a document to a new schema, in any format.",
            discussion: """
                Reads IN (its format recognised from its contents), migrates it to the schema in \
                NEW (a schema file, as tripdoc schema --json prints, edited; or a document, whose \
                schema is taken) with a lightweight migration, and writes OUT in the format its \
                extension selects, or --to. Renamed entities and properties (through originalName) \
                are renamed in the snapshots and in the history; added attributes get their default \
                value (or nil when optional); removed ones go. The store identifier and the history \
                stay, so history tokens remain valid. Prints what changed.

                Only lightweight migrations: a change that needs a custom stage (a type change, an \
                entity renamed without originalName) is refused naming the entity, the property and \
                the change; so is a required attribute without a default (added, or made required) \
                when a model of the entity has no value for it, and a uniqueness constraint that \
                existing models break, naming the duplicates. tripdoc schema diff IN NEW shows the \
                changes first.

                IN is never changed; OUT is written atomically, so a failure leaves no partial file. \
                IN is read in one pass and OUT written as it goes, as tripdoc convert does. \
                --dry-run does everything but write OUT. When standard error is a terminal, a \
                progress line shows the entities and snapshots done and the rate \
                (TRIPDOC_PROGRESS=0 hides it, TRIPDOC_PROGRESS=1 shows it anywhere).

                Examples:
                  tripdoc schema trips.json --json > v2.json     (then edit v2.json)
                  tripdoc migrate trips.json trips-v2.json --schema v2.json
                  tripdoc migrate trips.json trips-v2.tripbundle --schema v2.json --dry-run
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var input: String

        @Argument(help: "The document to write ('-' for standard output).")
        var output: String

        @Option(help: "The new schema: a schema file or a document.")
        var schema: String

        @Option(help: "The format to write: \(TripDocCommand.formatNames). Defaults to the one OUT's extension selects.")
        var to: String?

        @Flag(help: "Check that IN migrates and print what would change; write nothing.")
        var dryRun = false

        @Flag(help: "Replace OUT if it exists.")
        var force = false

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let format = try DocumentFormats.forWriting(output, explicit: to)
            let destination = OutputDestination(path: output, force: force)
            if !dryRun { try destination.check(notSameAs: input) }
            let limits = try limitOptions.limits()
            let target = try SchemaSource.read(schema, limits: limits).schema
            let progress = TerminalProgress.forStandardError()
            defer { progress?.finish() }
            let migration = try CodingProgress.$observer.withValue(progress) {
                progress?.begin("migrating \(input)" + (dryRun ? "" : " to \(output)"))
                return try DocumentMigration.migrate(
                    input, to: target, writingTo: dryRun ? nil : destination, format: format, limits: limits)
            }
            progress?.finish()
            if output == "-", !dryRun {
                FileHandle.standardError.write(Data(migration.text.utf8))
            } else {
                try StandardOutput.write(migration.text)
            }
        }
    }
}
