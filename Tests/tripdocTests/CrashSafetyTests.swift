import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A saving process killed with SIGKILL at random moments never leaves a torn document, never
/// loses a save it acknowledged, and its temporary files are gone after the next open.
///
/// Run with `TRIPDOC_KILL_RUNS=1000` for the full 1,000 kills per format (the default is 15).
@Suite struct CrashSafetyTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let writer = TripDocRunner.executable.deletingLastPathComponent().appendingPathComponent("tripdoc-stress-writer")

    func start(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = Self.writer
        process.arguments = arguments
        process.currentDirectoryURL = tripdoc.folder
        // Documents named journaled-… are saved through their journal.
        if arguments.count > 1, arguments[1].hasPrefix("journaled-") {
            process.environment = ProcessInfo.processInfo.environment.merging(["TRIPDOC_STRESS_JOURNAL": "1"]) { $1 }
        }
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func counterValue(_ file: String) throws -> Int? {
        let shown = try tripdoc.run("show", file, "--json")
        guard shown.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any],
            let counter = (object["snapshots"] as? [String: [[String: Any]]])?["Counter"]?.first
        else { return nil }
        return counter["value"] as? Int
    }

    @Test(arguments: [
        "killed.json", "killed.plist", "killed.tripbundle", "journaled-killed.json", "journaled-killed.plist",
        "journaled-killed.tripbundle",
    ])
    func killedSavesLeaveAnAcknowledgedState(file: String) throws {
        let runs = Int(ProcessInfo.processInfo.environment["TRIPDOC_KILL_RUNS"] ?? "") ?? 15
        let initial = try start(["init", file])
        initial.waitUntilExit()
        #expect(initial.terminationStatus == 0)
        var torn = 0
        var lost = 0
        var acknowledged = 0
        for _ in 0..<runs {
            let output = Pipe()
            let writer = try start(["forever", file], output: output)
            usleep(useconds_t.random(in: 10_000...120_000))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if let last = printed.split(separator: "\n").last.flatMap({ Int($0) }) { acknowledged = last }
            guard let value = try counterValue(file) else {
                torn += 1
                continue
            }
            // The save in flight when the process died may or may not have landed.
            if value < acknowledged || value > acknowledged + 1 { lost += 1 }
            acknowledged = value
        }
        #expect(torn == 0)
        #expect(lost == 0)
        // The next open cleans what the killed saves left behind.
        let reopen = try start(["increment", file, "1"])
        reopen.waitUntilExit()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tripdoc.folder.path).filter { $0.contains(".tripdoc-tmp-") }
        #expect(leftovers == [])
        print("\(file): \(runs) kills, \(torn) torn, \(lost) lost, \(acknowledged) saves acknowledged")
    }
}
