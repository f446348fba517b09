import Foundation
import Testing

/// A command's output files: all of them or none, never one in place of another, and never
/// one that replaces a file another command made meanwhile without `--force`.
@Suite struct OutputFileTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// The folder's files, hidden ones included, sorted.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: tripdoc.folder.path).sorted()
    }

    @Test(arguments: [
        ["convert", "trips.json", "out.json", "--remap-table", "out.json"],
        ["convert", "trips.json", "out.json", "--remap-table", "./out.json"],
        ["convert", "trips.json", "out.json", "--remap-table", "out.json", "--force"],
        ["convert", "trips.json", "out.json", "--remap-table", "out.json", "--renumber"],
    ])
    func aRemapTableNamingTheOutputIsRefusedBeforeAnythingIsWritten(arguments: [String]) throws {
        let before = try files()
        let outcome = try tripdoc.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "tripdoc: error: --remap-table names \(arguments[4]), where the document goes too; write them to different files\n")
        #expect(try files() == before)
    }

    @Test func aRemapTableOnStandardOutputWithTheDocumentIsRefused() throws {
        let outcome = try tripdoc.run("convert", "trips.json", "-", "--to", "json", "--remap-table", "-")
        #expect(
            outcome == .init(
                status: 2, stdout: "",
                stderr: "tripdoc: error: --remap-table names standard output, where the document goes too; write them to different files\n"))
    }

    @Test func aRemapTableNamingTheInputIsRefusedAndTheInputKept() throws {
        let input = try tripdoc.contents("trips.json")
        let outcome = try tripdoc.run("convert", "trips.json", "out.json", "--remap-table", "trips.json", "--force")
        #expect(outcome.status == 2)
        #expect(outcome.stderr == "tripdoc: error: the output trips.json is the input; write to another file\n")
        #expect(try tripdoc.contents("trips.json") == input)
        #expect(!tripdoc.exists("out.json"))
    }

    @Test(arguments: [false, true])
    func aRemapTableThatCannotBeWrittenLeavesNoDocument(renumber: Bool) throws {
        let before = try files()
        let outcome = try tripdoc.run(
            ["convert", "trips.json", "out.json", "--remap-table", "missing/map.json"] + (renumber ? ["--renumber"] : []))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: could not save missing/map.json: creating the temporary file failed"))
        #expect(try files() == before)
    }

    @Test func aRemapTableThatFailsToTakeItsPlaceTakesTheNewDocumentBack() throws {
        // A folder where the table should go: its temporary file is written, the rename fails.
        try FileManager.default.createDirectory(at: tripdoc.folder.appendingPathComponent("map.json"), withIntermediateDirectories: false)
        let before = try files()
        let outcome = try tripdoc.run("convert", "trips.json", "out.json", "--remap-table", "map.json", "--force")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: could not save map.json: renaming the temporary file over the document failed"))
        #expect(try files() == before)
    }

    @Test func twoConversionsToOneNewOutputNeverBothSucceed() throws {
        for round in 0..<8 {
            let output = "race-\(round).json"
            let processes = try (0..<2).map { _ in
                let process = Process()
                process.executableURL = tripdoc.program
                process.arguments = ["convert", "story.json", output]
                process.currentDirectoryURL = tripdoc.folder
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            processes.forEach { $0.waitUntilExit() }
            let statuses = processes.map(\.terminationStatus).sorted()
            #expect(statuses == [0, 2], "round \(round)")
            #expect(try tripdoc.run("inspect", output).status == 0)
        }
        #expect(try files().allSatisfy { !$0.contains(".tripdoc-tmp-") })
    }
}

/// An input that shrinks while it is read (a log rotated, a file rewritten in place) ends the
/// command with a message and exit status 2, never a crash; nothing is written.
@Suite struct ShrinkingInputCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    @Test(arguments: [["convert", "big.json", "out.json"], ["inspect", "big.json"], ["show", "big.json", "--json"]])
    func anInputCutWhileItIsReadIsReported(arguments: [String]) throws {
        #expect(try tripdoc.run("sample", "-o", "big.json", "--trips", "30000").status == 0)
        let process = Process()
        process.executableURL = tripdoc.program
        process.arguments = arguments
        process.currentDirectoryURL = tripdoc.folder
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 0.15)
        #expect(truncate(tripdoc.path("big.json"), 100_000) == 0)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Whether the command finished before the cut depends on the machine; a crash never.
        #expect(process.terminationReason == .exit)
        if process.terminationStatus != 0 {
            #expect(process.terminationStatus == 2)
            #expect(message == "tripdoc: error: cannot read big.json: the file shrank while it was being read (another program rewrote or truncated it); nothing was written: read it again once it is no longer being changed\n")
            #expect(!tripdoc.exists("out.json"))
        }
    }
}
