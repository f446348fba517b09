import Foundation
import Testing

/// The tool end to end: the exact output, error messages and exit statuses users' scripts rely on.
@Suite struct CommandLineTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    // MARK: Basics

    @Test func printsItsVersion() throws {
        #expect(try tripdoc.run("--version") == .init(status: 0, stdout: "0.1.0\n", stderr: ""))
    }

    @Test func helpListsTheCommandsWithExamples() throws {
        let outcome = try tripdoc.run("--help")
        #expect(outcome.status == 0)
        for text in ["sample", "show", "inspect", "convert", "Examples:", "tripdoc convert trips.json copy.json"] {
            #expect(outcome.stdout.contains(text), "\(text)")
        }
    }

    @Test func aUsageErrorExitsWithTwo() throws {
        let outcome = try tripdoc.run("show", "trips.json", "--limit", "many")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: The value 'many' is invalid for '--limit <limit>'"))
        #expect(outcome.stdout == "")
    }

    // MARK: sample

    @Test func sampleIsDeterministic() throws {
        #expect(try tripdoc.run("sample", "-o", "a.json", "--trips", "50", "--seed", "9").status == 0)
        #expect(try tripdoc.run("sample", "-o", "b.json", "--trips", "50", "--seed", "9").status == 0)
        #expect(try tripdoc.run("sample", "-o", "c.json", "--trips", "50", "--seed", "10").status == 0)
        #expect(try tripdoc.contents("a.json") == tripdoc.contents("b.json"))
        #expect(try tripdoc.contents("a.json") != tripdoc.contents("c.json"))
        #expect(try tripdoc.contents("trips.json") == tripdoc.run("sample", "-o", "-", "--trips", "2").stdout.data(using: .utf8))
    }

    /// The sample goes to standard output as it is made (and to a FIFO, written into), with
    /// the bytes a file gets, in every format, history included.
    @Test(arguments: [("json", "json"), ("plist", "plist"), ("bundle", "tripbundle")])
    func sampleOnStandardOutputIsTheFilesBytes(format: String, fileExtension: String) throws {
        let arguments = ["--trips", "3000", "--seed", "4", "--history"]
        #expect(try tripdoc.run(["sample", "-o", "s.\(fileExtension)"] + arguments).status == 0)
        let piped = tripdoc.folder.appendingPathComponent("piped")
        #expect(FileManager.default.createFile(atPath: piped.path, contents: nil))
        let output = try FileHandle(forWritingTo: piped)
        let ending = try tripdoc.run(["sample", "-o", "-", "--to", format] + arguments, standardOutput: output)
        try output.close()
        #expect(ending == .init(status: 0, byASignal: false, stderr: ""))
        #expect(try Data(contentsOf: piped) == tripdoc.contents("s.\(fileExtension)"))

        #expect(mkfifo(tripdoc.path("fifo"), 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat fifo > from-fifo"]
        reader.currentDirectoryURL = tripdoc.folder
        try reader.run()
        #expect(try tripdoc.run(["sample", "-o", "fifo", "--to", format] + arguments).status == 0)
        reader.waitUntilExit()
        #expect(try tripdoc.contents("from-fifo") == tripdoc.contents("s.\(fileExtension)"))
    }

    @Test func sampleRefusesToReplaceAFileWithoutForce() throws {
        let before = try tripdoc.contents("trips.json")
        #expect(
            try tripdoc.run("sample", "-o", "trips.json", "--trips", "1")
                == .init(status: 2, stdout: "", stderr: "tripdoc: error: trips.json already exists; pass --force to replace it\n"))
        #expect(try tripdoc.contents("trips.json") == before)
        #expect(try tripdoc.run("sample", "-o", "trips.json", "--trips", "1", "--force").status == 0)
        #expect(try tripdoc.contents("trips.json") != before)
    }

    @Test(arguments: ["10000001", "9223372036854775807", "4611686018427387904", "-1"])
    func sampleRefusesATripCountOutOfRange(count: String) throws {
        let outcome = try tripdoc.run("sample", "-o", "big.json", "--trips", count)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: --trips must be from 0 to 10000000, not \(count)\n"))
        #expect(!tripdoc.exists("big.json"))
    }

    @Test(arguments: [["show", "trips.json", "--limit", "-3"], ["history", "story.json", "--limit", "-3"]])
    func aNegativeLimitIsRefusedAsOutOfRangeNotAsMissing(arguments: [String]) throws {
        let outcome = try tripdoc.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: --limit must be 0 or more, not -3\n"))
    }

    @Test func sampleNeedsAFormatItKnows() throws {
        #expect(
            try tripdoc.run("sample", "-o", "trips.csv")
                == .init(
                    status: 2, stdout: "",
                    stderr: "tripdoc: error: cannot tell which format to write trips.csv in: use an extension (.json, .plist, .tripbundle) or --to\n"))
        #expect(!tripdoc.exists("trips.csv"))
    }

    // MARK: show

    @Test func showPrintsATablePerEntity() throws {
        let outcome = try tripdoc.run("show", "trips.json", "--entity", "Trip")
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                Trip (2 of 2)
                $id  name              destination  startDate             endDate               bucketList     livingAccommodation
                1    Tokyo Honeymoon   Tokyo        2034-03-16T00:00:00Z  2034-03-20T00:00:00Z  [1,2,3]        →1
                2    Cusco Conference  Cusco        2029-05-05T00:00:00Z  2029-05-08T00:00:00Z  [4,5,6,7,8,9]  →2

                """)
    }

    @Test func showLimitsRowsAndPrintsJSON() throws {
        let outcome = try tripdoc.run("show", "trips.json", "--limit", "1", "--json")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let snapshots = try #require(object["snapshots"] as? [String: [[String: Any]]])
        #expect(snapshots.keys.sorted() == ["BucketListItem", "LivingAccommodation", "Trip"])
        #expect(snapshots.values.allSatisfy { $0.count == 1 })
        #expect(snapshots["Trip"]?.first?["startDate"] as? String == "2034-03-16T00:00:00Z")
    }

    @Test func showReadsStandardInput() throws {
        let outcome = try tripdoc.run("show", "-", "--entity", "LivingAccommodation", input: try tripdoc.contents("trips.json"))
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("LivingAccommodation (2 of 2)\n"))
    }

    @Test func showRefusesAnUnknownEntity() throws {
        #expect(
            try tripdoc.run("show", "trips.json", "--entity", "Boat")
                == .init(
                    status: 2, stdout: "",
                    stderr: "tripdoc: error: trips.json has no entity 'Boat'; it has BucketListItem, LivingAccommodation, Trip\n"))
    }

    // MARK: inspect

    @Test func inspectJSONHasTheShapeScriptsRelyOn() throws {
        let outcome = try tripdoc.run("inspect", "trips.json", "--json")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "json")
        #expect(object["storeIdentifier"] as? String == "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE")
        #expect(object["counts"] as? [String: Int] == ["Trip": 2, "BucketListItem": 9, "LivingAccommodation": 2])
        #expect(object["historyTransactions"] as? Int == 0)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func inspectReportsIntegrityProblems() throws {
        let outcome = try tripdoc.run("inspect", "dangling-reference.json", "--json")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: String]])
        #expect(
            problems == [
                [
                    "kind": "danglingReference", "identifier": "Trip/1", "property": "bucketList",
                    "message": "points at BucketListItem/99, which the document does not hold",
                ]
            ])
        let text = try tripdoc.run("inspect", "dangling-reference.json").stdout
        #expect(text.contains("Integrity:         1 problem\n  Trip/1.bucketList: points at BucketListItem/99"))
    }

    /// A large bundle entry is kept aside in the temporary folder while it inflates; when that
    /// folder is missing or full, the message says so rather than blaming the bundle.
    @Test func aTemporaryFolderThatCannotBeUsedIsNotReportedAsDamage() throws {
        // Its bucket-list entry inflates past 16 MiB.
        try #require(tripdoc.run("sample", "-o", "large.tripbundle", "--trips", "40000").status == 0)
        let outcome = try tripdoc.run(["inspect", "large.tripbundle"], environment: ["TMPDIR": "/nonexistent-tripdoc-folder"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("in the temporary folder /nonexistent-tripdoc-folder/ to keep it aside failed: No such file or directory"))
        #expect(outcome.stderr.contains("The bundle is not at fault"))
        #expect(!outcome.stderr.contains("damaged"))
        #expect(try tripdoc.run("inspect", "large.tripbundle").status == 0)
    }

    /// Whether this process may mount a file system (root with CAP_SYS_ADMIN): tried once.
    static let canMountATemporaryFileSystem: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("tripdoc-mount-\(UUID().uuidString)").path
        guard mkdir(probe, 0o700) == 0 else { return false }
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        return umount(probe) == 0
    }()

    /// A full temporary folder (a 1 MiB tmpfs) is reported as full, not as damage.
    @Test(.enabled(if: canMountATemporaryFileSystem, "needs root to mount a small tmpfs"))
    func aFullTemporaryFolderIsNotReportedAsDamage() throws {
        try #require(tripdoc.run("sample", "-o", "large.tripbundle", "--trips", "40000").status == 0)
        let full = tripdoc.path("full")
        #expect(mkdir(full, 0o700) == 0)
        try #require(mount("tmpfs", full, "tmpfs", 0, "size=1m") == 0)
        defer { umount(full) }
        let outcome = try tripdoc.run(["inspect", "large.tripbundle"], environment: ["TMPDIR": full])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("in the temporary folder \(full)/ to keep it aside failed: No space left on device"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("The bundle is not at fault"))
        #expect(!outcome.stderr.contains("damaged"))
    }

    /// A stream is kept aside in the temporary folder as it arrives, and refused as soon as it
    /// passes the document-size limit, whatever follows.
    @Test func aStreamLargerThanTheLimitIsRefusedWhenItPassesIt() throws {
        let input = Data(repeating: UInt8(ascii: " "), count: 12 << 20) + Data("{}".utf8)
        let outcome = try tripdoc.run(["inspect", "-", "--max", "document-size=8M"], input: input)
        #expect(outcome.status == 2)
        // Refused on the read that passes 8 MiB (how much a read gives depends on the pipe).
        #expect(outcome.stderr.hasPrefix("tripdoc: error: -: the file ("), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(" bytes) is larger than the document-size limit of 8M bytes"), "\(outcome.stderr)")
        let trips = try tripdoc.contents("trips.json")
        #expect(try tripdoc.run(["show", "-", "--entity", "Trip"], input: trips).stdout == (try tripdoc.run("show", "trips.json", "--entity", "Trip").stdout))
    }

    @Test func aHugeValueInAnErrorIsAbbreviated() throws {
        var document = try #require(try JSONSerialization.jsonObject(with: tripdoc.contents("trips.json")) as? [String: Any])
        var snapshots = try #require(document["snapshots"] as? [String: [[String: Any]]])
        snapshots["Trip"]![0]["startDate"] = String(repeating: "9", count: 1_000_000)
        document["snapshots"] = snapshots
        try JSONSerialization.data(withJSONObject: document).write(to: tripdoc.folder.appendingPathComponent("huge.json"))
        let outcome = try tripdoc.run("show", "huge.json")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.count < 500, "\(outcome.stderr.count) characters")
        #expect(outcome.stderr.contains(#", found "999999999999999999999999999999999999999999999999999999999999…(1000000 characters)…99999999999999999999". "#))
    }

    @Test func aRemapTableOfTheWrongShapeNamesTheMemberAndWhatWasExpected() throws {
        try Data(#"{"fromStore": 3}"#.utf8).write(to: tripdoc.folder.appendingPathComponent("not-a-table.json"))
        #expect(
            try tripdoc.run("diff", "trips.json", "trips.json", "--map", "not-a-table.json")
                == .init(
                    status: 2, stdout: "",
                    stderr: "tripdoc: error: not-a-table.json is not a remap table written by tripdoc convert --remap-table: "
                        + "at fromStore: expected String (Expected to decode String but found number instead.)\n"))
    }

    @Test func aRemapTableThatIsNotJSONNamesTheLineAndColumn() throws {
        try Data("{\"identifiers\": {},\n \"tokens\": [1, 2,, 3]}".utf8)
            .write(to: tripdoc.folder.appendingPathComponent("broken-table.json"))
        let outcome = try tripdoc.run("diff", "trips.json", "trips.json", "--map", "broken-table.json")
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "tripdoc: error: broken-table.json is not a remap table written by tripdoc convert --remap-table: "
                + "at line 2, column 18: not valid JSON ( \"tokens\": [1, 2,, 3]})\n")
    }

    @Test func inspectCheckExitsWithOneOnlyWhenThereAreProblems() throws {
        let damaged = try tripdoc.run("inspect", "dangling-reference.json", "--check")
        #expect(damaged.status == 1)
        #expect(damaged.stdout == (try tripdoc.run("inspect", "dangling-reference.json").stdout))
        #expect(damaged.stderr == "")
        #expect(try tripdoc.run("inspect", "dangling-reference.json", "--check", "--json").status == 1)
        #expect(try tripdoc.run("inspect", "trips.json", "--check").status == 0)
        // A document that cannot be read is still an error, not a problem.
        #expect(try tripdoc.run("inspect", "missing.json", "--check").status == 2)
    }

    // MARK: convert

    @Test func convertMakesANewStoreWithEveryIdentifierRemapped() throws {
        let input = try tripdoc.contents("trips.json")
        let outcome = try tripdoc.run(
            "convert", "trips.json", "copy.json", "--store-identifier", "NEW-STORE", "--remap-table", "map.json")
        #expect(outcome == .init(status: 0, stdout: "", stderr: ""))
        #expect(try tripdoc.contents("trips.json") == input)
        let copy = String(decoding: try tripdoc.contents("copy.json"), as: UTF8.self)
        #expect(copy.contains(#""storeIdentifier": "NEW-STORE""#))
        // The old store is named once: in the header, as where the copy came from.
        #expect(copy.components(separatedBy: "C15C0289").count == 2)
        #expect(copy.contains(#""derivedFrom": "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE:0""#))
        let table = try #require(
            try JSONSerialization.jsonObject(with: tripdoc.contents("map.json")) as? [String: Any])
        #expect(table["fromStore"] as? String == "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE")
        #expect(table["toStore"] as? String == "NEW-STORE")
        #expect((table["identifiers"] as? [String: [String: String]])?["Trip"] == ["1": "1", "2": "2"])
        // Same content: showing both gives the same tables.
        #expect(try tripdoc.run("show", "copy.json").stdout == tripdoc.run("show", "trips.json").stdout)
    }

    @Test func convertRenumbersOnRequest() throws {
        #expect(try tripdoc.run("convert", "trips.json", "-", "--renumber", "--store-identifier", "S").status == 0)
        let outcome = try tripdoc.run("convert", "trips.json", "copy.json", "--renumber")
        #expect(outcome.status == 0)
        #expect(try tripdoc.run("inspect", "copy.json", "--json").stdout.contains(#""problems" : [\#n\#n  ]"#))
    }

    @Test func convertNeverReplacesItsInputOrAnExistingFile() throws {
        let input = try tripdoc.contents("trips.json")
        #expect(
            try tripdoc.run("convert", "trips.json", "trips.json", "--force")
                == .init(status: 2, stdout: "", stderr: "tripdoc: error: the output trips.json is the input; write to another file\n"))
        #expect(try tripdoc.run("convert", "trips.json", "dangling-reference.json").status == 2)
        #expect(try tripdoc.contents("trips.json") == input)
    }

    @Test func convertRefusesADocumentWithProblemsAndWritesNothing() throws {
        let outcome = try tripdoc.run("convert", "dangling-reference.json", "out.json")
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr
                == "tripdoc: error: dangling-reference.json has 1 integrity problem(s); run tripdoc inspect "
                + "dangling-reference.json to see them all. First: Trip/1.bucketList: points at BucketListItem/99, "
                + "which the document does not hold\n")
        #expect(!tripdoc.exists("out.json"))
    }

    @Test func aDocumentInAnotherOrderConvertsToTheSameBytesAsTripdocsOwn() throws {
        // The same trips, edited by hand: snapshots listed last-first, the schema before the header.
        let original = try JSONSerialization.jsonObject(with: tripdoc.contents("trips.json")) as! [String: Any]
        var edited = original
        var snapshots = original["snapshots"] as! [String: [Any]]
        for (entity, list) in snapshots { snapshots[entity] = list.reversed() }
        edited["snapshots"] = snapshots
        let text = try JSONSerialization.data(withJSONObject: edited, options: [.prettyPrinted])
        try text.write(to: tripdoc.folder.appendingPathComponent("reordered.json"))
        for output in ["a.plist", "a.json", "a.tripbundle"] {
            let name = String(output.dropFirst(2))
            #expect(try tripdoc.run("convert", "trips.json", "own.\(name)", "--store-identifier", "S").status == 0)
            let outcome = try tripdoc.run("convert", "reordered.json", output, "--store-identifier", "S")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try tripdoc.contents(output) == tripdoc.contents("own.\(name)"), "\(output)")
        }
    }

    @Test func showOfOneEntityCountsTheRestWithoutPrintingThem() throws {
        for file in ["trips.json", "trips.plist", "trips.tripbundle"] {
            let outcome = try tripdoc.run("show", file, "--entity", "BucketListItem", "--limit", "2")
            #expect(outcome.status == 0)
            let lines = outcome.stdout.split(separator: "\n")
            #expect(lines.first == "BucketListItem (2 of 9)", "\(file)")
            #expect(lines.count == 4, "a title, a header row and two rows")
        }
    }

    // MARK: Bad input

    @Test(arguments: [
        (
            "truncated.json",
            "tripdoc: error: truncated.json: line 39, column 18: at snapshots.Trip[0]: a string is not closed before the end of the file. "
                + "The file is damaged or is not a tripdoc document\n"
        ),
        (
            "wrong-value-type.json",
            "tripdoc: error: wrong-value-type.json: line 39, column 163: at snapshots.Trip[0].startDate: expected a "
                + "date in ISO 8601 form such as \"2024-06-01T09:30:00Z\", found \"next tuesday\". Fix the value in the "
                + "file, or restore the document from a copy\n"
        ),
        (
            "unknown-format.txt",
            "tripdoc: error: unknown-format.txt is not a document tripdoc can read: it starts with \"name,destination\", "
                + "expected a JSON document (starting with '{') or an XML property list (starting with '<?xml' or '<plist') "
                + "or a zipped bundle (starting with 'PK')\n"
        ),
        ("missing.json", "tripdoc: error: cannot read missing.json: no such file\n"),
    ])
    func badInputIsNamedWithItsPlaceAndNothingIsWritten(file: String, message: String) throws {
        for command in [["show", file], ["inspect", file], ["convert", file, "out.json"]] {
            let outcome = try tripdoc.run(command)
            #expect(outcome == .init(status: 2, stdout: "", stderr: message), "\(command)")
        }
        #expect(!tripdoc.exists("out.json"))
    }
}

/// The property-list format through the tool: conversions both ways and hostile files.
@Suite struct PlistCommandLineTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    @Test func convertsJSONToPlistAndBackWithTheSameContents() throws {
        #expect(try tripdoc.run("convert", "trips.json", "trips-copy.plist", "--store-identifier", "P").status == 0)
        #expect(try tripdoc.run("convert", "trips-copy.plist", "back.json", "--store-identifier", "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE").status == 0)
        #expect(try tripdoc.contents("back.json") == tripdoc.contents("trips.json"))
        let inspect = try tripdoc.run("inspect", "trips-copy.plist", "--json").stdout
        #expect(inspect.contains(#""format" : "plist""#))
    }

    @Test func sampleWritesAPlistChosenByExtensionOrByTo() throws {
        #expect(try tripdoc.run("sample", "-o", "s.plist", "--trips", "2").status == 0)
        #expect(try tripdoc.contents("s.plist") == tripdoc.contents("trips.plist"))
        let piped = try tripdoc.run("sample", "-o", "-", "--trips", "2", "--to", "plist")
        #expect(piped.stdout.data(using: .utf8) == (try tripdoc.contents("trips.plist")))
    }

    @Test func aHundredThousandNestedDictsAreRefusedWithExitTwo() throws {
        let depth = 100_000
        let text = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>snapshots</key>"
            + String(repeating: "<dict><key>a</key>", count: depth) + "<true/>" + String(repeating: "</dict>", count: depth)
            + "</dict></plist>\n"
        try Data(text.utf8).write(to: tripdoc.folder.appendingPathComponent("deep.plist"))
        let outcome = try tripdoc.run("convert", "deep.plist", "out.json")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: deep.plist: line 2, column "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Excessive depth in document: 256"), "\(outcome.stderr)")
        #expect(!tripdoc.exists("out.json"))
    }

    @Test func aPlistIsRecognisedByItsContentsWhateverItsName() throws {
        #expect(try tripdoc.run("convert", "trips.plist", "renamed.json", "--to", "plist").status == 0)
        #expect(try tripdoc.run("show", "renamed.json", "--entity", "Trip").stdout.hasPrefix("Trip (2 of 2)"))
    }

    @Test(arguments: [
        ("billion-laughs.plist", "billion-laughs.plist: line 2: the document type declares an internal subset"),
        ("xxe.plist", "xxe.plist: line 2: the document type declares an internal subset"),
        ("truncated.plist", "truncated.plist: line 21, column 1472: at schema.entities[2].relationships[1].destination: the XML is not well-formed"),
        ("invalid-utf8.plist", "invalid-utf8.plist: line 42, column 314: at snapshots.Trip[0].name: the XML is not well-formed: Input is not proper UTF-8"),
        ("wrong-element.plist", "wrong-element.plist: line 7, column 27: at header.formatVersion: expected an <integer>, found <string>"),
        ("bad-date.plist", "bad-date.plist: line 42, column 346: at snapshots.Trip[0].startDate: expected a date such as 2024-06-01T09:30:00Z in <date>, found \"tomorrow\""),
    ])
    func hostilePlistsAreRefusedWithExitTwoAndNoOutput(file: String, message: String) throws {
        for command in [["show", file], ["inspect", file], ["convert", file, "out.json"]] {
            let outcome = try tripdoc.run(command)
            #expect(outcome.status == 2, "\(command)")
            #expect(outcome.stdout == "")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: " + message), "\(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(!outcome.stderr.contains("root:"))
        }
        #expect(!tripdoc.exists("out.json"))
    }
}

/// The zipped bundle through the tool: conversions, the entry listing, hostile archives.
@Suite struct BundleCommandLineTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    @Test func convertsBetweenAllThreeFormats() throws {
        #expect(try tripdoc.run("convert", "trips.json", "a.tripbundle", "--store-identifier", "B").status == 0)
        #expect(try tripdoc.run("convert", "a.tripbundle", "b.plist", "--store-identifier", "P").status == 0)
        #expect(
            try tripdoc.run("convert", "b.plist", "c.json", "--store-identifier", "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE").status
                == 0)
        #expect(try tripdoc.contents("c.json") == tripdoc.contents("trips.json"))
        #expect(try tripdoc.run("sample", "-o", "s.tripbundle", "--trips", "2").status == 0)
        #expect(try tripdoc.contents("s.tripbundle") == tripdoc.contents("trips.tripbundle"))
    }

    @Test func inspectListsAndVerifiesTheEntries() throws {
        let outcome = try tripdoc.run("inspect", "trips.tripbundle", "--json")
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "bundle")
        #expect(object["counts"] as? [String: Int] == ["Trip": 2, "BucketListItem": 9, "LivingAccommodation": 2])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(
            entries.compactMap { $0["name"] as? String } == [
                "manifest.json", "header.json", "schema.json", "snapshots/BucketListItem.json",
                "snapshots/LivingAccommodation.json", "snapshots/Trip.json",
            ])
        #expect(entries.allSatisfy { $0["crc"] as? String == "ok" && $0["compressedSize"] is Int && $0["ratio"] is Double })
        let text = try tripdoc.run("inspect", "trips.tripbundle").stdout
        #expect(text.contains("Archive entries:\n  name "))
    }

    // MARK: Progress

    @Test func aConversionShowsProgressOnlyWhenAsked() throws {
        let quiet = try tripdoc.run(["convert", "trips.json", "quiet.plist"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "", "standard error is not a terminal here")
        let shown = try tripdoc.run(["convert", "trips.json", "shown.plist"], environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(shown.status == 0)
        #expect(shown.stderr.contains("tripdoc: converting trips.json to shown.plist: 0 entities, 0 snapshots"), "\(shown.stderr)")
        // Renumbering converts in memory: reading, then writing with a total.
        let renumbered = try tripdoc.run(
            ["convert", "trips.json", "renumbered.plist", "--renumber"], environment: ["TRIPDOC_PROGRESS": "1"])
        #expect(renumbered.stderr.contains("tripdoc: reading trips.json: 0 entities, 0 snapshots"), "\(renumbered.stderr)")
        #expect(
            renumbered.stderr.contains("tripdoc: writing renumbered.plist: 0 entities, 0 of 13 snapshots (0%"),
            "\(renumbered.stderr)")
        #expect(shown.stderr.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
        #expect(try tripdoc.contents("quiet.plist").count == tripdoc.contents("shown.plist").count)
    }

    // MARK: Reading limits

    @Test func aDocumentOverALimitIsRefusedNamingTheLimitAndHowToRaiseIt() throws {
        for command in [["show", "trips.json"], ["inspect", "trips.json"], ["history", "trips.json"], ["convert", "trips.json", "out.plist"]] {
            let outcome = try tripdoc.run(command + ["--max", "snapshot-count=12"])
            #expect(outcome.status == 2, "\(command)")
            #expect(outcome.stdout == "")
            #expect(
                outcome.stderr.hasSuffix(
                    "the document holds more than the snapshot-count limit of 12 snapshots. If the file is trusted, "
                        + "raise the limit: add --max snapshot-count=N after the command's name (tripdoc show --max "
                        + "snapshot-count=N FILE), or DocumentLimits.maximumSnapshotCount in the API\n"),
                "\(outcome.stderr)")
        }
        #expect(!tripdoc.exists("out.plist"))
        #expect(try tripdoc.run("show", "trips.json", "--max", "snapshot-count=13", "--max", "string-length=1K").status == 0)
        let diff = try tripdoc.run("diff", "trips.json", "trips.plist", "--max", "document-size=1K")
        #expect(diff.status == 2)
        #expect(diff.stderr.contains("is larger than the document-size limit of 1K bytes"), "\(diff.stderr)")
    }

    @Test func aBadLimitSettingIsAUsageError() throws {
        let outcome = try tripdoc.run("show", "trips.json", "--max", "depth=3")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: --max depth=3: there is no limit called 'depth'; the limits are document-size, "))
    }

    @Test(arguments: [
        ("zip-slip.tripbundle", "entry ../../evil.json: the entry name '../../evil.json' is refused"),
        ("absolute-path.tripbundle", "entry /etc/cron.d/evil: the entry name '/etc/cron.d/evil' is refused"),
        ("symlink.tripbundle", "entry snapshots/link.json: the entry is a symbolic link"),
        ("bomb.tripbundle", "entry external/bomb: the entry (1028 times) inflates to more than the compression-ratio limit of 200 times its compressed size"),
        ("truncated.tripbundle", "this is not a readable zip archive: it has no end-of-central-directory record (the file may be cut short)"),
        ("crc-corrupted.tripbundle", "entry snapshots/LivingAccommodation.json: the archive is damaged: ZIP bad CRC"),
        ("manifest-lies.tripbundle", "entry snapshots/Trip.json: the entry's contents do not match the SHA-256 digest in the manifest"),
        ("duplicate-names.tripbundle", "entry snapshots/Trip.json: the archive holds two entries with this name"),
    ])
    func hostileBundlesAreRefusedWithExitTwoAndNoOutput(file: String, message: String) throws {
        for command in [["show", file], ["inspect", file], ["convert", file, "out.json"]] {
            let outcome = try tripdoc.run(command)
            #expect(outcome.status == 2, "\(command)")
            #expect(outcome.stdout == "")
            #expect(outcome.stderr.hasPrefix("tripdoc: error: \(file): " + message), "\(outcome.stderr)")
        }
        #expect(!tripdoc.exists("out.json"))
        #expect(!tripdoc.exists("../evil.json"))
    }
}
