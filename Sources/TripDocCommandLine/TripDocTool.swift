import Foundation
import Synchronization
import TripDoc
import TripDocKit

/// The `tripdoc` command as a library: a package that adds a document format gets the whole
/// command (`sample`, `show`, `inspect`, `history`, `convert`, `diff`, `patch`, `merge`,
/// `schema`, `migrate`, `compact`) with its format in every subcommand, from a `main.swift` of
/// its own:
///
/// ```swift
/// import TripDocCommandLine
/// import TripDocJSONLines
///
/// TripDocTool.main(commandName: "tripdoc-jsonl", adding: [JSONLinesFormat()])
/// ```
///
/// The added formats are read whatever a file's name (recognised by their first bytes, before
/// tripdoc's own), written when `--to` names them or an output's extension selects them, and
/// listed in the help and in the messages. Options, `--json` output and exit statuses are
/// `tripdoc`'s.
public enum TripDocTool {
    /// The name the tool calls itself, set by ``main(commandName:adding:)``.
    private static let name = Mutex("tripdoc")

    /// The name the tool calls itself in its help and its messages (`tripdoc: error: …`).
    static var commandName: String { name.withLock { $0 } }

    /// Runs the command on this process's arguments, then exits: with 0 on success, 2 on any
    /// error (one message on standard error), and 1 where a subcommand's help says so (`diff`
    /// when the documents differ).
    ///
    /// - Parameters:
    ///   - commandName: The tool's name, as its help and its messages give it.
    ///   - formats: Formats to add to tripdoc's three, in every subcommand (see
    ///     `DocumentFormats.add(_:)`). A format whose name or file extension another has
    ///     already stops the tool with status 2 and a message saying so.
    public static func main(commandName: String = "tripdoc", adding formats: [any DocumentFormat] = []) -> Never {
        name.withLock { $0 = commandName }
        do {
            try DocumentFormats.add(formats)
        } catch {
            TripDocCommand.fail(error)
        }
        TripDocCommand.runAndExit()
    }
}
