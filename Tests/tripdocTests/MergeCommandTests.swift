import Foundation
import Testing

/// `tripdoc merge` end to end: independent changes combine (objects added on both sides all
/// kept), each kind of conflict is listed in text and JSON with exit status 1 and no output,
/// --keep-conflicts writes either side's version, bad inputs exit with 2 and write nothing.
///
/// Theirs is `trips-edited.json`: BucketListItem/10 added to Trip/1, BucketListItem/4 moved to
/// Trip/1, LivingAccommodation/2 removed, Trip/2's destination Cusco → Lima.
@Suite struct MergeCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    func edited(_ name: String, _ replacements: [(String, String)]) throws {
        var text = String(decoding: try tripdoc.contents("trips.json"), as: UTF8.self)
        for (old, new) in replacements {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    /// Ours: Trip/1 to Kyoto, BucketListItem/5 retitled, a BucketListItem/10 of its own on Trip/2.
    func writeIndependentOurs() throws {
        try edited(
            "ours.json",
            [
                (#""destination":"Tokyo""#, #""destination":"Kyoto""#),
                (
                    #"{"$id":"5","details":"Go to a concert in Cusco.","hasReservation":true,"isInPlan":true,"title":"Go to a concert""#,
                    #"{"$id":"5","details":"Go to a concert in Cusco.","hasReservation":true,"isInPlan":true,"title":"Go to an opera""#
                ),
                (
                    #""title":"Try the street food","trip":"2"}"#,
                    #""title":"Try the street food","trip":"2"},"# + "\n      "
                        + #"{"$id":"10","details":"Ride the ferry.","hasReservation":false,"isInPlan":true,"title":"Ride the ferry","trip":"2"}"#
                ),
                (#""bucketList":["4","5","6","7","8","9"]"#, #""bucketList":["4","5","6","7","8","9","10"]"#),
            ])
    }

    @Test func independentChangesCombine() throws {
        try writeIndependentOurs()
        let outcome = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "merged.plist")
        #expect(outcome == .init(status: 0, stdout: "", stderr: ""))
        #expect(try tripdoc.run("inspect", "merged.plist", "--check").status == 0)
        // Against ours, the merge shows exactly theirs' changes, theirs' item under a new key.
        let fromOurs = try tripdoc.run("diff", "ours.json", "merged.plist")
        #expect(fromOurs.status == 1)
        #expect(fromOurs.stdout.contains(#"+ BucketListItem/11  details: "Eat ceviche.", hasReservation: false, isInPlan: true, title: "Eat ceviche", trip: Trip/1"#))
        #expect(fromOurs.stdout.contains("~ BucketListItem/4\n    trip: Trip/2 → Trip/1\n"))
        #expect(fromOurs.stdout.contains(#"- LivingAccommodation/2"#))
        #expect(fromOurs.stdout.contains("~ Trip/2\n    destination: \"Cusco\" → \"Lima\"\n"))
        #expect(fromOurs.stdout.hasSuffix("1 added, 1 removed, 2 changed\n"))
        let history = try tripdoc.run("history", "merged.plist", "--author", "tripdoc-merge", "--json")
        #expect(history.status == 0 && history.stdout.contains("\"tripdoc-merge\""))
    }

    @Test func theSamePropertyChangedTwoWaysIsAConflict() throws {
        try edited("ours.json", [(#""destination":"Cusco""#, #""destination":"Quito""#)])
        let outcome = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "merged.json")
        #expect(
            outcome
                == .init(
                    status: 1,
                    stdout: "conflict: changed-on-both-sides: Trip/2 destination: ours set it to \"Quito\"; theirs set it to \"Lima\"\n",
                    stderr: ""))
        #expect(!tripdoc.exists("merged.json"))
        let json = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "merged.json", "--json")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["merged"] as? Bool == false)
        #expect(object["written"] as? Bool == false)
        #expect(
            object["conflicts"] as? [[String: String]] == [
                [
                    "kind": "changed-on-both-sides", "object": "Trip/2", "property": "destination", "ours": "set it to \"Quito\"",
                    "theirs": "set it to \"Lima\"",
                ]
            ])
        #expect(!tripdoc.exists("merged.json"))
    }

    @Test func anObjectChangedOnOneSideAndDeletedOnTheOtherIsAConflict() throws {
        try edited("ours.json", [(#""placeName":"Cusco Ryokan""#, #""placeName":"Cusco Inn""#)])
        let outcome = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "merged.json")
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "conflict: changed-and-deleted: LivingAccommodation/2: ours changed placeName; theirs deleted it\n")
        #expect(!tripdoc.exists("merged.json"))
    }

    @Test func objectsAddedOnBothSidesThatCollideOnAUniquenessConstraintAreAConflict() throws {
        let trip2End = #""startDate":"2029-05-05T00:00:00Z"}"#
        func added(_ destination: String) -> String {
            trip2End + ",\n      "
                + #"{"$id":"3","bucketList":[],"destination":"\#(destination)","endDate":"2030-01-10T00:00:00Z","name":"Lima Trip","startDate":"2030-01-01T00:00:00Z"}"#
        }
        try edited("ours.json", [(trip2End, added("Peru"))])
        try edited("theirs.json", [(trip2End, added("Lima"))])
        let outcome = try tripdoc.run("merge", "trips.json", "ours.json", "theirs.json", "-o", "merged.json")
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == "conflict: uniqueness-collision: Trip/3 name, startDate, endDate: ours added Trip/3; theirs added Trip/3 with the same values\n")
        #expect(!tripdoc.exists("merged.json"))
    }

    @Test func aReferenceToAnObjectTheOtherSideDeletedIsAConflict() throws {
        // Ours deletes Trip/1 with its bucket list and place to stay; theirs adds an item to it
        // and moves another there.
        let text = String(decoding: try tripdoc.contents("trips.json"), as: UTF8.self)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !(line.contains(#""trip":"1"}"#) || line.contains(#"{"$id":"1","bucketList""#))
        }
        try Data(kept.joined(separator: "\n").utf8).write(to: tripdoc.folder.appendingPathComponent("ours.json"))
        #expect(try tripdoc.run("inspect", "ours.json", "--check").status == 0)
        let outcome = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "merged.json")
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout == """
                conflict: reference-to-deleted: BucketListItem/10 trip: ours deleted Trip/1; theirs made it refer to Trip/1
                conflict: reference-to-deleted: BucketListItem/4 trip: ours deleted Trip/1; theirs made it refer to Trip/1

                """)
        #expect(!tripdoc.exists("merged.json"))
    }

    @Test func keepConflictsWritesEitherSidesVersion() throws {
        try edited("ours.json", [(#""destination":"Cusco""#, #""destination":"Quito""#)])
        let keptOurs = try tripdoc.run(
            "merge", "trips.json", "ours.json", "trips-edited.json", "-o", "ours-kept.json", "--keep-conflicts", "ours")
        #expect(keptOurs.status == 1)
        #expect(keptOurs.stdout.hasPrefix("conflict: changed-on-both-sides: Trip/2 destination"))
        // Ours' Quito, with theirs' other changes.
        let fromOurs = try tripdoc.run("diff", "ours.json", "ours-kept.json")
        #expect(fromOurs.stdout.hasSuffix("1 added, 1 removed, 1 changed\n"), "\(fromOurs.stdout)")
        #expect(!fromOurs.stdout.contains("Lima"))
        // Theirs' Lima; ours changed nothing else, so the result is theirs.
        let keptTheirs = try tripdoc.run(
            "merge", "trips.json", "ours.json", "trips-edited.json", "-o", "theirs-kept.json", "--keep-conflicts", "theirs")
        #expect(keptTheirs.status == 1)
        #expect(try tripdoc.run("diff", "trips-edited.json", "theirs-kept.json") == .init(status: 0, stdout: "", stderr: ""))
    }

    @Test func mergingIntoOursNeedsForceAsAGitDriverGivesIt() throws {
        try writeIndependentOurs()
        let refused = try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "ours.json")
        #expect(refused.status == 2)
        #expect(try tripdoc.run("merge", "trips.json", "ours.json", "trips-edited.json", "-o", "ours.json", "--force").status == 0)
        #expect(try tripdoc.run("diff", "trips-edited.json", "ours.json").stdout.contains("Kyoto"))
    }

    @Test func badInputsExitWithTwoAndWriteNothing() throws {
        #expect(try tripdoc.run("convert", "trips-edited.json", "other.json").status == 0)
        let cases: [([String], String)] = [
            (["merge", "trips.json", "trips.json", "other.json", "-o", "out.json"], "other.json is store "),
            (["merge", "trips.json", "truncated.json", "trips-edited.json", "-o", "out.json"], "truncated.json"),
            (["merge", "trips.json", "missing.json", "trips-edited.json", "-o", "out.json"], "cannot read missing.json"),
            (["merge", "trips.json", "trips.json", "trips-edited.json", "-o", "out.json", "--keep-conflicts", "both"], "--keep-conflicts must be ours or theirs"),
            (["merge", "trips.json", "trips.json", "trips-edited.json", "-o", "trips-edited.json", "--force"], "the output trips-edited.json is the input"),
        ]
        for (arguments, message) in cases {
            let outcome = try tripdoc.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout == "", "\(arguments)")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: \(message)"), "\(arguments): \(outcome.stderr)")
            #expect(!tripdoc.exists("out.json"), "\(arguments)")
        }
    }
}
