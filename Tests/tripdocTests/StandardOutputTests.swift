import Foundation
import Testing

/// Standard output that cannot be written is an error like any other: a message and exit
/// status 2, never a trap and never a silent success. A reader that goes away (`| head -1`)
/// ends the tool quietly by SIGPIPE, as it ends `cat`.
@Suite struct StandardOutputTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// Every command that writes to standard output, in each of its ways of writing.
    static let commands: [[String]] = [
        ["convert", "trips.json", "-", "--to", "json"], ["convert", "trips.json", "-", "--to", "bundle"],
        ["sample", "-o", "-"], ["show", "trips.json"], ["show", "trips.json", "--json"], ["inspect", "trips.json"],
        ["inspect", "trips.json", "--json"], ["history", "story.json"], ["history", "story.json", "--json"],
        ["diff", "trips.json", "story.json"], ["diff", "trips.json", "story.json", "--json"], ["--help"],
    ]

    @Test(arguments: commands)
    func aFullDeviceIsReportedWithExitStatusTwo(arguments: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let ending = try tripdoc.run(arguments, standardOutput: full)
        #expect(
            ending == .init(
                status: 2, byASignal: false,
                stderr: "tripdoc: error: cannot write to standard output: No space left on device\n"),
            "\(arguments)")
    }

    /// Runs with SIGPIPE ignored, as a parent may leave it (a shell's `trap '' PIPE`, some
    /// process supervisors): writes to a closed pipe then fail with EPIPE instead of ending the
    /// process, and the tool must handle the error.
    func runIgnoringSIGPIPE(_ arguments: [String], standardOutput output: FileHandle) throws -> TripDocRunner.Ending {
        var shell = tripdoc
        shell.program = URL(fileURLWithPath: "/bin/sh")
        return try shell.run(
            ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", tripdoc.program.path] + arguments, standardOutput: output)
    }

    @Test(arguments: commands, [false, true])
    func aClosedPipeEndsTheToolQuietlyBySIGPIPE(arguments: [String], parentIgnoresSIGPIPE: Bool) throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let ending =
            parentIgnoresSIGPIPE
            ? try runIgnoringSIGPIPE(arguments, standardOutput: pipe.fileHandleForWriting)
            : try tripdoc.run(arguments, standardOutput: pipe.fileHandleForWriting)
        #expect(ending == .init(status: SIGPIPE, byASignal: true, stderr: ""), "\(arguments)")
    }

    @Test func aDocumentThatCannotBeWrittenLeavesNoRemapTable() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let ending = try tripdoc.run(["convert", "trips.json", "-", "--to", "json", "--remap-table", "map.json"], standardOutput: full)
        #expect(ending.stderr == "tripdoc: error: cannot write to standard output: No space left on device\n")
        #expect(ending.status == 2)
        #expect(!tripdoc.exists("map.json"))
    }
}
