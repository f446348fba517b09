import ArgumentParser
import Foundation
import TripDoc
import TripDocKit

/// `tripdoc`: SwiftData-style documents on the command line, run by ``TripDocTool``.
struct TripDocCommand: ParsableCommand {
    // Made when the command is parsed, after `TripDocTool.main` named the tool and added its formats.
    static let configuration = CommandConfiguration(
        commandName: TripDocTool.commandName,
        abstract: "Create, read, check, convert and migrate tripdoc documents.",
        discussion: """
            A tripdoc document holds a schema, snapshots of models and their history, in one of \
            these formats: \(Self.formatList). The format of a document being read is recognised from \
            its contents, whatever its name.

            Long commands show a progress line on standard error when it is a terminal: inspect, \
            show, history and diff the bytes read of their inputs' size, the rate and the time \
            left; convert and migrate the snapshots done; patch and merge their phases \
            (TRIPDOC_PROGRESS=0 hides it, TRIPDOC_PROGRESS=1 shows it anywhere).

            Exit status: 0 on success, 2 on any error (the message on standard error names the \
            file, the place in it and what was expected; standard output that cannot be written is \
            one); diff exits with 1 when the documents differ, schema diff when the schemas do, \
            inspect --check when the document has integrity problems, patch when the patch does not \
            apply and merge when there are conflicts. A closed pipe on standard output \
            (tripdoc show big.json | head -1) ends the command quietly, by SIGPIPE, as it ends cat.

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
              tripdoc compact trips.json
            """,
        version: TripDocVersion.string,
        subcommands: [
            Sample.self, Show.self, Inspect.self, History.self, Convert.self, Diff.self, Patch.self, Merge.self,
            SchemaCommand.self, Migrate.self, Compact.self,
        ]
    )

    /// The formats, for the help: tripdoc's own with their extensions, then the added ones by
    /// name with theirs (`jsonl (.jsonl)`).
    private static var formatList: String {
        let formats =
            ["JSON (.json)", "XML property list (.plist)", "zipped bundle (.tripbundle)"]
            + DocumentFormats.added.map { format in
                format.fileExtensions.isEmpty
                    ? format.name : format.name + " (" + format.fileExtensions.map { "." + $0 }.joined(separator: ", ") + ")"
            }
        return formats.dropLast().joined(separator: ", ") + " and " + formats.last!
    }

    /// The names `--to` takes, for the help: `json, plist or bundle`.
    static var formatNames: String {
        let names = DocumentFormats.names
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The extensions that choose a format to write, for the help: `.json, .plist, .tripbundle`.
    static var formatExtensions: String {
        DocumentFormats.all.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: ", ")
    }

    /// Runs the command; every failure prints one message on standard error and exits with 2
    /// (usage errors included), `--help` and `--version` exit with 0. Standard output that
    /// cannot be written is such a failure (`> /dev/full`); a closed pipe (`| head -1`) ends the
    /// tool quietly, as it ends `cat`: by `SIGPIPE`, once the output is known to be lost.
    static func runAndExit() -> Never {
        StandardOutput.ignoreBrokenPipeSignal()
        AtomicFileWriter.removeTemporaryFilesOnInterruption()
        var status: Int32 = 0
        do {
            var command = try parseAsRoot()
            do {
                try command.run()
            } catch let error as ExitCode {
                status = error.rawValue
            }
        } catch {
            fail(error)
        }
        Foundation.exit(status)
    }

    /// Reports `error` and exits: with 0 for `--help` and `--version`, quietly by `SIGPIPE` for a
    /// closed pipe on standard output, with 2 and a message for everything else.
    static func fail(_ error: Error) -> Never {
        if let error = error as? StandardOutputError, error.isClosedPipe {
            _ = signal(SIGPIPE, SIG_DFL)
            _ = raise(SIGPIPE)
        }
        let code = exitCode(for: error)
        if code == .success {
            do {
                try StandardOutput.write(fullMessage(for: error) + "\n")
            } catch {
                fail(error)
            }
            Foundation.exit(0)
        }
        var message = fullMessage(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        StandardOutput.writeToStandardError("\(TripDocTool.commandName): error: \(message)\n")
        Foundation.exit(2)
    }
}
