import Foundation

/// A command's help as `--experimental-dump-help` prints it (swift-argument-parser's tool info,
/// serialization version 0): the parts a manual page shows.
struct CommandHelp: Decodable {
    /// The dump's top level: the root command.
    struct Dump: Decodable {
        var command: CommandHelp
    }

    /// One option, flag or positional argument.
    struct Argument: Decodable {
        /// One spelling of an option or flag: `-o` (`short`), `--output` (`long`).
        struct Name: Decodable {
            var kind: String
            var name: String

            /// The spelling as typed: `-o`, `--output`, `-output` for a long name with one dash.
            var spelled: String {
                switch kind {
                case "short": "-" + name
                case "longWithSingleDash": "-" + name
                default: "--" + name
                }
            }
        }

        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var discussion: String?
        var defaultValue: String?
        var isOptional: Bool
        var isRepeating: Bool
        var shouldDisplay: Bool

        /// Whether it is a positional argument (no name to type).
        var isPositional: Bool { kind == "positional" }
        /// Whether it takes a value (an option or a positional argument, not a flag).
        var takesValue: Bool { kind != "flag" }
        /// Whether it is one of the parser's own flags, which the manual lists once, for the root.
        var isBuiltIn: Bool {
            names?.contains { $0.kind == "long" && ($0.name == "help" || $0.name == "version") } ?? false
        }
    }

    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    /// The subcommand run when none is named (`tripdoc schema FILE` runs `schema print`).
    var defaultSubcommand: String?
    var arguments: [Argument]?
    var subcommands: [CommandHelp]?

    /// Reads the output of `tripdoc --experimental-dump-help`.
    static func decode(_ data: Data) throws -> CommandHelp {
        try JSONDecoder().decode(Dump.self, from: data).command
    }

    /// The subcommands a user runs (not the parser's own `help`).
    var shownSubcommands: [CommandHelp] {
        (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
    }

    /// Every command below this one, depth first (a command before its own subcommands), each
    /// with the names that lead to it from here (`["schema", "diff"]`).
    var descendants: [(path: [String], command: CommandHelp)] {
        shownSubcommands.flatMap { subcommand -> [(path: [String], command: CommandHelp)] in
            [([subcommand.commandName], subcommand)]
                + subcommand.descendants.map { ([subcommand.commandName] + $0.path, $0.command) }
        }
    }

    /// The arguments shown in help.
    var shownArguments: [Argument] { (arguments ?? []).filter(\.shouldDisplay) }

    /// Every sentence `--help` prints for this command and its subcommands: what the manual must
    /// say too. Whitespace is collapsed; literal lines (examples) are kept whole.
    var helpSentences: [String] {
        var texts: [String] = [abstract, discussion].compactMap { $0 }
        for argument in shownArguments {
            texts += [argument.abstract, argument.discussion].compactMap { $0 }
        }
        return texts.flatMap(Self.sentences(of:)) + shownSubcommands.flatMap(\.helpSentences)
    }

    /// Splits help text into sentences: literal (indented) lines whole, prose at ". ".
    static func sentences(of text: String) -> [String] {
        var result: [String] = []
        for block in HelpText(text).blocks {
            switch block {
            case .prose(let prose):
                result += prose.components(separatedBy: ". ").map { $0.trimmingCharacters(in: .whitespaces) }
            case .literal(let lines):
                result += lines.map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        return result.filter { !$0.isEmpty }
    }
}
