import Foundation
import Testing

/// A document `convert` makes knows where it came from (its header's `derivedFrom`), so that
/// `diff` matches a converted copy, and copies of one source, by primary key, says so, and shows
/// a removed object's references in its own document's numbering.
@Suite struct LineageDiffTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let formats = ["json", "plist", "tripbundle"]
    static let source = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"

    /// A JSON document's root object.
    func root(_ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: tripdoc.contents(name)) as? [String: Any])
    }

    func write(_ root: [String: Any], to name: String) throws {
        try JSONSerialization.data(withJSONObject: root).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    /// `name` (a JSON document) with BucketListItem 1's `hasReservation` flipped, written as `edited`.
    func flipReservation(of name: String, into edited: String) throws {
        var document = try root(name)
        var snapshots = try #require(document["snapshots"] as? [String: Any])
        var items = try #require(snapshots["BucketListItem"] as? [[String: Any]])
        let index = try #require(items.firstIndex { $0["$id"] as? String == "1" })
        items[index]["hasReservation"] = !(items[index]["hasReservation"] as? Bool ?? false)
        snapshots["BucketListItem"] = items
        document["snapshots"] = snapshots
        try write(document, to: edited)
    }

    @Test func convertRecordsTheSourcesStoreAndPositionInTheHeaderOnly() throws {
        #expect(try tripdoc.run("convert", "story.json", "copy.json").status == 0)
        let header = try #require(try root("copy.json")["header"] as? [String: Any])
        let story = try #require(try root("story.json")["header"] as? [String: Any])
        let storyStore = try #require(story["storeIdentifier"] as? String)
        let history = try #require(try root("story.json")["history"] as? [String: Any])
        let newest = try #require((history["transactions"] as? [[String: Any]])?.last?["id"] as? Int)
        #expect(header["derivedFrom"] as? String == "\(storyStore):\(newest)")
        // inspect tells it; a document convert did not make has none.
        let inspected = try tripdoc.run("inspect", "copy.json")
        #expect(inspected.stdout.contains("\nDerived from:      \(storyStore):\(newest) (converted, every key kept)\n"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(tripdoc.run("inspect", "copy.json", "--json").stdout.utf8)) as? [String: Any])
        #expect(report["derivedFrom"] as? String == "\(storyStore):\(newest)")
        #expect(try !tripdoc.run("inspect", "story.json").stdout.contains("Derived from"))
        #expect(story["derivedFrom"] == nil)
        // A copy of the copy names the first store; a renumbered copy derives from nothing.
        #expect(try tripdoc.run("convert", "copy.json", "copy2.plist").status == 0)
        #expect(try tripdoc.run("convert", "copy2.plist", "copy2.json").status == 0)
        #expect((try root("copy2.json")["header"] as? [String: Any])?["derivedFrom"] as? String == "\(storyStore):\(newest)")
        #expect(try tripdoc.run("convert", "copy.json", "renumbered.json", "--renumber").status == 0)
        #expect((try root("renumbered.json")["header"] as? [String: Any])?["derivedFrom"] == nil)
        // Converted back into its own store, a copy is the source again, byte for byte.
        #expect(try tripdoc.run("convert", "trips.json", "there.plist").status == 0)
        #expect(try tripdoc.run("convert", "there.plist", "back.json", "--store-identifier", Self.source).status == 0)
        #expect(try tripdoc.contents("back.json") == tripdoc.contents("trips.json"))
    }

    @Test(arguments: formats, formats)
    func aFlippedFieldOfAnEditedCopyIsOneChangeInEveryFormatPair(original: String, edited: String) throws {
        // The original, and an edited copy, each converted from trips.json.
        #expect(try tripdoc.run("convert", "trips.json", "original.\(original)").status == 0)
        #expect(try tripdoc.run("convert", "trips.json", "copy.json").status == 0)
        try flipReservation(of: "copy.json", into: "flipped.json")
        let editedName = "edited.\(edited)"
        #expect(try tripdoc.run("convert", "flipped.json", editedName).status == 0)

        for (a, b) in [("original.\(original)", editedName), ("trips.json", editedName)] {
            let outcome = try tripdoc.run("diff", a, b)
            #expect(outcome.status == 1)
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("@@ BucketListItem (matched by key): 1 changed @@"), "\(a) \(b): \(outcome.stdout)")
            #expect(lines.contains("~ BucketListItem/1"))
            #expect(lines.contains("    hasReservation: true → false"))
            #expect(lines.last == "0 added, 0 removed, 1 changed")
            let lineage = try #require(lines.first { $0.hasPrefix("lineage: ") })
            #expect(lineage.hasSuffix("; objects matched by primary key"))
            #expect(
                a == "trips.json"
                    ? lineage == "lineage: \(b) was converted from trips.json's store at transaction 0; objects matched by primary key"
                    : lineage.hasPrefix("lineage: both were converted from store \(Self.source) ("))

            let json = try tripdoc.run("diff", a, b, "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["lineage"] as? String == Self.source)
            #expect(object["summary"] as? [String: Int] == ["added": 0, "removed": 0, "changed": 1])
            let entities = try #require(object["entities"] as? [String: [String: Any]])
            #expect(entities.values.allSatisfy { $0["match"] as? String == "key" })
            #expect((object["b"] as? [String: Any])?["derivedFrom"] as? String == "\(Self.source):0")
        }
    }

    @Test func unrelatedStoresClaimNoLineage() throws {
        #expect(try tripdoc.run("convert", "trips.json", "renumbered.plist", "--renumber").status == 0)
        let outcome = try tripdoc.run("diff", "trips.json", "renumbered.plist")
        #expect(outcome == .init(status: 0, stdout: "", stderr: ""), "equal content, matched by unique and content")
        #expect(try tripdoc.run("convert", "trips.json", "copy.json").status == 0)
        try flipReservation(of: "copy.json", into: "flipped.json")
        #expect(try tripdoc.run("convert", "flipped.json", "flipped-renumbered.json", "--renumber").status == 0)
        let unrelated = try tripdoc.run("diff", "trips.json", "flipped-renumbered.json")
        #expect(!unrelated.stdout.contains("lineage:"))
        #expect(unrelated.stdout.contains("@@ BucketListItem (matched by content): 1 added, 1 removed @@"))
        let json = try tripdoc.run("diff", "trips.json", "flipped-renumbered.json", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["lineage"] is NSNull)
        #expect((object["a"] as? [String: Any])?["derivedFrom"] is NSNull)
        // Asked for, content matching is still what it was, and the lineage still told.
        let asked = try tripdoc.run("diff", "trips.json", "flipped.json", "--match", "content")
        #expect(asked.stdout.contains("@@ BucketListItem (matched by content): 1 added, 1 removed @@"))
        #expect(asked.stdout.contains("lineage: flipped.json was converted from trips.json's store at transaction 0\n"))
    }

    @Test func aRemovedObjectShowsItsReferencesInItsOwnDocumentsNumbering() throws {
        // B: the edited trips in another store, the Cusco trip under key 5 instead of 2.
        var document = try root("trips-edited.json")
        var header = try #require(document["header"] as? [String: Any])
        header["storeIdentifier"] = "B0000000-0000-0000-0000-000000000000"
        header["nextPrimaryKeys"] = ["BucketListItem": 11, "LivingAccommodation": 3, "Trip": 6]
        document["header"] = header
        var snapshots = try #require(document["snapshots"] as? [String: [[String: Any]]])
        for (entity, objects) in snapshots {
            snapshots[entity] = objects.map { object in
                var object = object
                if entity == "Trip", object["$id"] as? String == "2" { object["$id"] = "5" }
                if object["trip"] as? String == "2" { object["trip"] = "5" }
                return object
            }
        }
        document["snapshots"] = snapshots
        try write(document, to: "moved.json")

        let outcome = try tripdoc.run("diff", "trips.json", "moved.json")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("@@ Trip (matched by unique): 1 changed @@"), "\(outcome.stdout)")
        #expect(lines.contains("~ Trip/5  (Trip/2 in trips.json)"))
        #expect(
            lines.contains("- LivingAccommodation/2  address: \"73 Market Square, Cusco\", placeName: \"Cusco Ryokan\", trip: Trip/2"),
            "A's LivingAccommodation/2 belonged to A's Trip/2")
        let json = try tripdoc.run("diff", "trips.json", "moved.json", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let removed = ((object["entities"] as? [String: [String: Any]])?["LivingAccommodation"]?["removed"] as? [[String: Any]])
        #expect(removed?.first?["trip"] as? String == "2")
        // The patch still names B's trip, as FORMATS 10.2 says.
        let patch = try tripdoc.run("diff", "trips.json", "moved.json", "--patch")
        #expect(patch.status == 1)
        #expect(try tripdoc.run("patch", "trips.json", "-", "-o", "patched.json", input: Data(patch.stdout.utf8)).status == 0)
        #expect(try tripdoc.run("diff", "patched.json", "moved.json", "--match", "unique").status == 0)
    }

    @Test func aDerivedFromThatIsNoTokenIsRefusedNamingTheFileAndPlace() throws {
        var document = try root("trips.json")
        var header = try #require(document["header"] as? [String: Any])
        header["derivedFrom"] = "no token"
        document["header"] = header
        try write(document, to: "bad-lineage.json")
        for command in [["inspect", "bad-lineage.json"], ["diff", "trips.json", "bad-lineage.json"]] {
            let outcome = try tripdoc.run(command)
            #expect(outcome.status == 2)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.contains("bad-lineage.json"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("derivedFrom must be a history token, STORE:N"), "\(outcome.stderr)")
        }
    }
}
