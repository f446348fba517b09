import Foundation
import Testing

/// Paths that name streams — a FIFO, `/dev/stdin`, `/dev/stdout`, a process substitution — are
/// read and written as streams, as `-` is, instead of failing with a misleading error.
@Suite struct StreamPathTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    @Test func aFIFOIsReadAsAStream() throws {
        let fifo = tripdoc.path("in.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let document = try tripdoc.contents("trips.json")
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(document)
                try? handle.close()
            }
        }
        writer.start()
        let outcome = try tripdoc.run("show", "in.fifo")
        #expect(outcome.status == 0)
        #expect(outcome.stdout == (try tripdoc.run("show", "trips.json")).stdout)
    }

    @Test func devStdinIsReadAsStandardInput() throws {
        let outcome = try tripdoc.run("inspect", "/dev/stdin", input: try tripdoc.contents("trips.json"))
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Format:            json, version 1"))
    }

    @Test func aFolderOnStandardInputIsAnErrorNotATrap() throws {
        var shell = tripdoc
        shell.program = URL(fileURLWithPath: "/bin/sh")
        let outcome = try shell.run(["-c", "exec \"$0\" show - < /", tripdoc.program.path])
        #expect(outcome == .init(status: 2, stdout: "", stderr: "tripdoc: error: cannot read standard input: Is a directory\n"))
    }

    @Test func devStdoutIsWrittenAsStandardOutput() throws {
        let viaPath = try tripdoc.run("convert", "trips.json", "/dev/stdout", "--to", "json", "--store-identifier", "S")
        let viaDash = try tripdoc.run("convert", "trips.json", "-", "--to", "json", "--store-identifier", "S")
        #expect(viaPath.status == 0)
        #expect(viaPath.stderr == "")
        #expect(viaPath.stdout == viaDash.stdout)
    }

    @Test func aFIFOIsWrittenIntoNotReplaced() throws {
        let fifo = tripdoc.path("out.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let process = Process()
        process.executableURL = tripdoc.program
        process.arguments = ["convert", "trips.json", "out.fifo", "--to", "json", "--store-identifier", "S"]
        process.currentDirectoryURL = tripdoc.folder
        try process.run()
        let received = try #require(FileHandle(forReadingAtPath: fifo)).readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(received == Data(try tripdoc.run("convert", "trips.json", "-", "--to", "json", "--store-identifier", "S").stdout.utf8))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}
