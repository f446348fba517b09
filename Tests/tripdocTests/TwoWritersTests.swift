import Foundation
import Testing

/// Several processes saving one document: each save holds the lock file, a save over a version
/// it did not read is refused as a conflict and retried, and no increment is lost.
@Suite struct TwoWritersTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let writer = TripDocRunner.executable.deletingLastPathComponent().appendingPathComponent("tripdoc-stress-writer")

    func runWriter(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Self.writer
        process.arguments = arguments
        process.currentDirectoryURL = tripdoc.folder
        // Documents named journaled-… are saved through their journal.
        if arguments.count > 1, arguments[1].hasPrefix("journaled-") {
            process.environment = ProcessInfo.processInfo.environment.merging(["TRIPDOC_STRESS_JOURNAL": "1"]) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Run with `TRIPDOC_WRITERS_SAVES=1000` for the full 4 × 1,000.
    @Test(arguments: [
        "counter.json", "counter.plist", "counter.tripbundle", "journaled-counter.json", "journaled-counter.tripbundle",
    ])
    func fourWritersLoseNoIncrement(file: String) throws {
        let saves = Int(ProcessInfo.processInfo.environment["TRIPDOC_WRITERS_SAVES"] ?? "") ?? 100
        let initial = try runWriter(["init", file])
        initial.waitUntilExit()
        #expect(initial.terminationStatus == 0)
        let writers = try (0..<4).map { _ in try runWriter(["increment", file, String(saves)]) }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        let shown = try tripdoc.run("show", file, "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let counter = try #require((object["snapshots"] as? [String: [[String: Any]]])?["Counter"]?.first)
        #expect(counter["value"] as? Int == 4 * saves)
        let history = try tripdoc.run("inspect", file, "--json").stdout
        #expect(history.contains(#""historyTransactions" : \#(4 * saves + 1)"#))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tripdoc.folder.path).filter { $0.contains(".tripdoc-tmp-") }
        #expect(leftovers.isEmpty)
    }
}
