import ArgumentParser
import Foundation

/// `tripdoc-manual`: writes and checks `man/tripdoc.1` from the tool's help
/// (`tripdoc --experimental-dump-help`), so the manual says what `--help` says.
@main
struct ManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tripdoc-manual",
        abstract: "Write or check a command's manual page from its help.",
        discussion: """
            HELP is the output of the command's --experimental-dump-help. scripts/generate-man runs \
            both subcommands on tripdoc.
            """,
        subcommands: [Write.self, Check.self])

    /// `tripdoc-manual write HELP --date DATE`: the page on standard output.
    struct Write: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the manual page in mdoc.")

        @Argument(help: "The command's --experimental-dump-help output.")
        var help: String

        @Option(help: "The page's date, YYYY-MM-DD (fixed, so the page is reproducible).")
        var date: String

        func validate() throws {
            guard Self.pageDate(date) != nil else { throw ValidationError("--date must be YYYY-MM-DD, not '\(date)'") }
        }

        func run() throws {
            let page = ManualPage(command: try ManualCommand.readHelp(help), date: Self.pageDate(date)!)
            FileHandle.standardOutput.write(Data(page.text.utf8))
        }

        /// `2026-11-24` as `.Dd` wants it: `November 24, 2026`.
        static func pageDate(_ text: String) -> String? {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"]
            guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
            return "\(months[parts[1] - 1]) \(parts[2]), \(parts[0])"
        }
    }

    /// `tripdoc-manual check PAGE HELP`: exit 1 and the problems when the page fails its reader.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render a manual page and check it prints no warning and says every sentence of --help.")

        @Argument(help: "The manual page to check.")
        var page: String

        @Argument(help: "The command's --experimental-dump-help output.")
        var help: String

        func run() throws {
            let check = ManualPageCheck(page: URL(fileURLWithPath: page), help: try ManualCommand.readHelp(help))
            let problems = try check.problems()
            guard !problems.isEmpty else { return }
            for problem in problems {
                FileHandle.standardError.write(Data("tripdoc-manual: \(page): \(problem)\n".utf8))
            }
            throw ExitCode(1)
        }
    }

    static func readHelp(_ path: String) throws -> CommandHelp {
        do {
            return try CommandHelp.decode(Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ManualError.unreadableHelp(path, underlying: error)
        }
    }
}
