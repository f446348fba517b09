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

    /// What an output path may name: a regular file (with `--force`), a link to one, a stream
    /// (StreamPathTests), or nothing; everything else is refused with and without `--force`, and
    /// left as it was.
    @Test(arguments: ["dangling", "loop", "folder"], [false, true])
    func anOutputThatIsNotAFileOrALinkToOneIsRefused(kind: String, force: Bool) throws {
        let path = tripdoc.path("out.json")
        let expected: String
        switch kind {
        case "dangling":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: tripdoc.path("elsewhere/planted.json"))
            expected = "it is a symbolic link to \(tripdoc.path("elsewhere/planted.json")), which does not exist (tripdoc does not create a file through a link)"
        case "loop":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "loop.json")
            try FileManager.default.createSymbolicLink(atPath: tripdoc.path("loop.json"), withDestinationPath: "out.json")
            expected = "it is a loop of symbolic links"
        default:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            expected = "it is a folder, which tripdoc never replaces"
        }
        let before = try files()
        for arguments in [["convert", "trips.json", "out.json"], ["sample", "-o", "out.json"], ["convert", "trips.json", "copy.json", "--remap-table", "out.json"]] {
            let outcome = try tripdoc.run(arguments + (force ? ["--force"] : []))
            #expect(outcome == .init(status: 2, stdout: "", stderr: "tripdoc: error: cannot write out.json: \(expected); remove it or write elsewhere\n"), "\(arguments)")
        }
        #expect(try files() == before)
        #expect(!FileManager.default.fileExists(atPath: tripdoc.path("elsewhere")))
    }

    @Test func aLinkToAFileIsFollowedWithForce() throws {
        try FileManager.default.createSymbolicLink(atPath: tripdoc.path("link.json"), withDestinationPath: "story.json")
        #expect(try tripdoc.run("convert", "trips.json", "link.json").status == 2)
        #expect(try tripdoc.run("convert", "trips.json", "link.json", "--force").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: tripdoc.path("link.json")) == "story.json")
        #expect(try tripdoc.run("diff", "trips.json", "story.json").status == 0)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another owner"))
    func forceKeepsTheOwnerAndGroup() throws {
        #expect(chown(tripdoc.path("story.json"), 1234, 4321) == 0)
        #expect(try tripdoc.run("convert", "trips.json", "story.json", "--force").status == 0)
        var status = stat()
        #expect(stat(tripdoc.path("story.json"), &status) == 0)
        #expect(status.st_uid == 1234 && status.st_gid == 4321)
    }

    /// `--force` replaces a file's contents, not its permissions.
    @Test(arguments: [0o600, 0o640, 0o444, 0o755] as [mode_t])
    func forceKeepsTheMode(mode: mode_t) throws {
        #expect(chmod(tripdoc.path("story.json"), mode) == 0)
        #expect(try tripdoc.run("convert", "trips.json", "story.json", "--force").status == 0)
        var status = stat()
        #expect(lstat(tripdoc.path("story.json"), &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        #expect(status.st_mode & 0o7777 == mode)
        #expect(try tripdoc.run("diff", "trips.json", "story.json").status == 0)
    }

    /// A FIFO, or a device (here `/dev/null`, through a link), named with `--force` is written
    /// into as a stream and left what it was: never replaced by a regular file.
    @Test func aFIFOGivenWithForceIsWrittenIntoNotReplaced() throws {
        let fifo = tripdoc.path("out.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let process = Process()
        process.executableURL = tripdoc.program
        process.arguments = ["convert", "trips.json", "out.fifo", "--to", "json", "--store-identifier", "S", "--force"]
        process.currentDirectoryURL = tripdoc.folder
        try process.run()
        let received = try #require(FileHandle(forReadingAtPath: fifo)).readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(received == Data(try tripdoc.run("convert", "trips.json", "-", "--to", "json", "--store-identifier", "S").stdout.utf8))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(arguments: [["convert", "trips.json", "null.json", "--force"], ["sample", "-o", "null.json", "--force"]])
    func aDeviceGivenWithForceIsWrittenIntoNotReplaced(arguments: [String]) throws {
        try FileManager.default.createSymbolicLink(atPath: tripdoc.path("null.json"), withDestinationPath: "/dev/null")
        let outcome = try tripdoc.run(arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: tripdoc.path("null.json")) == "/dev/null")
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    /// A block device is no stream tripdoc writes into: refused, with and without `--force`,
    /// and left as it was.
    @Test(.enabled(if: geteuid() == 0, "only root can make a device node"), arguments: [false, true])
    func aBlockDeviceIsRefused(force: Bool) throws {
        let node = tripdoc.path("out.json")
        // A node for a loop device's numbers; it is never opened.
        #expect(mknod(node, S_IFBLK | 0o600, dev_t(7 << 8 | 200)) == 0)
        let outcome = try tripdoc.run(["convert", "trips.json", "out.json"] + (force ? ["--force"] : []))
        #expect(
            outcome == .init(
                status: 2, stdout: "",
                stderr: "tripdoc: error: cannot write out.json: it is not a regular file, which tripdoc never replaces; "
                    + "remove it or write elsewhere\n"))
        var status = stat()
        #expect(lstat(node, &status) == 0 && status.st_mode & S_IFMT == S_IFBLK)
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

/// An interrupted conversion leaves no hidden temporary file: SIGINT, SIGTERM and SIGHUP remove
/// it before ending the process as they would have, and the next write beside it removes the
/// one a SIGKILL left.
@Suite struct InterruptedConversionTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: tripdoc.folder.path).filter { $0.contains(".tripdoc-tmp-") }
    }

    /// Starts converting a large document and sends `signal` once its temporary file exists.
    func interruptedConversion(by signal: Int32) throws -> Process {
        #expect(try tripdoc.run("sample", "-o", "big.json", "--trips", "30000").status == 0)
        let process = Process()
        process.executableURL = tripdoc.program
        process.arguments = ["convert", "big.json", "out.plist"]
        process.currentDirectoryURL = tripdoc.folder
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while try temporaryFiles().isEmpty, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aCatchableSignalRemovesTheTemporaryFile(signal: Int32) throws {
        let process = try interruptedConversion(by: signal)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(try temporaryFiles() == [])
        #expect(!tripdoc.exists("out.plist"))
    }

    @Test func theNextWriteRemovesWhatAKilledConversionLeft() throws {
        let process = try interruptedConversion(by: SIGKILL)
        #expect(process.terminationStatus == SIGKILL)
        #expect(try temporaryFiles().count == 1)
        #expect(try tripdoc.run("convert", "trips.json", "out.plist").status == 0)
        #expect(try temporaryFiles() == [])
    }
}
