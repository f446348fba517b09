import Foundation
import Testing

/// `man/tripdoc.1` says what `--help` says, and its check (`tripdoc-manual check`, run by
/// `scripts/generate-man --check`) fails on a page that a reader would find wanting.
@Suite struct ManualPageTests {
    let tripdoc: TripDocRunner
    let manual: TripDocRunner
    /// The committed manual page.
    static let committedPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("man/tripdoc.1")

    init() throws {
        tripdoc = try TripDocRunner()
        var manual = tripdoc
        manual.program = TripDocRunner.executable.deletingLastPathComponent().appendingPathComponent("tripdoc-manual")
        self.manual = manual
        let help = try tripdoc.run("--experimental-dump-help")
        try #require(help.status == 0)
        try Data(help.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("help.json"))
    }

    /// The committed page with `edit` applied, written into the test's folder as `edited.1`.
    func plantDefect(_ edit: ([String]) -> [String]) throws {
        let lines = try String(contentsOf: Self.committedPage, encoding: .utf8).components(separatedBy: "\n")
        try Data(edit(lines).joined(separator: "\n").utf8).write(to: tripdoc.folder.appendingPathComponent("edited.1"))
    }

    @Test func theCommittedPageIsWhatTheHelpWrites() throws {
        let written = try manual.run("write", "help.json", "--date", "2026-11-24")
        #expect(written.status == 0)
        let committed = try String(contentsOf: Self.committedPage, encoding: .utf8)
        #expect(written.stdout == committed)
        #expect(try manual.run("check", Self.committedPage.path, "help.json") == .init(status: 0, stdout: "", stderr: ""))
    }

    @Test func keepsEveryCharacterOfTheHelp() throws {
        let page = try String(contentsOf: Self.committedPage, encoding: .utf8)
        // "old → new" and "1, 2, 3, … per entity" in convert's help; the page itself is ASCII.
        #expect(page.contains("old \\[u2192] new"))
        #expect(page.contains("3, \\[u2026] per entity"))
        let isASCII = page.unicodeScalars.allSatisfy(\.isASCII)
        #expect(isASCII)
        #expect(!page.contains("\n\n"))
        #expect(page.contains(".Sh \"EXIT STATUS\"\nExit status: 0 on success, 2 on any error"))
        #expect(page.contains("How many trips to generate (0 to 10000000). (default: 3)"))
    }

    @Test func anEmptyInputLineFailsTheCheck() throws {
        try plantDefect { lines in Array(lines[..<12]) + [""] + Array(lines[12...]) }
        let outcome = try manual.run("check", "edited.1", "help.json")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("edited.1: rendering prints a warning: mdoc warning: Empty input line #13"))
    }

    @Test func aSentenceMissingFromThePageFailsTheCheck() throws {
        try plantDefect { lines in lines.filter { !$0.hasPrefix("Write the old") } }
        let outcome = try manual.run("check", "edited.1", "help.json")
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "tripdoc-manual: edited.1: a sentence of --help is missing from the rendered page: \"Write the old → new identifier mapping to this JSON file.\"\n")
    }

    @Test func aCharacterLostFromThePageFailsTheCheck() throws {
        // What swift-argument-parser's own generator did: non-ASCII characters dropped.
        try plantDefect { lines in lines.map { $0.replacingOccurrences(of: "\\[u2192]", with: "") } }
        let outcome = try manual.run("check", "edited.1", "help.json")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\"To-one relationships show as →KEY, to-many as [KEY,KEY]\""))
    }
}
