import Foundation

/// Checks a manual page the way its reader meets it: rendered by groff's mdoc package with every
/// warning on, it must print no warning, and every sentence of the command's `--help` must be in
/// the rendered text (each character of it, non-ASCII ones included).
struct ManualPageCheck {
    /// A way the page fails its reader.
    enum Problem: CustomStringConvertible, Equatable {
        /// groff printed a warning (an empty input line, an unknown macro, …).
        case renderWarning(String)
        /// A sentence of `--help` is not in the rendered page.
        case missingSentence(String)

        var description: String {
            switch self {
            case .renderWarning(let line): "rendering prints a warning: \(line)"
            case .missingSentence(let sentence): "a sentence of --help is missing from the rendered page: \"\(sentence)\""
            }
        }
    }

    /// The manual page's file.
    let page: URL
    /// The help it must say.
    let help: CommandHelp

    /// Renders the page and returns what fails its reader, empty when nothing does.
    func problems() throws -> [Problem] {
        let (text, warnings) = try Self.render(page)
        var problems = warnings.map(Problem.renderWarning)
        let rendered = Self.normalized(text)
        for sentence in help.helpSentences where !rendered.contains(Self.normalized(sentence)) {
            problems.append(.missingSentence(sentence))
        }
        return problems
    }

    /// The page as `man` shows it (groff's mdoc package to UTF-8, lines as long as a paragraph,
    /// so no sentence is broken or hyphenated), and each warning groff printed.
    static func render(_ page: URL) throws -> (text: String, warnings: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["groff", "-mandoc", "-Tutf8", "-ww", "-rLL=10000n", "-P-c", "-P-b", "-P-u", page.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read standard error on another thread while this one reads standard output, so a
        // full pipe never blocks groff.
        let warningsRead = DispatchGroup()
        nonisolated(unsafe) var warnings = Data()
        DispatchQueue.global().async(group: warningsRead) {
            warnings = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let text = output.fileHandleForReading.readDataToEndOfFile()
        warningsRead.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ManualError.renderingFailed(page.path, status: process.terminationStatus,
                message: String(decoding: warnings, as: UTF8.self))
        }
        let lines = String(decoding: warnings, as: UTF8.self).split(separator: "\n").map(String.init)
        return (String(decoding: text, as: UTF8.self), lines)
    }

    /// Text with runs of whitespace as one space and the characters groff substitutes for ASCII
    /// ones (hyphens, minus signs, typographic quotes) back as ASCII.
    static func normalized(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let mapped: Unicode.Scalar
            switch scalar.value {
            case 0x2010, 0x2011, 0x2212: mapped = "-"
            case 0x2018, 0x2019: mapped = "'"
            case 0x201C, 0x201D: mapped = "\""
            default: mapped = scalar
            }
            if mapped.properties.isWhitespace {
                if !lastWasSpace { result += " " }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(mapped)
                lastWasSpace = false
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }
}
