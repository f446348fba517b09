import Foundation
import Testing

/// Every command reads a journaled document (saves appended to NAME.journal beside it) as its
/// saves left it, and `tripdoc compact` folds the journal into the document.
@Suite struct JournalCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// A counter document whose creation and 25 increments are in its journal.
    func journaledCounter(_ file: String) throws {
        for arguments in [["init", file], ["increment", file, "25"]] {
            let process = Process()
            process.executableURL = CrashSafetyTests.writer
            process.arguments = arguments
            process.currentDirectoryURL = tripdoc.folder
            process.environment = ProcessInfo.processInfo.environment.merging(["TRIPDOC_STRESS_JOURNAL": "1"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(FileManager.default.fileExists(atPath: tripdoc.folder.appendingPathComponent(file + ".journal").path))
    }

    func counter(_ shown: String) throws -> Int? {
        let object = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        return ((object?["snapshots"] as? [String: [[String: Any]]])?["Counter"]?.first)?["value"] as? Int
    }

    @Test(arguments: ["journaled-counter.json", "journaled-counter.plist", "journaled-counter.tripbundle"])
    func everyCommandReadsTheJournalAndCompactFoldsIt(file: String) throws {
        try journaledCounter(file)
        #expect(try counter(tripdoc.run("show", file, "--json").stdout) == 25)
        let inspected = try tripdoc.run("inspect", file, "--json").stdout
        #expect(inspected.contains(#""historyTransactions" : 26"#))
        #expect(try tripdoc.run("history", file).stdout.contains("value = 25"))
        #expect(try tripdoc.run("convert", file, "copy.json").status == 0)
        #expect(try counter(tripdoc.run("show", "copy.json", "--json").stdout) == 25)
        #expect(try tripdoc.run("diff", file, "copy.json").status == 0)

        let compacted = try tripdoc.run("compact", file)
        #expect(compacted.status == 0)
        #expect(compacted.stdout.contains("folded 26 saves"), "\(compacted.stdout)")
        #expect(!FileManager.default.fileExists(atPath: tripdoc.folder.appendingPathComponent(file + ".journal").path))
        #expect(try counter(tripdoc.run("show", file, "--json").stdout) == 25)
        #expect(try tripdoc.run("compact", file).stdout.contains("no saves in a journal"))
    }

    @Test func compactOfAMissingFileOrOfOneThatIsNoDocumentIsAnError() throws {
        try Data("just some notes\n".utf8).write(to: tripdoc.folder.appendingPathComponent("notes.txt"))
        for file in ["missing.json", "notes.txt"] {
            let outcome = try tripdoc.run("compact", file)
            #expect(outcome.status == 2, "\(file)")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: ") && outcome.stderr.contains(file), "\(file): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test func aDamagedJournalIsAnErrorNamingItsLineAndNothingIsWritten() throws {
        try journaledCounter("damaged.json")
        let journal = tripdoc.folder.appendingPathComponent("damaged.json.journal")
        var lines = String(decoding: try Data(contentsOf: journal), as: UTF8.self).split(separator: "\n").map(String.init)
        lines[3] = "{\"transaction\": not a record"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: journal)
        let before = try Data(contentsOf: tripdoc.folder.appendingPathComponent("damaged.json"))
        for arguments in [["show", "damaged.json"], ["convert", "damaged.json", "out.json"], ["compact", "damaged.json"]] {
            let outcome = try tripdoc.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains("damaged.json.journal, line 4"), "\(arguments): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: tripdoc.folder.appendingPathComponent("out.json").path))
        #expect(try Data(contentsOf: tripdoc.folder.appendingPathComponent("damaged.json")) == before)
    }
}
