import ArgumentParser
import CJemalloc
import Foundation
import TripDoc
import TripDocKit

/// `tripdoc`: SwiftData-style documents on the command line.
@main
struct TripDocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tripdoc",
        abstract: "Create, read, check, convert and migrate tripdoc documents.",
        discussion: """
            A tripdoc document holds a schema, snapshots of models and their history, in one of \
            these formats: JSON (.json), XML property list (.plist) and zipped bundle (.tripbundle). The format of a document being read is recognised from \
            its contents, whatever its name.

            Exit status: 0 on success, 2 on any error (the message on standard error names the \
            file, the place in it and what was expected); diff exits with 1 when the documents differ, \
            schema diff when the schemas do, inspect --check when the document has integrity problems, \
            patch when the patch does not apply and merge when there are conflicts.

            Examples:
              tripdoc sample -o trips.json --trips 100
              tripdoc show trips.json --entity Trip --limit 5
              tripdoc inspect trips.json --json
              tripdoc convert trips.json copy.json
              tripdoc diff trips.json copy.plist
              tripdoc schema diff trips.json v2.json
              tripdoc migrate trips.json trips-v2.json --schema v2.json
              tripdoc diff old.json new.json --patch | tripdoc patch old.json - -o new-copy.json
              tripdoc merge base.json ours.json theirs.json -o merged.json
            """,
        version: TripDocVersion.string,
        subcommands: [
            Sample.self, Show.self, Inspect.self, History.self, Convert.self, Diff.self, Patch.self, Merge.self,
            SchemaCommand.self, Migrate.self,
        ]
    )

    /// Runs the command; every failure prints one message on standard error and exits with 2
    /// (usage errors included), `--help` and `--version` exit with 0.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            FileHandle.standardError.write(Data("tripdoc: error: \(message)\n".utf8))
            Foundation.exit(2)
        }
    }
}
