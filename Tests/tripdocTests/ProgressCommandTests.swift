import Foundation
import Testing

/// The progress line of the reading commands, forced on with `TRIPDOC_PROGRESS=1`: the bytes read
/// of the input's size, the rate and the time left, on standard error only, cleared at the end.
@Suite struct ProgressCommandTests {
    let tripdoc: TripDocRunner

    init() throws {
        tripdoc = try TripDocRunner()
        // About 3 MB of JSON: a few megabyte reports.
        try #require(tripdoc.run("sample", "-o", "progress.json", "--trips", "3000").status == 0)
        try #require(tripdoc.run("convert", "progress.json", "progress.plist").status == 0)
    }

    /// The size of `name` in the line's unit.
    func megabytes(_ name: String) throws -> String {
        String(format: "%.1f", Double(try tripdoc.contents(name).count) / 1_000_000)
    }

    @Test(arguments: [
        ["inspect", "progress.json"], ["show", "progress.json", "--entity", "Trip", "--limit", "2"],
        ["show", "progress.json", "--entity", "Trip", "--where", "bucketList.count > 4"], ["history", "progress.json"],
        ["diff", "progress.json", "progress.plist"],
    ])
    func aReadingCommandShowsTheBytesReadOfTheInputsSize(arguments: [String]) throws {
        let quiet = try tripdoc.run(arguments, environment: ["TRIPDOC_PROGRESS": "0"])
        let shown = try tripdoc.run(arguments, environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(quiet.stderr == "")
        #expect(shown.stdout == quiet.stdout, "the progress line goes to standard error only")
        #expect(shown.status == quiet.status)
        let files = arguments.filter { $0.hasPrefix("progress.") }
        let total = try files.map { try tripdoc.contents($0).count }.reduce(0, +)
        let phase = "tripdoc: reading " + files.joined(separator: " and ") + ": "
        let lines = shown.stderr.split(separator: "\r").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
        #expect(lines.first == phase + "0.0 of \(String(format: "%.1f", Double(total) / 1_000_000)) MB (0%), 0 entities, 0 snapshots")
        // Later lines (a megabyte or more read, at most five a second) keep the phase and the total.
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty || ($0.hasPrefix(phase) && $0.contains(" MB (")) })
        #expect(shown.stderr.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
    }

    @Test func aBundleShowsTheSnapshotsDecodedWithoutABytesTotal() throws {
        try #require(tripdoc.run("convert", "progress.json", "progress.tripbundle").status == 0)
        let shown = try tripdoc.run(["inspect", "progress.tripbundle"], environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(shown.status == 0)
        #expect(shown.stderr.contains("tripdoc: reading progress.tripbundle: 0 entities, 0 snapshots"))
        #expect(!shown.stderr.contains(" MB ("))
    }
}
