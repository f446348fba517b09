import ArgumentParser
import Foundation
import TripDoc
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
                primary key; with --map by the table convert --remap-table wrote; in two stores of one \
                lineage (one converted from the other, or both from one store, as their headers' \
                derivedFrom say; convert keeps keys) by primary key; for an entity with a \
                uniqueness constraint by its values (Trip: name, startDate, endDate); otherwise by \
                content (attribute values and to-one references). A "lineage:" line says how two \
                stores of one lineage are related. Reports schema differences, then per \
                entity the objects only in A (-), only in B (+) and changed (~, attribute: old → new; \
                composite and Codable values field by field, as home.city or stops[0].name). \
                Relationship changes are told once, on the to-one side of an inverse pair, with \
                references as B's identifiers. Colour when standard output is a terminal (not when \
                NO_COLOR is set).

                --json prints {"a": {"derivedFrom", "file", "storeIdentifier"}, "b": {…}, "entities": {ENTITY: \
                {"added": [SNAPSHOT], "changed": [{"a": KEY, "b": KEY, "attributes": {NAME or NAME.FIELD: {"old", \
                "new"}}, "relationships": {NAME: {"old", "new"}}}], "match": STRATEGY, "removed": \
                [SNAPSHOT]}}, "history": {"onlyInA": [TOKEN], "onlyInB": [TOKEN]} (with --history), \
                "identical": BOOL, "lineage": STORE or null (the store both derive from, when A and B \
                are two stores of one lineage), "schema": [TEXT], "summary": {"added", "changed", \
                "removed"}}; derivedFrom is the side's header's (a token, or null). With \
                --history, transactions only one side has (by identifier, time, author and changes) \
                are listed as "- history TOKEN" and "+ history TOKEN" and make the documents differ. Snapshots and values are in the document coding of docs/FORMATS.md; \
                references are "Entity/key" in B, "a:Entity/key" for a target only in A; nil is "". \
                An added or removed object is shown as its own document holds it: a removed \
                object's references are A's identifiers.

                --where, with --entity, compares only the objects that meet a condition (the \
                language of show --where) in A or in B: an object added in B that meets it, one \
                removed from A that met it, one changed that meets it before or after.

                --patch prints, instead of the differences, a patch that tripdoc patch applies to A \
                to give B (docs/FORMATS.md §10): per entity the objects added, removed (with their \
                values) and changed (old and new value per property), with both documents' store \
                identifiers and schema versions; it covers whole documents with the same schema.

                Exit status: 0 when the documents have the same content, 1 when they differ, 2 on \
                trouble (as diff(1)).

                Examples:
                  tripdoc diff trips.json trips.plist
                  tripdoc diff old.json new.json --entity Trip --ignore details
                  tripdoc diff a.json b.tripbundle --map map.json --json
                  tripdoc diff old.json new.json --entity Trip --where 'destination == "Tokyo"'
                  tripdoc diff old.json new.json --patch > change.patch
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

        @Option(
            name: .customLong("where"),
            help: "Compare only the objects of --entity that meet this condition on either side (the language of show --where).")
        var condition: String?

        @Flag(help: "Also compare history: list the transactions only one side has.")
        var history = false

        @Flag(help: "Print a patch that tripdoc patch applies to A to give B.")
        var patch = false

        @Flag(name: .shortAndLong, help: "Print nothing; only the exit status tells.")
        var quiet = false

        @OptionGroup var limitOptions: LimitOptions

        func validate() throws {
            guard DocumentDiff.MatchStrategy(rawValue: match) != nil else {
                throw ValidationError("--match must be one of auto, key, unique, map, content; not '\(match)'")
            }
            if a == "-", b == "-" { throw ValidationError("only one of A and B can be standard input") }
            if condition != nil, entity == nil { throw ValidationError("--where applies to one entity: give --entity") }
            if patch, json || entity != nil || !ignore.isEmpty || history || quiet {
                throw ValidationError("--patch covers whole documents: leave out --json, --entity, --ignore, --where, --history and --quiet")
            }
        }

        func run() throws {
            let limits = try limitOptions.limits()
            let strategy = DocumentDiff.MatchStrategy(rawValue: match)!
            // Compared as they are read: once each when objects are matched by key, twice each
            // when by their values or a table, or for --where.
            let diff = try TerminalProgress.reading([a, b]) {
                let table: RemapTable?
                do {
                    table = try map.map { try RemapTable.read(from: $0) }
                } catch {
                    // The documents' reading errors come first, as when they were read first.
                    _ = try DocumentFile.readRecordsOfBoth(a, b, limits: limits)
                    throw error
                }
                return try DocumentDiff(
                    files: a, b, match: strategy, remapTable: table, entity: entity, ignoring: Set(ignore),
                    history: history, condition: condition, limits: limits)
            }
            if !quiet {
                if patch {
                    let patch = try DocumentPatch(diff, schemaVersionA: diff.a.schema.version, schemaVersionB: diff.b.schema.version)
                    try StandardOutput.write(try patch.jsonData())
                } else if json {
                    try StandardOutput.write(
                        try diff.jsonData(schemaA: diff.a.schema, schemaB: diff.b.schema))
                } else {
                    let colour = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
                    try StandardOutput.write(diff.text(colour: colour))
                }
            }
            // What was read is left to the process's end: releasing millions of differences one
            // by one takes longer than the exit that reclaims their memory at once.
            withExtendedLifetime(diff) { Foundation.exit(diff.isIdentical ? 0 : 1) }
        }
    }
}
