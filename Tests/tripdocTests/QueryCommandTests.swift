import Foundation
import Testing

/// `tripdoc show --where / --sort / --reverse / --id / --follow`, `diff --where` and
/// `history --where` end to end: exact output, the column of an expression's error, exit statuses.
@Suite struct QueryCommandTests {
    let tripdoc: TripDocRunner

    init() throws {
        tripdoc = try TripDocRunner()
        try #require(tripdoc.run("sample", "-o", "sample.json", "--trips", "40").status == 0)
    }

    @Test func filtersSortsAndLimits() throws {
        let outcome = try tripdoc.run(
            "show", "sample.json", "--entity", "Trip", "--where", #"destination == "Tokyo" && startDate >= 2030-01-01"#,
            "--sort", "startDate", "--reverse", "--limit", "2")
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let lines = outcome.stdout.split(separator: "\n")
        try #require(lines.count == 4)
        #expect(lines[0].hasPrefix("Trip (2 of ") && lines[0].hasSuffix(" matching, 40 in all)"))
        #expect(lines[1].hasPrefix("$id  name"))
        // Newest first, both in Tokyo, both from 2030 on.
        let dates = lines[2...].map { $0.split(separator: " ").first { $0.hasPrefix("20") && $0.hasSuffix("Z") }! }
        #expect(dates == dates.sorted(by: >))
        #expect(lines[2...].allSatisfy { $0.contains(" Tokyo ") })
        #expect(dates.allSatisfy { $0 >= "2030-01-01" })
    }

    @Test func showsOneObjectWithWhatItReferencesAsJSON() throws {
        let outcome = try tripdoc.run("show", "sample.json", "--id", "Trip/2", "--follow", "--json")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let snapshots = try #require(object["snapshots"] as? [String: [[String: Any]]])
        let trip = try #require(snapshots["Trip"]?.first)
        #expect(snapshots["Trip"]?.count == 1)
        #expect(trip["$id"] as? String == "2")
        #expect(Set(snapshots["BucketListItem"]?.compactMap { $0["$id"] as? String } ?? []) == Set(trip["bucketList"] as? [String] ?? ["none"]))
    }

    @Test func anExpressionThatDoesNotFitIsRefusedWithItsColumn() throws {
        #expect(
            try tripdoc.run("show", "sample.json", "--entity", "Trip", "--where", "destination == 3")
                == .init(
                    status: 2, stdout: "",
                    stderr: """
                        tripdoc: error: --where column 1: cannot compare a String with a number
                          destination == 3
                          ^^^^^^^^^^^^^^^^

                        """))
        #expect(
            try tripdoc.run("show", "sample.json", "--entity", "Trip", "--where", #"name == "x" &&"#)
                == .init(
                    status: 2, stdout: "",
                    stderr: """
                        tripdoc: error: --where column 15: expected a property, a value or '(', found the end of the expression
                          name == "x" &&
                                        ^

                        """))
        let sort = try tripdoc.run("show", "sample.json", "--entity", "Trip", "--sort", "bucketList")
        #expect(sort.status == 2)
        #expect(sort.stderr.hasPrefix("tripdoc: error: --sort column 1: Trip.bucketList is a to-many relationship"))
    }

    @Test func optionsThatNeedAnotherSaySo() throws {
        #expect(
            try tripdoc.run("show", "sample.json", "--where", "name == \"x\"")
                == .init(status: 2, stdout: "", stderr: "tripdoc: error: --where and --sort apply to one entity: give --entity\n"))
        #expect(try tripdoc.run("show", "sample.json", "--entity", "Trip", "--reverse").stderr.contains("--reverse reverses --sort"))
        #expect(
            try tripdoc.run("show", "sample.json", "--id", "Trip/999")
                == .init(
                    status: 2, stdout: "",
                    stderr: "tripdoc: error: sample.json holds no object Trip/999; tripdoc show sample.json --entity Trip lists them\n"))
        #expect(try tripdoc.run("show", "sample.json", "--id", "Trip").status == 2)
        #expect(try tripdoc.run("show", "sample.json", "--follow").status == 2)
    }

    @Test func diffComparesOnlyTheObjectsThatMeetTheCondition() throws {
        // B: the sample with two trips renamed, one in Tokyo and one elsewhere.
        let sample = try JSONSerialization.jsonObject(with: tripdoc.contents("sample.json")) as! [String: Any]
        var snapshots = sample["snapshots"] as! [String: [[String: Any]]]
        let tokyo = try #require(snapshots["Trip"]!.firstIndex { $0["destination"] as? String == "Tokyo" })
        let other = try #require(snapshots["Trip"]!.firstIndex { $0["destination"] as? String != "Tokyo" })
        snapshots["Trip"]![tokyo]["name"] = "Renamed in Tokyo"
        snapshots["Trip"]![other]["name"] = "Renamed elsewhere"
        var changed = sample
        changed["snapshots"] = snapshots
        try JSONSerialization.data(withJSONObject: changed).write(to: tripdoc.folder.appendingPathComponent("b.json"))

        let all = try tripdoc.run("diff", "sample.json", "b.json", "--entity", "Trip")
        #expect(all.status == 1)
        #expect(all.stdout.contains("Renamed in Tokyo") && all.stdout.contains("Renamed elsewhere"))
        let inTokyo = try tripdoc.run("diff", "sample.json", "b.json", "--entity", "Trip", "--where", #"destination == "Tokyo""#)
        #expect(inTokyo.status == 1)
        #expect(inTokyo.stdout.contains("Renamed in Tokyo") && !inTokyo.stdout.contains("Renamed elsewhere"))
        // A condition met before the change or after it keeps the object.
        let renamed = try tripdoc.run("diff", "sample.json", "b.json", "--entity", "Trip", "--where", #"name.hasPrefix("Renamed")"#)
        #expect(renamed.stdout.contains("Renamed in Tokyo") && renamed.stdout.contains("Renamed elsewhere"))
        let nowhere = try tripdoc.run("diff", "sample.json", "b.json", "--entity", "Trip", "--where", #"destination == "Atlantis""#)
        #expect(nowhere == .init(status: 0, stdout: "", stderr: ""))
        let bad = try tripdoc.run("diff", "sample.json", "b.json", "--entity", "Trip", "--where", "startDate == \"x\"")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tripdoc: error: --where column 14: 'x' is not a date"))
        #expect(try tripdoc.run("diff", "sample.json", "b.json", "--where", "name == \"x\"").status == 2)
    }

    @Test func historyListsOnlyChangesToObjectsThatMeetTheCondition() throws {
        #expect(try tripdoc.run("sample", "-o", "tale.json", "--history").status == 0)
        let outcome = try tripdoc.run("history", "tale.json", "--entity", "Trip", "--where", #"name.hasPrefix("Tokyo")"#)
        #expect(outcome.status == 0)
        let changes = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        // Trip/1, the Tokyo trip, was inserted, then deleted (its tombstone keeps its name).
        #expect(changes.count == 2)
        #expect(changes[0] == "  insert Trip/1")
        #expect(changes[1].hasPrefix("  delete Trip/1  tombstone:"))
        let limited = try tripdoc.run("history", "tale.json", "--entity", "Trip", "--where", #"name.hasPrefix("Tokyo")"#, "--limit", "1")
        #expect(limited.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") } == ["  insert Trip/1"])
        let none = try tripdoc.run("history", "tale.json", "--entity", "Trip", "--where", #"name == "Atlantis""#)
        #expect(none == .init(status: 0, stdout: "no transactions\n", stderr: ""))
        #expect(try tripdoc.run("history", "tale.json", "--where", "name == \"x\"").status == 2)
        #expect(try tripdoc.run("history", "tale.json", "--entity", "Trip", "--where", "nme == \"x\"").stderr
            .hasPrefix("tripdoc: error: --where column 1: Trip has no property 'nme'"))
    }
}
