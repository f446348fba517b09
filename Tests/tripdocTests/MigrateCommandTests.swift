import Foundation
import Testing

/// `tripdoc schema`, `schema diff` and `migrate`, end to end.
@Suite struct MigrateCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    static let store = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"

    /// story.json's schema as a schema file, edited by `edit`, written to `name`.
    func writeSchema(_ name: String, _ edit: (String) -> String) throws {
        let printed = try tripdoc.run("schema", "story.json", "--json")
        #expect(printed.status == 0)
        try Data(edit(printed.stdout).utf8).write(to: tripdoc.folder.appendingPathComponent(name))
    }

    /// Version 2: Trip.destination renamed place, Trip.startDate renamed departure, a new
    /// optional Trip.notes.
    func writeVersion2(_ name: String = "v2.json") throws {
        try writeSchema(name) {
            $0.replacingOccurrences(
                of: #"{"name":"destination","optional":false,"options":[],"type":"String"}"#,
                with: #"{"name":"place","optional":false,"options":[],"originalName":"destination","type":"String"},"#
                    + #"{"name":"notes","optional":true,"options":[],"type":"String"}"#
            )
            .replacingOccurrences(
                of: #"{"name":"startDate","optional":false,"options":["preserveValueOnDeletion"],"type":"Date"}"#,
                with: #"{"name":"departure","optional":false,"options":["preserveValueOnDeletion"],"originalName":"startDate","type":"Date"}"#
            )
            // The constraint and the indexes name the new name.
            .replacingOccurrences(of: #""startDate","endDate"]"#, with: #""departure","endDate"]"#)
            .replacingOccurrences(of: #"["startDate"]"#, with: #"["departure"]"#)
            .replacingOccurrences(of: #""version": "1.0.0""#, with: #""version": "2.0.0""#)
        }
    }

    @Test func schemaPrintsTheVersionAndEachEntity() throws {
        let outcome = try tripdoc.run("schema", "story.json")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Schema version 1.0.0 (document story.json)\n\nBucketListItem\n  title: String\n"))
        #expect(outcome.stdout.contains("\nTrip\n  name: String  (preserveValueOnDeletion)\n"))
        #expect(outcome.stdout.contains("  bucketList: [BucketListItem]  (inverse trip, deleteRule cascade)\n"))
        #expect(outcome.stdout.contains("  #Unique(name, startDate, endDate)\n"))
    }

    @Test(arguments: ["json", "plist", "tripbundle"])
    func schemaJSONIsTheSameForEveryFormatAndReadsBackAsASchemaFile(format: String) throws {
        let fromJSON = try tripdoc.run("schema", "trips.json", "--json")
        let fromFormat = try tripdoc.run("schema", "trips.\(format)", "--json")
        #expect(fromFormat == fromJSON)
        try Data(fromJSON.stdout.utf8).write(to: tripdoc.folder.appendingPathComponent("schema.json"))
        #expect(try tripdoc.run("schema", "schema.json", "--json") == fromJSON)
        #expect(
            try tripdoc.run("schema", "diff", "trips.\(format)", "schema.json")
                == .init(
                    status: 0, stdout: "The schemas of trips.\(format) (1.0.0) and schema.json (1.0.0) are the same\n",
                    stderr: ""))
    }

    @Test func schemaDiffListsTheChangesAndWhetherALightweightMigrationCoversThem() throws {
        try writeVersion2()
        #expect(
            try tripdoc.run("schema", "diff", "story.json", "v2.json")
                == .init(
                    status: 1,
                    stdout: """
                        Schema 1.0.0 (story.json) → 2.0.0 (v2.json): 3 changes; a lightweight migration covers them
                          Trip.place: attribute renamed from destination
                          Trip.notes: attribute added
                          Trip.departure: attribute renamed from startDate

                        """, stderr: ""))
        try writeSchema("v3.json") {
            $0.replacingOccurrences(
                of: #"{"name":"isInPlan","optional":false,"options":[],"type":"Bool"}"#,
                with: #"{"name":"isInPlan","optional":false,"options":[],"type":"Int"}"#)
        }
        let outcome = try tripdoc.run("schema", "diff", "story.json", "v3.json", "--json")
        #expect(outcome.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["lightweight"] as? Bool == false)
        let change = try #require((object["changes"] as? [[String: Any]])?.first)
        #expect(change["entity"] as? String == "BucketListItem")
        #expect(change["property"] as? String == "isInPlan")
        #expect(change["change"] as? String == "typeChanged")
        #expect(change["description"] as? String == "type changed from Bool to Int")
        #expect(change["lightweight"] as? Bool == false)
    }

    @Test(arguments: ["json", "plist", "tripbundle"])
    func migrateRenamesAndAddsIntoAnyFormatKeepingTheStoreAndHistory(format: String) throws {
        try writeVersion2()
        let input = try tripdoc.contents("story.json")
        let outcome = try tripdoc.run("migrate", "story.json", "out.\(format)", "--schema", "v2.json")
        #expect(
            outcome
                == .init(
                    status: 0,
                    stdout: """
                        Migrated story.json from schema 1.0.0 to 2.0.0 into out.\(format): 8 snapshots, 3 changes
                          Trip.place: attribute renamed from destination
                          Trip.notes: attribute added
                          Trip.departure: attribute renamed from startDate

                        """, stderr: ""))
        #expect(try tripdoc.contents("story.json") == input)
        let inspected = try #require(
            try JSONSerialization.jsonObject(with: Data(tripdoc.run("inspect", "out.\(format)", "--json").stdout.utf8))
                as? [String: Any])
        #expect(inspected["storeIdentifier"] as? String == Self.store)
        #expect(inspected["schemaVersion"] as? String == "2.0.0")
        #expect((inspected["problems"] as? [Any])?.isEmpty == true)
        #expect(inspected["historyTokenSpan"] as? [String: String] == ["first": "\(Self.store):1", "last": "\(Self.store):4"])
        // The tombstone's startDate is now departure.
        #expect(
            try tripdoc.run("history", "out.\(format)", "--after", "3", "--entity", "Trip").stdout == """
                \(Self.store):4  2025-01-04T09:00:00Z  app
                  delete Trip/1  tombstone: departure = 2034-03-16T00:00:00Z, endDate = 2034-03-20T00:00:00Z, name = "Tokyo Honeymoon"

                """)
        #expect(try tripdoc.run("schema", "diff", "out.\(format)", "v2.json").status == 0)
    }

    @Test func migratingInOnePassAndInMemoryGivesTheSameBytes() throws {
        try writeVersion2()
        #expect(try tripdoc.run("migrate", "story.json", "streamed.json", "--schema", "v2.json").status == 0)
        let toStandardOutput = try tripdoc.run("migrate", "story.json", "-", "--schema", "v2.json")
        #expect(toStandardOutput.status == 0)
        #expect(toStandardOutput.stderr.hasPrefix("Migrated story.json from schema 1.0.0 to 2.0.0: 8 snapshots"))
        #expect(Data(toStandardOutput.stdout.utf8) == (try tripdoc.contents("streamed.json")))
    }

    /// An entity renamed through originalName: into the same place in the order of entities
    /// (migrated in one pass) or another (migrated in memory), its snapshots, the references to
    /// them and its history changes renamed.
    @Test(arguments: ["Stay", "Accommodation"])
    func anEntityRenamedThroughOriginalNameIsRenamedEverywhere(newName: String) throws {
        try writeSchema("renamed.json") {
            $0.replacingOccurrences(of: #""LivingAccommodation""#, with: "\"\(newName)\"")
                .replacingOccurrences(
                    of: "\"name\":\"\(newName)\",", with: "\"name\":\"\(newName)\",\"originalName\":\"LivingAccommodation\",")
        }
        let outcome = try tripdoc.run("migrate", "story.json", "out.json", "--schema", "renamed.json")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("  \(newName): entity renamed from LivingAccommodation\n"))
        let inspected = try #require(
            try JSONSerialization.jsonObject(with: Data(tripdoc.run("inspect", "out.json", "--json").stdout.utf8))
                as? [String: Any])
        #expect((inspected["problems"] as? [Any])?.isEmpty == true)
        #expect((inspected["counts"] as? [String: Int])?[newName] == 1)
        #expect(
            try tripdoc.run("history", "out.json", "--author", "widget").stdout == """
                \(Self.store):2  2025-01-02T09:00:00Z  widget
                  insert \(newName)/2
                  update Trip/2  livingAccommodation
                \(Self.store):3  2025-01-03T09:00:00Z  widget
                  update \(newName)/2  placeName = "Harbour View Hotel & Spa"

                """)
        let toStandardOutput = try tripdoc.run("migrate", "story.json", "-", "--schema", "renamed.json")
        #expect(Data(toStandardOutput.stdout.utf8) == (try tripdoc.contents("out.json")))
    }

    @Test func dryRunWritesNothing() throws {
        try writeVersion2()
        let outcome = try tripdoc.run("migrate", "story.json", "out.json", "--schema", "v2.json", "--dry-run")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Would migrate story.json from schema 1.0.0 to 2.0.0: 8 snapshots, 3 changes\n"))
        #expect(!tripdoc.exists("out.json"))
    }

    @Test func aChangeALightweightMigrationCannotMakeIsRefusedNamingIt() throws {
        try writeSchema("v3.json") {
            $0.replacingOccurrences(
                of: #"{"name":"isInPlan","optional":false,"options":[],"type":"Bool"}"#,
                with: #"{"name":"isInPlan","optional":false,"options":[],"type":"Int"}"#)
        }
        let outcome = try tripdoc.run("migrate", "story.json", "out.json", "--schema", "v3.json")
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr
                == "tripdoc: error: cannot migrate from schema 1.0.0 to 1.0.0 with a lightweight migration: "
                + "BucketListItem.isInPlan: type changed from Bool to Int. Make these changes in a custom stage "
                + "(MigrationStage.custom): add the new property or entity beside the old one, copy the values in "
                + "didMigrate, and remove the old one in a later version\n")
        #expect(!tripdoc.exists("out.json"))
    }

    @Test func aNewUniquenessConstraintThatModelsBreakIsRefusedNamingTheDuplicates() throws {
        try writeSchema("unique.json") {
            $0.replacingOccurrences(
                of: #"{"name":"isInPlan","optional":false,"options":[],"type":"Bool"}"#,
                with: #"{"name":"isInPlan","optional":false,"options":["unique"],"type":"Bool"}"#)
        }
        let outcome = try tripdoc.run("migrate", "story.json", "out.plist", "--schema", "unique.json")
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: cannot add the uniqueness constraint on BucketListItem (isInPlan): "))
        #expect(outcome.stderr.contains("BucketListItem/"))
        #expect(!tripdoc.exists("out.plist"))
    }

    /// Schema files that are not schemas, and what the error says.
    static let badSchemaFiles: [(name: String, contents: String, message: String)] = [
        ("empty.json", "", "empty.json is not a document tripdoc can read"),
        ("malformed.json", #"{"entities": [}"#, "malformed.json"),
        ("unknown-type.json", #"{"entities":[{"attributes":[{"name":"a","optional":false,"options":[],"type":"Colour"}],"indices":[],"name":"E","relationships":[],"uniquenessConstraints":[]}],"version":"2.0.0"}"#, "unknown attribute type 'Colour'"),
        ("dangling.json", #"{"entities":[{"attributes":[],"indices":[],"name":"E","relationships":[{"deleteRule":"nullify","destination":"Nowhere","maximumModelCount":0,"minimumModelCount":0,"name":"r","toMany":false}],"uniquenessConstraints":[]}],"version":"2.0.0"}"#, "destination entity 'Nowhere' does not exist"),
        ("no-version.json", #"{"entities":[]}"#, "the schema needs 'entities' and 'version'"),
    ]

    @Test(arguments: badSchemaFiles.indices)
    func aBadSchemaFileIsRefusedWithAClearErrorAndNoOutput(index: Int) throws {
        let (name, contents, message) = Self.badSchemaFiles[index]
        try Data(contents.utf8).write(to: tripdoc.folder.appendingPathComponent(name))
        let outcome = try tripdoc.run("migrate", "story.json", "out.json", "--schema", name)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("tripdoc: error: "))
        #expect(outcome.stderr.contains(name))
        #expect(outcome.stderr.contains(message))
        #expect(!tripdoc.exists("out.json"))
        #expect(try tripdoc.run("schema", name).status == 2)
    }

    @Test func aMissingSchemaFileOrAnExistingOutputIsRefused() throws {
        let missing = try tripdoc.run("migrate", "story.json", "out.json", "--schema", "nowhere.json")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere.json"))
        try writeVersion2()
        try Data("keep".utf8).write(to: tripdoc.folder.appendingPathComponent("out.json"))
        let exists = try tripdoc.run("migrate", "story.json", "out.json", "--schema", "v2.json")
        #expect(exists == .init(status: 2, stdout: "", stderr: "tripdoc: error: out.json already exists; pass --force to replace it\n"))
        #expect(try tripdoc.contents("out.json") == Data("keep".utf8))
        #expect(try tripdoc.run("migrate", "story.json", "out.json", "--schema", "v2.json", "--force").status == 0)
    }
}
