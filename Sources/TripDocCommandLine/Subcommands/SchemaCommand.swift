import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct SchemaCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print a document's schema, or compare two schemas.",
            discussion: """
                tripdoc schema FILE prints the schema and its version of a document (any format) or \
                of a schema file; tripdoc schema diff A B lists the differences between two schemas \
                and whether a lightweight migration (tripdoc migrate) covers them.

                A schema file is a JSON object in the document coding's schema form \
                (docs/FORMATS.md 2.3 and 2.6): what tripdoc schema FILE --json prints. Edit it (add an \
                attribute, give one an originalName to rename it, raise the version) and pass it \
                to tripdoc migrate --schema.

                Examples:
                  tripdoc schema trips.json
                  tripdoc schema trips.json --json > v2.json
                  tripdoc schema diff trips.json v2.json
                  tripdoc migrate trips.json trips-v2.json --schema v2.json
                """,
            subcommands: [Print.self, Diff.self],
            defaultSubcommand: Print.self)

        struct Print: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "print",
                abstract: "Print the schema and version of a document or schema file (the default).",
                discussion: """
                    The text lists each entity with its attributes (type, ? when optional, options, \
                    default value, originalName), relationships, #Unique constraints and #Index lists. \
                    --json prints the schema in the document coding: a schema file.

                    Examples:
                      tripdoc schema trips.json
                      tripdoc schema trips.tripbundle --json > schema.json
                    """)

            @Argument(help: "The document or schema file to read ('-' for standard input).")
            var file: String

            @Flag(help: "Print the schema as JSON in the document coding (a schema file).")
            var json = false

            @OptionGroup var limitOptions: LimitOptions

            func run() throws {
                let report = try SchemaReport.read(path: file, limits: limitOptions.limits())
                if json {
                    try StandardOutput.write(report.jsonData())
                } else {
                    try StandardOutput.write(report.text)
                }
            }
        }

        struct Diff: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the differences between two schemas and whether a lightweight migration covers them.",
                discussion: """
                    A and B are documents (any format) or schema files. Entities and properties are \
                    matched by name, or through the originalName of B's. Each change is listed with \
                    whether a lightweight migration makes it: additions (optional or with a default), \
                    removals, renames through originalName, an attribute made optional (or required with a default), delete \
                    rules, indexes, external storage and uniqueness constraints are lightweight (a \
                    constraint that existing models break is refused by migrate); a type change, a \
                    new required attribute without a default, or an entity renamed without \
                    originalName needs a custom stage (migrate makes a required attribute without a \
                    default only where no model lacks its value).

                    --json prints an object with from, to, fromVersion, toVersion, lightweight, and \
                    changes (objects with entity, property (if any), change, description, lightweight).

                    Exit status: 0 when the schemas are the same (versions aside), 1 when they differ, \
                    2 on any error.

                    Examples:
                      tripdoc schema diff trips.json v2.json
                      tripdoc schema diff old.plist new.tripbundle --json
                    """)

            @Argument(help: "The first document or schema file.")
            var a: String

            @Argument(help: "The second document or schema file.")
            var b: String

            @Flag(help: "Print JSON instead of text.")
            var json = false

            @OptionGroup var limitOptions: LimitOptions

            func validate() throws {
                if a == "-", b == "-" { throw ValidationError("only one of A and B can be standard input") }
            }

            func run() throws {
                let report = try SchemaDiffReport.compare(a, b, limits: limitOptions.limits())
                if json {
                    try StandardOutput.write(try report.jsonData())
                } else {
                    try StandardOutput.write(report.text)
                }
                if !report.isEmpty { throw ExitCode(1) }
            }
        }
    }
}
