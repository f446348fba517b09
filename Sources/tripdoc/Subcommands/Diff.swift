import ArgumentParser
import Foundation
import TripDocKit

#if canImport(Glibc)
    import Glibc
#endif

extension TripDocCommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two documents by the identity of their objects.",
            discussion: """
                A and B may be in any formats. Objects are matched per entity: in the same store by \
                primary key; with --map by the table convert --remap-table wrote; for an entity with a \
                uniqueness constraint by its values (Trip: name, startDate, endDate); otherwise by \
                content (attribute values and to-one references). Reports schema differences, then per \
                entity the objects only in A (-), only in B (+) and changed (~, attribute: old → new). \
                Relationship changes are told once, on the to-one side of an inverse pair, with \
                references as B's identifiers. Colour when standard output is a terminal (not when \
                NO_COLOR is set).

                --json prints {"a": {"file", "storeIdentifier"}, "b": {…}, "entities": {ENTITY: \
                {"added": [SNAPSHOT], "changed": [{"a": KEY, "b": KEY, "attributes": {NAME: {"old", \
                "new"}}, "relationships": {NAME: {"old", "new"}}}], "match": STRATEGY, "removed": \
                [SNAPSHOT]}}, "history": {"onlyInA": [TOKEN], "onlyInB": [TOKEN]} (with --history), \
                "identical": BOOL, "schema": [TEXT], "summary": {"added", "changed", "removed"}}. With \
                --history, transactions only one side has (by identifier, time, author and changes) \
                are listed as "- history TOKEN" and "+ history TOKEN" and make the documents differ. Snapshots and values are in the document coding of docs/FORMATS.md; \
                references are "Entity/key" in B, "a:Entity/key" for a target only in A; nil is "".

                Exit status: 0 when the documents have the same content, 1 when they differ, 2 on \
                trouble (as diff(1)).

                Examples:
                  tripdoc diff trips.json trips.plist
                  tripdoc diff old.json new.json --entity Trip --ignore details
                  tripdoc diff a.json b.tripbundle --map map.json --json
                """)

        @Argument(help: "The first document ('-' for standard input).")
        var a: String

        @Argument(help: "The second document.")
        var b: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Option(help: "How to match objects: auto, key, unique, map or content.")
        var match: String = "auto"

        @Option(help: "A remap table written by convert --remap-table for A → B.")
        var map: String?

        @Option(help: "Compare only this entity.")
        var entity: String?

        @Option(
            parsing: .upToNextOption,
            help: "Leave out these properties (NAME or Entity.NAME).")
        var ignore: [String] = []

        @Flag(help: "Also compare history: list the transactions only one side has.")
        var history = false

        @Flag(name: .shortAndLong, help: "Print nothing; only the exit status tells.")
        var quiet = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            guard DocumentDiff.MatchStrategy(rawValue: match) != nil else {
                throw ValidationError("--match must be one of auto, key, unique, map, content; not '\(match)'")
            }
            if a == "-", b == "-" { throw ValidationError("only one of A and B can be standard input") }
        }

        func run() throws {
            let (first, second) = try DocumentFile.readRecordsOfBoth(a, b, limits: limitOptions.limits())
            let table = try map.map { try RemapTable.read(from: $0) }
            let diff = try DocumentDiff(
                first, at: a, second, at: b, match: DocumentDiff.MatchStrategy(rawValue: match)!, remapTable: table, entity: entity,
                ignoring: Set(ignore), history: history)
            if !quiet {
                if json {
                    try StandardOutput.write(
                        try diff.jsonData(schemaA: first.schema, schemaB: second.schema))
                } else {
                    let colour = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
                    try StandardOutput.write(diff.text(colour: colour))
                }
            }
            // The documents are left to the process's end: releasing millions of snapshots one by
            // one takes longer than the exit that reclaims their memory at once.
            withExtendedLifetime((first, second, diff)) { Foundation.exit(diff.isIdentical ? 0 : 1) }
        }
    }
}
