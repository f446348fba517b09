import Foundation
import Testing

/// Reading is bounded by the limits as a whole, not piece by piece: a bundle of many small
/// entries (each under the compression-ratio check's 1 MiB threshold) is refused when they
/// inflate, together, to more than the `document-size` limit, and a stream that never ends is
/// refused once it passes that limit, without being held in memory.
@Suite struct ReadingLimitCommandTests {
    let tripdoc: TripDocRunner
    init() throws { tripdoc = try TripDocRunner() }

    /// A JSON document of `count` `Blob`s whose `.externalStorage` `bytes` are `size` bytes of
    /// zeros each, told apart by their first bytes (a bundle keeps one entry per distinct value).
    func writeBlobs(_ count: Int, size: Int, to name: String) throws {
        let schema: [String: Any] = [
            "entities": [
                [
                    "attributes": [["name": "bytes", "optional": false, "options": ["externalStorage"], "type": "Data"]],
                    "indices": [], "name": "Blob", "relationships": [], "uniquenessConstraints": [],
                ] as [String: Any]
            ],
            "version": "1.0.0",
        ]
        let blobs: [[String: Any]] = (0..<count).map { index in
            var bytes = Data(count: size)
            withUnsafeBytes(of: UInt32(index).bigEndian) { bytes.replaceSubrange(0..<4, with: $0) }
            return ["$id": "\(index + 1)", "bytes": bytes.base64EncodedString()]
        }
        let document: [String: Any] = [
            "header": [
                "format": "tripdoc", "formatVersion": 1, "generator": "test", "nextPrimaryKeys": ["Blob": count + 1],
                "schemaVersion": "1.0.0", "storeIdentifier": "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE",
            ] as [String: Any],
            "schema": schema, "snapshots": ["Blob": blobs],
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    /// Item 9's bomb: 24 entries of 1 MiB of zeros, each deflated to about a kilobyte (a ratio
    /// the 1 MiB threshold lets through), all listed by the manifest: a bundle of tens of
    /// kilobytes that inflates to 24 MiB. Under `--max document-size=8M` it is refused from the
    /// central directory, with the limit and how to raise it, and nothing is written.
    @Test(arguments: [["convert", "small-entries.tripbundle", "out.json"], ["inspect", "small-entries.tripbundle"], ["show", "small-entries.tripbundle", "--json"]])
    func manySmallEntriesAreRefusedForTheirTotalSize(arguments: [String]) throws {
        try writeBlobs(24, size: 1 << 20, to: "blobs.json")
        #expect(try tripdoc.run("convert", "blobs.json", "small-entries.tripbundle").status == 0)
        let bundleSize = try tripdoc.contents("small-entries.tripbundle").count
        #expect(bundleSize < 200_000, "\(bundleSize) bytes")
        // Under the standard limits it is a valid document.
        #expect(try tripdoc.run("inspect", "small-entries.tripbundle").status == 0)

        let outcome = try tripdoc.run(arguments + ["--max", "document-size=8M"])
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.hasPrefix("tripdoc: error: small-entries.tripbundle"), "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(/the sum of the entries' inflated sizes up to this one \([0-9]+ bytes\) is larger than the document-size limit of 8M bytes/),
            "\(outcome.stderr)")
        #expect(outcome.stderr.contains("add --max document-size=N after the command's name"), "\(outcome.stderr)")
        #expect(!tripdoc.exists("out.json"))
    }

    /// Item 11: standard input that never ends. The tool stops at the `document-size` limit
    /// (here 256 MiB) with its message, and keeps what it read out of memory: its peak resident
    /// size stays far below the limit (it was the whole stream, up to the 8 GiB cap).
    @Test func aStreamThatNeverEndsIsRefusedAtTheLimitWithoutBeingHeldInMemory() throws {
        let errorFile = tripdoc.path("stderr.txt")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = [tripdoc.program.path, "inspect", "-", "--max", "document-size=256M"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        #expect(posix_spawn(&child, tripdoc.program.path, &actions, nil, &argv, environ) == 0)
        close(fds[0])

        // Write spaces until the tool stops reading (the write fails with EPIPE); never close.
        signal(SIGPIPE, SIG_IGN)
        let writer = fds[1]
        let feeding = Thread {
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
            while chunk.withUnsafeBytes({ write(writer, $0.baseAddress, $0.count) }) > 0 {}
        }
        feeding.start()

        // The child's peak resident size, from /proc while it runs: its rusage would also count
        // this process's, which a spawned child starts from on Linux.
        var status: Int32 = 0
        var peak = 0
        let deadline = Date().addingTimeInterval(120)
        while true {
            if Date() > deadline {
                Issue.record("the tool still reads a stream 120 s on")
                kill(child, SIGKILL)
            }
            if let text = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes)
            }
            let waited = waitpid(child, &status, WNOHANG)
            if waited == child { break }
            #expect(waited == 0)
            if waited != 0 { return }
            usleep(5_000)
        }
        close(writer)
        let exitStatus = (status >> 8) & 0xFF
        #expect(status & 0x7F == 0 && exitStatus == 2, "wait status \(status)")
        let message = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorFile)), as: UTF8.self)
        #expect(message.hasPrefix("tripdoc: error: -: the file ("), "\(message)")
        #expect(message.contains(" bytes) is larger than the document-size limit of 256M bytes"), "\(message)")
        #expect(peak > 0, "the child's /proc status was read")
        #expect(peak < 128 * 1024, "peak resident size \(peak) KiB")
    }
}
