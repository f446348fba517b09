import Foundation
import Testing

/// `tripdoc diff --patch` and `tripdoc patch` end to end: a patch turns A into B in every format
/// pair and back with --reverse; a stale patch is refused naming the object and property;
/// --partial; bad inputs exit with 2 and write nothing.
@Suite struct PatchCommandTests {
    let tripdoc: TripDocRunner
    static let store = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"
    static let extensions = ["json", "plist", "tripbundle"]

    init() throws { tripdoc = try TripDocRunner() }

    /// Writes `name` as trips.json with `replacements` made in its text.
    func edited(_ name: String, from source: String = "trips.json", _ replacements: [(String, String)]) throws {
        var text = String(decoding: try tripdoc.contents(source), as: UTF8.self)
        for (old, new) in replacements {
            #expect(text.contains(old), "\(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    @Test func aPatchPipedIntoPatchGivesBInEveryFormatPair() throws {
        for ext in Self.extensions {
            #expect(try tripdoc.run("convert", "trips.json", "a.\(ext)", "--store-identifier", Self.store).status == 0)
            #expect(try tripdoc.run("convert", "trips-edited.json", "b.\(ext)", "--store-identifier", Self.store).status == 0)
        }
        for first in Self.extensions {
            for second in Self.extensions {
                let made = try tripdoc.run("diff", "a.\(first)", "b.\(second)", "--patch")
                #expect(made.status == 1 && made.stderr == "", "\(first) \(second): \(made.stderr)")
                let out = "out-\(first)-\(second).\(second)"
                let applied = try tripdoc.run(["patch", "a.\(first)", "-", "-o", out], input: Data(made.stdout.utf8))
                #expect(applied == .init(status: 0, stdout: "", stderr: ""), "\(first) \(second)")
                #expect(try tripdoc.run("diff", out, "b.\(second)") == .init(status: 0, stdout: "", stderr: ""), "\(first) \(second)")
                // --reverse turns B back into A.
                try Data(made.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
                let back = "back-\(first)-\(second).\(first)"
                #expect(try tripdoc.run("patch", "b.\(second)", "p.patch", "-o", back, "--reverse").status == 0)
                #expect(try tripdoc.run("diff", back, "a.\(first)") == .init(status: 0, stdout: "", stderr: ""), "\(first) \(second)")
            }
        }
    }

    @Test func aPatchBetweenStoresWithOtherKeysGivesB() throws {
        #expect(try tripdoc.run("convert", "trips-edited.json", "other.plist", "--renumber").status == 0)
        let made = try tripdoc.run("diff", "trips.json", "other.plist", "--patch")
        #expect(made.status == 1)
        #expect(try tripdoc.run(["patch", "trips.json", "-", "-o", "out.tripbundle"], input: Data(made.stdout.utf8)).status == 0)
        #expect(try tripdoc.run("diff", "out.tripbundle", "other.plist") == .init(status: 0, stdout: "", stderr: ""))
    }

    @Test func thePatchIsRecordedAsOneTransactionByItsAuthor() throws {
        let made = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--patch")
        try Data(made.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
        #expect(try tripdoc.run("patch", "trips.json", "p.patch", "-o", "out.json").status == 0)
        #expect(try tripdoc.run("patch", "trips.json", "p.patch", "-o", "nightly.json", "--author", "nightly").status == 0)
        #expect(try tripdoc.run("history", "out.json", "--author", "tripdoc-patch").stdout.contains("tripdoc-patch"))
        let nightly = try tripdoc.run("history", "nightly.json", "--json")
        #expect(nightly.stdout.contains("\"nightly\""))
        #expect(!nightly.stdout.contains("tripdoc-patch"))
    }

    @Test func aStalePatchIsRefusedNamingTheObjectAndProperty() throws {
        let made = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--patch")
        try Data(made.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
        try edited("stale.json", [(#""destination":"Cusco""#, #""destination":"Quito""#)])
        let before = try tripdoc.contents("stale.json")
        let outcome = try tripdoc.run("patch", "stale.json", "p.patch", "-o", "out.json")
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "tripdoc: the patch does not apply: Trip/2 destination: the patch expects \"Cusco\", the document has "
                + "\"Quito\" (the document changed since the patch was made; --partial applies the rest)\n")
        #expect(!tripdoc.exists("out.json"))
        #expect(try tripdoc.contents("stale.json") == before)
    }

    @Test func partialAppliesTheRestAndListsWhatItSkipped() throws {
        let made = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--patch")
        try Data(made.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
        try edited("stale.json", [(#""destination":"Cusco""#, #""destination":"Quito""#)])
        let outcome = try tripdoc.run("patch", "stale.json", "p.patch", "-o", "out.json", "--partial")
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "tripdoc: skipped: Trip/2 destination: the patch expects \"Cusco\", the document has \"Quito\"\n")
        // Everything else of B is there: only Quito against Lima remains.
        let remaining = try tripdoc.run("diff", "out.json", "trips-edited.json")
        #expect(remaining.status == 1)
        #expect(remaining.stdout.hasSuffix("~ Trip/2\n    destination: \"Quito\" → \"Lima\"\n0 added, 0 removed, 1 changed\n"), "\(remaining.stdout)")
    }

    @Test func anObjectTheDocumentAlreadyHoldsOrThatCollidesIsStale() throws {
        let made = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--patch")
        try Data(made.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
        // B itself already holds the added item and lacks the removed place to stay.
        let outcome = try tripdoc.run("patch", "trips-edited.json", "p.patch", "-o", "out.json")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("BucketListItem/10: the patch adds it, but the document already holds an object with this key"))
        #expect(!tripdoc.exists("out.json"))
    }

    @Test func badInputsExitWithTwoAndWriteNothing() throws {
        let made = try tripdoc.run("diff", "trips.json", "trips-edited.json", "--patch")
        let patch = made.stdout
        try Data(patch.utf8).write(to: tripdoc.folder.appendingPathComponent("p.patch"))
        try Data("{\"format\": \"tripdoc-patch\", \"version\": 1}".utf8).write(to: tripdoc.folder.appendingPathComponent("short.patch"))
        try Data(patch.replacingOccurrences(of: "\"schemaVersion\" : \"1.0.0\"", with: "\"schemaVersion\" : \"2.0.0\"").utf8)
            .write(to: tripdoc.folder.appendingPathComponent("version.patch"))
        #expect(try tripdoc.run("convert", "trips.json", "other.json").status == 0)
        try edited("optional.json", [(#"{"name":"placeName","optional":false"#, #"{"name":"placeName","optional":true"#)])
        let cases: [([String], String)] = [
            (["patch", "trips.json", "unknown-format.txt", "-o", "out.json"], "unknown-format.txt is not a tripdoc patch: "),
            (["patch", "trips.json", "short.patch", "-o", "out.json"], "short.patch is not a tripdoc patch: at the top level: the member \"a\" is missing"),
            (["patch", "trips.json", "trips.json", "-o", "out.json"], "trips.json is not a tripdoc patch: at the top level: the member \"format\" is missing"),
            (["patch", "trips.json", "version.patch", "-o", "out.json"], "trips.json has schema version 1.0.0, but the patch is for version 2.0.0"),
            (["patch", "other.json", "p.patch", "-o", "out.json"], "other.json is store "),
            (["patch", "truncated.json", "p.patch", "-o", "out.json"], "truncated.json"),
            (["patch", "dangling-reference.json", "p.patch", "-o", "out.json"], "dangling-reference.json has 1 integrity problem(s)"),
            (["patch", "trips.json", "p.patch", "-o", "trips.json", "--force"], "the output trips.json is the input"),
            (["diff", "trips.json", "trips-edited.json", "--patch", "--json"], "--patch covers whole documents"),
            (["diff", "trips.json", "optional.json", "--patch"], "the documents' schemas differ (LivingAccommodation.placeName: String → String?)"),
        ]
        for (arguments, message) in cases {
            let outcome = try tripdoc.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout == "", "\(arguments)")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: \(message)"), "\(arguments): \(outcome.stderr)")
            #expect(!tripdoc.exists("out.json"), "\(arguments)")
        }
        #expect(try tripdoc.run("diff", "trips.json", "trips.json").status == 0)
    }
}
