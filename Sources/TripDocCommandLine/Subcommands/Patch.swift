import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct Patch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a patch written by diff --patch to a document.",
            discussion: """
                Reads DOC (any format) and PATCH (written by tripdoc diff A B --patch, specified in \
                docs/FORMATS.md §10) and writes OUT, in the format --to or OUT's extension selects, \
                else in DOC's. DOC must be the patch's A (its store and schema version), or with \
                --reverse its B, which the patch then turns back into A. Every change is checked \
                against the old value it expects: the first that does not hold (a property with \
                another value, an object removed or added already, an added object that collides \
                on a uniqueness constraint) is an error naming the object and property, and nothing \
                is written, unless --partial applies the rest and lists what was skipped on \
                standard error. The result is checked like any save (integrity, uniqueness, delete \
                rules) and recorded as one history transaction by --author. Objects added keep their \
                keys when the patch is between versions of one store; otherwise they get new keys \
                in DOC's store. A DOC with integrity problems (see tripdoc inspect) is refused. DOC and \
                PATCH are never changed; OUT is written atomically.

                Exit status: 0 when the patch applied, 1 when it does not apply (nothing written; \
                with --partial, OUT written and the skipped changes listed), 2 on trouble (a \
                malformed patch, a patch for another store or schema version, an unreadable \
                document or one with integrity problems).

                Examples:
                  tripdoc diff old.json new.json --patch > change.patch
                  tripdoc patch old.json change.patch -o patched.json
                  tripdoc diff a.json b.plist --patch | tripdoc patch a.json - -o b2.tripbundle
                  tripdoc patch new.json change.patch -o old-again.json --reverse
                  tripdoc patch edited.json change.patch -o out.json --partial --author nightly
                """)

        @Argument(help: "The document to patch ('-' for standard input).")
        var document: String

        @Argument(help: "The patch ('-' for standard input).")
        var patch: String

        @Option(name: .shortAndLong, help: "The document to write ('-' for standard output).")
        var output: String

        @Option(help: "The format to write: \(TripDocCommand.formatNames). Defaults to the one OUT's extension selects, else DOC's.")
        var to: String?

        @Flag(help: "Apply the patch backwards: DOC is its B, and OUT its A.")
        var reverse = false

        @Flag(help: "Apply the changes that hold and list the others, instead of writing nothing.")
        var partial = false

        @Option(help: "The author of the history transaction.")
        var author = "tripdoc-patch"

        @Flag(help: "Replace OUT if it exists.")
        var force = false

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let progress = TerminalProgress.forStandardError()
            defer { progress?.finish() }
            let outcome: DocumentPatch.ApplyOutcome
            do {
                outcome = try DocumentPatch.applyFile(
                    patch, to: document, output: OutputDestination(path: output, force: force), format: to,
                    options: .init(reverse: reverse, partial: partial, author: author), limits: limitOptions.limits(),
                    progress: progress)
            } catch let error as PatchError {
                switch error {
                case .stale, .refused:
                    FileHandle.standardError.write(Data("tripdoc: \(error)\n".utf8))
                    throw ExitCode(1)
                default: throw error
                }
            }
            for conflict in outcome.skipped {
                FileHandle.standardError.write(Data("tripdoc: skipped: \(conflict)\n".utf8))
            }
            if !outcome.skipped.isEmpty { throw ExitCode(1) }
        }
    }
}
