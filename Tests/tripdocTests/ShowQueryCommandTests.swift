import Foundation
import Testing

/// `tripdoc show --where / --sort / --reverse / --id / --follow` end to end: exact output, the
/// column of an expression's error, exit statuses.
@Suite struct ShowQueryCommandTests {
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
}
