import Foundation
import Testing

/// `tripdoc history`, `sample --history` and history in inspect, convert and diff, end to end.
@Suite struct HistoryCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let store = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"

    @Test func sampleHistoryTellsTheStoryDeterministically() throws {
        #expect(try tripdoc.run("sample", "-o", "again.json", "--trips", "2", "--history").status == 0)
        #expect(try tripdoc.contents("again.json") == tripdoc.contents("story.json"))
    }

    @Test func historyListsTheWidgetsTransactions() throws {
        #expect(
            try tripdoc.run("history", "story.json", "--author", "widget")
                == .init(
                    status: 0,
                    stdout: """
                        \(Self.store):2  2025-01-02T09:00:00Z  widget
                          insert LivingAccommodation/2
                          update Trip/2  livingAccommodation
                        \(Self.store):3  2025-01-03T09:00:00Z  widget
                          update LivingAccommodation/2  placeName = "Harbour View Hotel & Spa"

                        """, stderr: ""))
    }

    /// docs/FORMATS.md 2.5.6, step 5: the limit is checked before each transaction, so 0 selects none.
    @Test func aLimitOfZeroListsNoTransactions() throws {
        #expect(try tripdoc.run("history", "story.json", "--limit", "0") == .init(status: 0, stdout: "no transactions\n", stderr: ""))
        let json = try tripdoc.run("history", "story.json", "--limit", "0", "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["transactions"] as? [Any])?.isEmpty == true)
        #expect(try tripdoc.run("history", "story.json", "--limit", "1").stdout.hasPrefix("\(Self.store):1  "))
    }

    @Test func aDeletedTripLeavesATombstone() throws {
        let outcome = try tripdoc.run("history", "story.json", "--after", "3", "--entity", "Trip")
        #expect(
            outcome.stdout == """
                \(Self.store):4  2025-01-04T09:00:00Z  app
                  delete Trip/1  tombstone: endDate = 2034-03-20T00:00:00Z, name = "Tokyo Honeymoon", startDate = 2034-03-16T00:00:00Z

                """)
    }

    @Test func historyJSONHasTokensAndTypedValues() throws {
        let outcome = try tripdoc.run("history", "story.json", "--json", "--limit", "1", "--newest-first")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["storeIdentifier"] as? String == Self.store)
        let transaction = try #require((object["transactions"] as? [[String: Any]])?.first)
        #expect(transaction["token"] as? String == "\(Self.store):4")
        let delete = try #require((transaction["changes"] as? [[String: Any]])?.first)
        #expect(delete["kind"] as? String == "delete")
        #expect((delete["tombstone"] as? [String: String])?["startDate"] == "2034-03-16T00:00:00Z")
    }

    @Test func inspectReportsTheTokenSpan() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(tripdoc.run("inspect", "story.json", "--json").stdout.utf8))
                as? [String: Any])
        #expect(object["historyTransactions"] as? Int == 4)
        #expect(object["historyTokenSpan"] as? [String: String] == ["first": "\(Self.store):1", "last": "\(Self.store):4"])
    }

    @Test func convertRemapsHistoryAndReportsTokens() throws {
        #expect(try tripdoc.run("convert", "story.json", "story.tripbundle", "--store-identifier", "NEW", "--remap-table", "map.json").status == 0)
        let table = try #require(try JSONSerialization.jsonObject(with: tripdoc.contents("map.json")) as? [String: Any])
        #expect((table["tokens"] as? [String: String])?["\(Self.store):4"] == "NEW:4")
        let listed = try tripdoc.run("history", "story.tripbundle", "--after", "NEW:3").stdout
        #expect(listed.hasPrefix("NEW:4  2025-01-04T09:00:00Z  app\n  delete Trip/1  tombstone:"))
        #expect(try tripdoc.run("diff", "story.json", "story.tripbundle", "--history").status == 0)
    }

    /// A bundle's manifest records where its history stands (docs/FORMATS.md 8.5): `sample`
    /// and `convert`, from JSON or from a bundle, write the same bytes for the same document,
    /// the record included, and the bundle reads back as the JSON it came from.
    @Test func everyCommandWritesABundleWithHistoryTheSameWay() throws {
        #expect(try tripdoc.run("sample", "-o", "sampled.tripbundle", "--trips", "2", "--history").status == 0)
        #expect(try tripdoc.run("convert", "story.json", "converted.tripbundle", "--store-identifier", Self.store).status == 0)
        #expect(try tripdoc.run("convert", "converted.tripbundle", "again.tripbundle", "--store-identifier", Self.store).status == 0)
        let sampled = try tripdoc.contents("sampled.tripbundle")
        #expect(try tripdoc.contents("converted.tripbundle") == sampled)
        #expect(try tripdoc.contents("again.tripbundle") == sampled)
        #expect(try tripdoc.run("convert", "again.tripbundle", "back.json", "--store-identifier", Self.store).status == 0)
        #expect(try tripdoc.contents("back.json") == tripdoc.contents("story.json"))
    }

    @Test func badTokensAreRefusedWithExitTwo() throws {
        let foreign = try tripdoc.run("history", "story.json", "--after", "OTHER:1")
        #expect(foreign.status == 2)
        #expect(foreign.stderr.contains("belongs to another store"))
        #expect(try tripdoc.run("history", "story.json", "--after", "yesterday").status == 2)
    }

    @Test func diffWithHistoryListsTransactionsOnlyOneSideHas() throws {
        let outcome = try tripdoc.run("diff", "trips.json", "story.json", "--history", "--json")
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect((object["history"] as? [String: [String]])?["onlyInB"]?.count == 4)
        #expect((object["history"] as? [String: [String]])?["onlyInA"] == [])
    }
}
