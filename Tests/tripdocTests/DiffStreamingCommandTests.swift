import Foundation
import Testing

/// `tripdoc diff` compares two documents as it reads them: damaged input is reported as when
/// both were read whole, documents another tool wrote out of order compare as well, and memory
/// never holds the documents.
@Suite struct DiffStreamingCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// A condition every trip meets: `--where` makes diff read each document twice (the
    /// objects the condition reads first) instead of as a merge, with the same message.
    static let readWhole = ["--entity", "Trip", "--where", "name != \"\""]

    @Test(arguments: ["truncated.json", "truncated.plist", "truncated.tripbundle"])
    func damagedInputExitsWithTwoAndTheMessageOfReadingItWhole(damaged: String) throws {
        for pair in [["trips.json", damaged], [damaged, "trips.plist"], [damaged, "missing.json"]] {
            let outcome = try tripdoc.run(["diff"] + pair)
            let expected = try tripdoc.run(["diff"] + pair + Self.readWhole)
            #expect(outcome.status == 2, "\(pair)")
            #expect(outcome.stdout == "")
            #expect(outcome.stderr == expected.stderr, "\(pair)")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: \(damaged)"), "\(outcome.stderr)")
        }
    }

    /// trips.json rewritten with its entities in reverse name order and each entity's
    /// snapshots in reverse key order, as another tool may write it; with BucketListItem 1's
    /// title changed when `editing`.
    func writeOutOfOrder(to name: String, editing: Bool) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: tripdoc.contents("trips.json")) as? [String: Any])
        var snapshots = try #require(root["snapshots"] as? [String: [[String: Any]]])
        if editing, let index = snapshots["BucketListItem"]?.firstIndex(where: { $0["$id"] as? String == "1" }) {
            snapshots["BucketListItem"]![index]["title"] = "Something else"
        }
        var text = "{"
        for (key, value) in root where key != "snapshots" {
            text += "\"\(key)\": " + String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self) + ", "
        }
        text += "\"snapshots\": {"
        text += try snapshots.keys.sorted().reversed().map { entity in
            "\"\(entity)\": "
                + String(decoding: try JSONSerialization.data(withJSONObject: Array(snapshots[entity]!.reversed())), as: UTF8.self)
        }.joined(separator: ", ")
        text += "}}"
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    @Test func documentsOutOfOrderCompareInEveryFormat() throws {
        try writeOutOfOrder(to: "reordered.json", editing: false)
        try writeOutOfOrder(to: "edited.json", editing: true)
        for name in ["c.plist", "c.tripbundle"] { #expect(try tripdoc.run("convert", "trips.json", name).status == 0) }
        for other in ["trips.json", "c.plist", "c.tripbundle"] {
            #expect(try tripdoc.run("diff", other, "reordered.json").status == 0, "\(other)")
            let outcome = try tripdoc.run("diff", "edited.json", other, "--json")
            #expect(outcome.status == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            #expect(object["summary"] as? [String: Int] == ["added": 0, "removed": 0, "changed": 1], "\(other)")
            let items = try #require((object["entities"] as? [String: [String: Any]])?["BucketListItem"])
            let change = try #require((items["changed"] as? [[String: Any]])?.first)
            #expect(change["b"] as? String == "1")
            let attributes = try #require(change["attributes"] as? [String: [String: String]])
            #expect(Array(attributes.keys) == ["title"])
            #expect(attributes["title"]?["old"] == "Something else")
        }
    }

    /// Both readers report to the progress line, from their own threads.
    @Test func theProgressLineCountsWhatBothReadersRead() throws {
        #expect(try tripdoc.run("sample", "-o", "a.json", "--trips", "10000").status == 0)
        #expect(try tripdoc.run("convert", "a.json", "b.plist").status == 0)
        let shown = try tripdoc.run(["diff", "a.json", "b.plist"], environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(shown.status == 0)
        let lines = shown.stderr.split(separator: "\r").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
        let last = try #require(lines.last { !$0.isEmpty })
        #expect(last.hasPrefix("tripdoc: reading a.json and b.plist: "))
        #expect(!last.contains(": 0.0 of ") && !last.hasSuffix(" 0 snapshots"), "\(last)")
    }

    /// Matched by their values, the documents are read twice: the line says so the second time
    /// and counts that reading from nothing.
    @Test func theProgressLineTellsTheSecondReading() throws {
        #expect(try tripdoc.run("sample", "-o", "a.json", "--trips", "10000").status == 0)
        #expect(try tripdoc.run("convert", "a.json", "b.plist", "--renumber").status == 0)
        let shown = try tripdoc.run(["diff", "a.json", "b.plist"], environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(shown.status == 0)
        let lines = shown.stderr.split(separator: "\r").map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
        #expect(lines.contains { $0.hasPrefix("tripdoc: reading a.json and b.plist: ") })
        let last = try #require(lines.last { !$0.isEmpty })
        #expect(last.hasPrefix("tripdoc: comparing a.json and b.plist: "), "\(last)")
        #expect(!last.contains(": 0.0 of ") && !last.hasSuffix(" 0 snapshots"), "\(last)")
    }

    /// Standard input is taken whole once, then read twice like a file, with the same output.
    @Test func standardInputIsReadTwiceFromWhatWasTaken() throws {
        #expect(try tripdoc.run("convert", "trips.json", "b0.json", "--renumber", "--remap-table", "map.json").status == 0)
        var text = String(decoding: try tripdoc.contents("b0.json"), as: UTF8.self)
        let title = try #require(text.range(of: "\"title\":\""))
        text.replaceSubrange(title, with: "\"title\":\"Edited: ")
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent("b.json"))
        for options in [[], ["--map", "map.json", "--json"], ["--entity", "BucketListItem", "--where", "trip != nil"]] {
            let fromFile = try tripdoc.run(["diff", "trips.json", "b.json"] + options)
            let fromInput = try tripdoc.run(["diff", "-", "b.json"] + options, input: try tripdoc.contents("trips.json"))
            #expect(fromFile.status == 1, "\(options) \(fromFile.stderr)")
            #expect(fromInput.status == 1, "\(options) \(fromInput.stderr)")
            // Standard input is named "-".
            #expect(fromInput.stdout == fromFile.stdout.replacingOccurrences(of: "trips.json", with: "-"), "\(options)")
            #expect(!fromFile.stdout.isEmpty)
        }
    }

    /// The peak resident size, in bytes, of `tripdoc arguments…` run in the folder, from
    /// `/proc` while it runs, and its exit status.
    func peakMemory(_ arguments: [String]) throws -> (bytes: Int, status: Int32) {
        let process = Process()
        process.executableURL = tripdoc.program
        process.arguments = arguments
        process.currentDirectoryURL = tripdoc.folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var peak = 0
        while process.isRunning {
            if let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes * 1024)
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        return (peak, process.terminationStatus)
    }

    /// Reading both documents whole took about 6.5 times the larger one's size; compared as
    /// they are read, diff's peak stays below the peaks of reading each alone (`inspect`) added
    /// up: each reader keeps a window of its input and a few batches of snapshots, whatever the
    /// formats (on the 200,000-trip sample, release build: about 0.5 times the larger document).
    @Test func comparingTwoLargeDocumentsHoldsNeither() throws {
        #expect(try tripdoc.run("sample", "-o", "sample.json", "--trips", "30000").status == 0)
        for name in ["a.json", "a.tripbundle"] { #expect(try tripdoc.run("convert", "sample.json", name).status == 0) }
        // B is another copy of the sample's store (one lineage) with one trip going elsewhere.
        #expect(try tripdoc.run("convert", "sample.json", "b.json").status == 0)
        var text = String(decoding: try tripdoc.contents("b.json"), as: UTF8.self)
        let destination = try #require(text.range(of: "\"Tokyo\""))
        text.replaceSubrange(destination, with: "\"Tokio\"")
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent("b.json"))
        #expect(try tripdoc.run("convert", "b.json", "b.plist").status == 0)
        for pair in [["a.json", "b.json"], ["a.json", "b.plist"], ["a.tripbundle", "b.json"]] {
            let sizes = try pair.map { try tripdoc.contents($0).count }
            let reading = try pair.map { try peakMemory(["inspect", $0]) }
            #expect(reading.allSatisfy { $0.status == 0 })
            let (peak, status) = try peakMemory(["diff", pair[0], pair[1]])
            #expect(status == 1)
            #expect(
                peak < reading[0].bytes + reading[1].bytes,
                "\(pair): diff's peak \(peak >> 20) MiB, inspect's \(reading.map { $0.bytes >> 20 }) MiB, documents of \(sizes.map { $0 >> 20 }) MiB")
        }
    }

    /// Two stores whose keys differ (`convert --renumber` with one trip edited), matched by
    /// their values or by the remap table: each document is read twice, never held, so the peak
    /// stays below the peaks of reading each alone added up (reading both whole took about six
    /// times the larger input); a condition every trip meets keeps every difference.
    @Test func matchingByValuesOrARemapTableHoldsNeitherDocument() throws {
        #expect(try tripdoc.run("sample", "-o", "a.json", "--trips", "20000").status == 0)
        #expect(try tripdoc.run("convert", "a.json", "b0.json", "--renumber", "--remap-table", "map.json").status == 0)
        var text = String(decoding: try tripdoc.contents("b0.json"), as: UTF8.self)
        let destination = try #require(text.range(of: "\"Tokyo\""))
        text.replaceSubrange(destination, with: "\"Tokio\"")
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent("b.json"))
        let reading = try ["a.json", "b.json"].map { try peakMemory(["inspect", $0]) }
        #expect(reading.allSatisfy { $0.status == 0 })
        for options in [[], ["--map", "map.json"], ["--match", "content"]] {
            let (peak, status) = try peakMemory(["diff", "a.json", "b.json"] + options)
            #expect(status == 1)
            #expect(
                peak < reading[0].bytes + reading[1].bytes,
                "\(options): diff's peak \(peak >> 20) MiB, inspect's \(reading.map { $0.bytes >> 20 }) MiB")
        }
        let byValues = try tripdoc.run("diff", "a.json", "b.json", "--entity", "Trip", "--json")
        let restricted = try tripdoc.run(["diff", "a.json", "b.json", "--json"] + Self.readWhole)
        #expect(byValues.status == 1)
        #expect(byValues.stdout == restricted.stdout)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(byValues.stdout.utf8)) as? [String: Any])
        #expect(summary["summary"] as? [String: Int] == ["added": 0, "removed": 0, "changed": 1])
    }
}
