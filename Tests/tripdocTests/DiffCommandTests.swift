import Foundation
import Testing

/// `tripdoc diff` end to end: identity across formats and stores, each kind of change exactly
/// once in text and JSON, exit statuses as diff(1).
@Suite struct DiffCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let editedText = """
        --- trips.json  (store C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE)
        +++ trips-edited.json  (store C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE)
        @@ BucketListItem (matched by key): 1 added, 1 changed @@
        + BucketListItem/10  details: "Eat ceviche.", hasReservation: false, isInPlan: true, title: "Eat ceviche", trip: Trip/1
        ~ BucketListItem/4
            trip: Trip/2 → Trip/1
        @@ LivingAccommodation (matched by key): 1 removed @@
        - LivingAccommodation/2  address: "73 Market Square, Cusco", placeName: "Cusco Ryokan", trip: Trip/2
        @@ Trip (matched by key): 1 changed @@
        ~ Trip/2
            destination: "Cusco" → "Lima"
        1 added, 1 removed, 2 changed

        """

    @Test func aConvertedDocumentIsIdenticalToItsSourceInEveryFormatPair() throws {
        for name in ["c.json", "c.plist", "c.tripbundle"] {
            #expect(try tripdoc.run("convert", "trips.json", name).status == 0)
        }
        let files = ["trips.json", "c.json", "c.plist", "c.tripbundle"]
        for first in files {
            for second in files where first != second {
                #expect(try tripdoc.run("diff", first, second) == .init(status: 0, stdout: "", stderr: ""), "\(first) \(second)")
            }
        }
    }

    @Test func eachChangeAppearsExactlyOnceInText() throws {
        #expect(try tripdoc.run("diff", "trips.json", "trips-edited.json") == .init(status: 1, stdout: Self.editedText, stderr: ""))
    }

    @Test func eachChangeAppearsExactlyOnceInJSON() throws {
        let outcome = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--json")
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["identical"] as? Bool == false)
        #expect(object["summary"] as? [String: Int] == ["added": 1, "removed": 1, "changed": 2])
        let entities = try #require(object["entities"] as? [String: [String: Any]])
        let items = try #require(entities["BucketListItem"])
        #expect((items["added"] as? [[String: Any]])?.map { $0["$id"] as? String } == ["10"])
        let moved = try #require((items["changed"] as? [[String: Any]])?.first)
        #expect(moved["relationships"] as? [String: [String: String]] == ["trip": ["old": "Trip/2", "new": "Trip/1"]])
        #expect((entities["LivingAccommodation"]?["removed"] as? [[String: Any]])?.map { $0["$id"] as? String } == ["2"])
        let trip = try #require((entities["Trip"]?["changed"] as? [[String: Any]])?.first)
        #expect(trip["attributes"] as? [String: [String: String]] == ["destination": ["old": "Cusco", "new": "Lima"]])
        #expect(trip["relationships"] as? [String: [String: String]] == [:])
    }

    @Test func documentsOfDifferentStoresMatchByUniquenessConstraintsAndContent() throws {
        #expect(try tripdoc.run("convert", "trips.json", "other.plist", "--renumber").status == 0)
        #expect(try tripdoc.run("convert", "trips-edited.json", "edited.tripbundle").status == 0)
        let outcome = try tripdoc.run("diff", "other.plist", "edited.tripbundle")
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.contains("@@ Trip (matched by unique): 1 changed @@"))
        #expect(lines.contains("@@ BucketListItem (matched by content): 1 added, 1 changed @@"))
        #expect(lines.filter { $0.hasPrefix("    ") } == ["    trip: Trip/2 → Trip/1", "    destination: \"Cusco\" → \"Lima\""])
        #expect(lines.last == "1 added, 1 removed, 2 changed")
    }

    @Test func aRemapTableMatchesRenumberedObjects() throws {
        #expect(try tripdoc.run("convert", "trips.json", "renumbered.json", "--renumber", "--remap-table", "map.json").status == 0)
        #expect(try tripdoc.run("diff", "trips.json", "renumbered.json", "--map", "map.json", "--match", "map").status == 0)
        let wrong = try tripdoc.run("diff", "renumbered.json", "trips.json", "--map", "map.json")
        #expect(wrong.status == 2)
        #expect(wrong.stderr.hasPrefix("tripdoc: error: the remap table maps store C15C0289"), "\(wrong.stderr)")
    }

    @Test func quietEntityAndIgnoreNarrowTheComparison() throws {
        #expect(try tripdoc.run("diff", "trips.json", "trips-edited.json", "--quiet") == .init(status: 1, stdout: "", stderr: ""))
        #expect(
            try tripdoc.run(
                "diff", "trips.json", "trips-edited.json", "--entity", "Trip", "--ignore", "destination", "bucketList",
                "livingAccommodation"
            ).status == 0)
        // Narrowed to Trip, the trips' own relationship changes are shown (their other sides are not compared).
        let trips = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--entity", "Trip")
        #expect(trips.stdout.hasSuffix("0 added, 0 removed, 2 changed\n"))
    }

    @Test func schemaDifferencesAreReported() throws {
        let edited = String(decoding: try tripdoc.contents("trips.json"), as: UTF8.self)
            .replacingOccurrences(of: #"{"name":"placeName","optional":false"#, with: #"{"name":"placeName","optional":true"#)
        try Data(edited.utf8).write(to: tripdoc.folder.appendingPathComponent("optional.json"))
        let outcome = try tripdoc.run("diff", "trips.json", "optional.json")
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("schema: LivingAccommodation.placeName: String → String?\n"))
    }

    @Test func troubleExitsWithTwo() throws {
        #expect(try tripdoc.run("diff", "trips.json", "missing.json").status == 2)
        #expect(try tripdoc.run("diff", "trips.json", "truncated.json").status == 2)
        #expect(try tripdoc.run("diff", "trips.json", "trips.json", "--match", "nearest").status == 2)
        #expect(try tripdoc.run("diff", "trips.json", "trips.json", "--match", "map").status == 2)
        #expect(try tripdoc.run("diff", "trips.json", "trips.json", "--entity", "Boat").status == 2)
    }
}

extension DiffCommandTests {
    @Test func narrowingToOneEntityStillShowsItsRelationshipChanges() throws {
        let outcome = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--entity", "Trip", "--ignore", "destination")
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("    bucketList: [BucketListItem/1, BucketListItem/2, BucketListItem/3] → "))
        #expect(outcome.stdout.contains("    livingAccommodation: LivingAccommodation/2 → nil"))
    }
}

/// Objects are matched by their values, not by the hash of them: `Data` values that share their
/// length and first 80 bytes (all Foundation's hash of `Data` reads) are told apart.
@Suite struct DiffHashingTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// A document of `Blob`s whose `bytes` differ only after their 80th byte, in `order`, in
    /// store `store`; with `unique`, `bytes` is the entity's uniqueness constraint.
    func blobs(store: String, order: [Int], unique: Bool) -> String {
        let snapshots = order.enumerated().map { place, value in
            let bytes = Data(repeating: 7, count: 80) + Data(repeating: UInt8(value), count: 20)
            return #"{"$id":"\#(place + 1)","bytes":"\#(bytes.base64EncodedString())"}"#
        }
        let constraint = unique ? #","uniquenessConstraints":[["bytes"]]"# : ""
        return #"""
            {"header":{"format":"tripdoc","formatVersion":1,"generator":"test","nextPrimaryKeys":{"Blob":\#(order.count + 1)},"schemaVersion":"1.0.0","storeIdentifier":"\#(store)"},
            "schema":{"entities":[{"attributes":[{"name":"bytes","optional":false,"options":[],"type":"Data"}],"name":"Blob"\#(constraint)}],"version":"1.0.0"},
            "snapshots":{"Blob":[\#(snapshots.joined(separator: ","))]}}
            """#
    }

    @Test(arguments: [false, true])
    func documentsWithTheSameDataInAnotherOrderAreTheSame(unique: Bool) throws {
        try blobs(store: "A", order: [0, 1, 2, 3], unique: unique).write(
            to: tripdoc.folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try blobs(store: "B", order: [3, 2, 0, 1], unique: unique).write(
            to: tripdoc.folder.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        #expect(try tripdoc.run("diff", "a.json", "b.json") == .init(status: 0, stdout: "", stderr: ""))
        try blobs(store: "B", order: [3, 2, 0, 4], unique: unique).write(
            to: tripdoc.folder.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        let different = try tripdoc.run("diff", "a.json", "c.json")
        #expect(different.status == 1)
        #expect(different.stdout.hasSuffix("1 added, 1 removed, 0 changed\n"))
    }
}
