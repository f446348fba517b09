/// Writes mdoc source line by line, escaping text as mandoc's and groff's manuals ask: `\e` for
/// a backslash, `\&` before a line's leading dot or apostrophe, `\(dq` for a quote inside a
/// quoted macro argument, and every non-ASCII character as `\[uXXXX]`. It never writes an empty
/// input line (mdoc warns about each one): paragraphs are separated by `.Pp`.
struct MDocWriter {
    /// A word on a macro line: text to escape and quote as needed, or mdoc written as is.
    enum Word: ExpressibleByStringLiteral {
        case text(String)
        case raw(String)

        init(stringLiteral value: String) { self = .text(value) }

        /// The word as it goes on the macro line.
        var mdoc: String {
            switch self {
            case .raw(let mdoc): mdoc
            case .text(let text): MDocWriter.escapedArgument(text)
            }
        }
    }

    /// The source written so far.
    private(set) var output = ""
    /// Whether the last thing written ends a paragraph's text, so the next one needs a `.Pp`.
    private var afterText = false

    /// A comment line.
    mutating func comment(_ text: String) {
        output += ".\\\" " + Self.escapedCharacters(text) + "\n"
    }

    /// A macro line whose arguments are all text.
    mutating func macro(_ name: String, _ arguments: String...) {
        line(macro: name, arguments.map(Word.text))
    }

    /// A macro line.
    mutating func line(macro name: String, _ words: [Word]) {
        output += "." + ([name] + words.map(\.mdoc)).joined(separator: " ") + "\n"
        afterText = false
    }

    /// One paragraph of prose.
    mutating func paragraph(_ prose: String) {
        guard !prose.isEmpty else { return }
        text(prose)
    }

    /// Help text: its paragraphs as prose, its indented lines as literal displays.
    mutating func text(_ helpText: String) {
        for block in HelpText(helpText).blocks {
            if afterText { output += ".Pp\n" }
            switch block {
            case .prose(let prose):
                output += Self.escapedTextLine(prose) + "\n"
            case .literal(let lines):
                output += ".Bd -literal -offset indent\n"
                for line in lines { output += Self.escapedTextLine(line) + "\n" }
                output += ".Ed\n"
            }
            afterText = true
        }
    }

    /// A subcommand's usage: `tripdoc convert [--to to] in out`, one macro line per argument;
    /// `path` is the command names from the root (`tripdoc schema diff`).
    mutating func synopsis(of command: CommandHelp, path: [String]) {
        line(macro: "Nm", [.text(path[0])])
        line(macro: "Cm", path.dropFirst().map(Word.text))
        for argument in command.shownArguments where !argument.isBuiltIn {
            var usage: [Word] = []
            if let name = argument.names?.first(where: { $0.kind == "long" }) ?? argument.names?.first {
                usage += [.raw("Fl"), .raw(Self.flagArgument(name))]
            }
            if argument.takesValue { usage += [.raw("Ar"), .text(argument.valueName ?? "value")] }
            if argument.isRepeating { usage.append(.raw("...")) }
            if argument.isOptional {
                line(macro: "Op", usage)
            } else {
                line(macro: usage[0].mdoc, Array(usage.dropFirst()))
            }
        }
        afterText = true
    }

    /// Arguments as a tagged list: their spellings, value and help, with the default value.
    mutating func options(_ arguments: [CommandHelp.Argument]) {
        guard !arguments.isEmpty else { return }
        if afterText { output += ".Pp\n" }
        line(macro: "Bl", [.raw("-tag"), .raw("-width"), .raw("Ds")])
        for argument in arguments {
            var tag: [Word] = []
            for (index, name) in (argument.names ?? []).enumerated() {
                if index > 0 { tag.append(.raw(",")) }
                tag += [.raw("Fl"), .raw(Self.flagArgument(name))]
            }
            if argument.takesValue { tag += [.raw("Ar"), .text(argument.valueName ?? "value")] }
            line(macro: "It", tag)
            var help = argument.abstract ?? ""
            if let value = argument.defaultValue, !value.isEmpty { help += " (default: \(value))" }
            if !help.isEmpty { output += Self.escapedTextLine(help) + "\n" }
            if let discussion = argument.discussion, !discussion.isEmpty {
                afterText = !help.isEmpty
                text(discussion)
            }
        }
        line(macro: "El", [])
        afterText = true
    }

    /// `Fl`'s argument for a name: `Fl` writes one dash itself.
    private static func flagArgument(_ name: CommandHelp.Argument.Name) -> String {
        String(name.spelled.dropFirst()).replacingOccurrences(of: "-", with: "\\-")
    }

    /// A text line: backslashes escaped, a leading dot, apostrophe or blank protected.
    static func escapedTextLine(_ text: String) -> String {
        let escaped = escapedCharacters(text)
        if let first = escaped.first, first == "." || first == "'" || first == " " { return "\\&" + escaped }
        return escaped
    }

    /// A macro argument, quoted when it holds a blank (and its quotes escaped), and guarded with
    /// `\&` when it could be read as a macro name (a capitalised two- or three-letter word).
    static func escapedArgument(_ text: String) -> String {
        let escaped = escapedCharacters(text).replacingOccurrences(of: "\"", with: "\\(dq")
        if escaped.isEmpty || escaped.contains(" ") { return "\"" + escaped + "\"" }
        if escaped.count <= 3, escaped.first?.isUppercase == true { return "\\&" + escaped }
        return escaped
    }

    /// Backslashes as `\e`, non-ASCII characters as `\[uXXXX]`, other characters as they are.
    static func escapedCharacters(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped
    }
}
