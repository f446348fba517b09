import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge two lines of work on one document, by the identity of objects.",
            discussion: """
                BASE, OURS and THEIRS are versions of one store (any formats; OURS and THEIRS both \
                made from BASE). What BASE → OURS and BASE → THEIRS changed is combined: changes to \
                different objects, or to different properties of one object, are both kept; objects \
                added on both sides are all kept, theirs getting new keys where ours holds theirs' \
                keys (references rewritten). These are conflicts: the same property changed two \
                ways (changed-on-both-sides), an object changed on one side and deleted on the other \
                (changed-and-deleted), objects added that collide on a uniqueness constraint \
                (uniqueness-collision), and a reference to an object the other side deleted \
                (reference-to-deleted). Conflicts are listed on standard output, one a line \
                ("conflict: KIND: Entity/key PROPERTY: ours …; theirs …"), or with --json as \
                {"conflicts": [{"kind", "object", "property", "ours", "theirs"}], "merged": BOOL, \
                "written": BOOL}. OUT is written only when the lines combine, or with \
                --keep-conflicts: ours keeps ours' side of every conflict (OURS with theirs' other \
                changes), theirs keeps theirs' (THEIRS with ours' other changes). The result is checked like \
                any save. Its history is OURS' history, then the transactions THEIRS saved since \
                BASE (numbered on, naming objects by the keys they have in OUT), then the merge's \
                own transaction by --author (with --keep-conflicts theirs, the other way round). OUT is written atomically, in the format --to \
                or its extension selects, else OURS'; it may be OURS only with --force (as a git \
                merge driver asks: tripdoc merge %O %A %B -o %A --force).

                Exit status: 0 when merged, 1 when there are conflicts (OUT written only with \
                --keep-conflicts), 2 on trouble (an unreadable document, three documents that are \
                not one store with one schema).

                Examples:
                  tripdoc merge base.json ours.json theirs.json -o merged.json
                  tripdoc merge base.json ours.json theirs.json -o merged.json --json
                  tripdoc merge base.plist ours.plist theirs.plist -o merged.plist --keep-conflicts ours
                """)

        @Argument(help: "The common ancestor ('-' for standard input).")
        var base: String

        @Argument(help: "Our version.")
        var ours: String

        @Argument(help: "Their version.")
        var theirs: String

        @Option(name: .shortAndLong, help: "The document to write ('-' for standard output).")
        var output: String

        @Option(help: "The format to write: \(TripDocCommand.formatNames). Defaults to the one OUT's extension selects, else OURS'.")
        var to: String?

        @Option(help: "Write OUT despite conflicts, keeping this side of each: ours or theirs.")
        var keepConflicts: String?

        @Flag(help: "Print the conflicts as JSON.")
        var json = false

        @Option(help: "The author of the merge's history transaction.")
        var author = "tripdoc-merge"

        @Flag(help: "Replace OUT if it exists (OUT may then be OURS).")
        var force = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            if let keepConflicts, DocumentMerge.Side(rawValue: keepConflicts) == nil {
                throw ValidationError("--keep-conflicts must be ours or theirs; not '\(keepConflicts)'")
            }
        }

        func run() throws {
            let progress = TerminalProgress.forStandardError()
            defer { progress?.finish() }
            let merge: DocumentMerge
            do {
                merge = try DocumentMerge.mergeFiles(
                    base: base, ours: ours, theirs: theirs, output: OutputDestination(path: output, force: force), format: to,
                    keepConflicts: keepConflicts.flatMap(DocumentMerge.Side.init(rawValue:)), author: author,
                    limits: limitOptions.limits(), progress: progress)
            } catch let error as PatchError {
                guard case .refused = error else { throw error }
                FileHandle.standardError.write(Data("tripdoc: \(error)\n".utf8))
                throw ExitCode(1)
            }
            if json {
                try StandardOutput.write(try merge.jsonData())
            } else {
                try StandardOutput.write(merge.text)
            }
            if !merge.conflicts.isEmpty { throw ExitCode(1) }
        }
    }
}
