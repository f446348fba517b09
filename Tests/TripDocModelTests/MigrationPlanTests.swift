import Foundation
import Testing
import TripDoc
import TripDocTestSupport

// The "Model your schema" talk's three versions of SampleTrips' Trip, as SwiftData apps write
// them: each version's models nested in an enum, the classes of every version called Trip.

enum TripsSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        var destination: String
        var start_date: Date
        var end_date: Date

        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }
}

enum TripsSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        #Unique<Trip>([\.name])
        var name: String
        var destination: String
        var start_date: Date
        var end_date: Date

        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }
}

enum TripsSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        #Unique<Trip>([\.name])
        var name: String
        var destination: String
        @Attribute(originalName: "start_date") var startDate: Date
        @Attribute(originalName: "end_date") var endDate: Date

        init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }
}

/// The talk's plan: a custom stage removes duplicate trips before V2 makes names unique, then a
/// lightweight stage renames the dates.
enum TripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self, TripsSchemaV2.self, TripsSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    // `static let`s, as the talk and Apple's sample write them: Swift 6 accepts them because
    // MigrationStage is Sendable.
    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
        willMigrate: { context in
            let trips = try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>(sortBy: [SortDescriptor(\.start_date)]))
            var seen: Set<String> = []
            for trip in trips where !seen.insert(trip.name).inserted { context.delete(trip) }
            try context.save()
        }, didMigrate: nil)

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self)
}

/// A plan whose V1 → V2 stage fails in `willMigrate`.
enum FailingMigrationPlan: SchemaMigrationPlan {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the trips could not be de-duplicated" }
    }

    static var schemas: [any VersionedSchema.Type] { TripsMigrationPlan.schemas }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
                willMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>()) { context.delete(trip) }
                    try context.save()
                    throw Refusal()
                }, didMigrate: nil),
            TripsMigrationPlan.migrateV2toV3,
        ]
    }
}

/// A plan missing the V1 → V2 stage.
enum GappedMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { TripsMigrationPlan.schemas }
    static var stages: [MigrationStage] { [TripsMigrationPlan.migrateV2toV3] }
}

/// A plan whose V2 → V3 stage edits the new models in `didMigrate`.
enum DidMigratePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV2.self, TripsSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: TripsSchemaV2.self, toVersion: TripsSchemaV3.self, willMigrate: nil,
                didMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>()) {
                        trip.destination = trip.destination.uppercased()
                    }
                })
        ]
    }
}

/// V3 with a required attribute that has no default value: a lightweight migration cannot give
/// existing trips a value for it.
enum TripsSchemaV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String
        var destination: String
        var startDate: Date
        var endDate: Date
        var days: Int

        init(name: String, destination: String, startDate: Date, endDate: Date, days: Int) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
            self.days = days
        }
    }
}

/// A plan that moves the trips across a change a lightweight migration cannot make, as apps
/// do: `willMigrate` keeps their values and deletes them, `didMigrate` inserts the new trips.
enum ReinsertingMigrationPlan: SchemaMigrationPlan {
    struct KeptTrip: Sendable {
        var name: String, destination: String, startDate: Date, endDate: Date
    }
    nonisolated(unsafe) static var kept: [KeptTrip] = []

    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV3.self, TripsSchemaV4.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: TripsSchemaV3.self, toVersion: TripsSchemaV4.self,
                willMigrate: { context in
                    let trips = try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>())
                    kept = trips.map { KeptTrip(name: $0.name, destination: $0.destination, startDate: $0.startDate, endDate: $0.endDate) }
                    trips.forEach { context.delete($0) }
                    try context.save()
                },
                didMigrate: { context in
                    for trip in kept {
                        let days = Int(trip.endDate.timeIntervalSince(trip.startDate) / 86_400)
                        context.insert(TripsSchemaV4.Trip(
                            name: trip.name, destination: trip.destination, startDate: trip.startDate, endDate: trip.endDate, days: days))
                    }
                    try context.save()
                    kept = []
                })
        ]
    }
}

/// Versioned schemas and migration plans, as the talk's SampleTrips migrates, in each store
/// format and in memory.
@Suite struct MigrationPlanTests {
    static let formats = ["json", "plist", "tripbundle"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("migrations")
    }

    static func date(_ day: Int) -> Date { Date(timeIntervalSince1970: 2_000_000_000 + Double(day) * 86_400) }

    func url(_ format: String) -> URL { scratch.file("trips.\(format)") }

    /// A V1 document with a duplicate Tokyo trip, saved in two transactions; the last token.
    @discardableResult
    func writeVersion1(_ format: String) throws -> DefaultHistoryToken {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV1.self), configurations: ModelConfiguration(url: url(format)))
        let context = ModelContext(container)
        context.insert(TripsSchemaV1.Trip(name: "Tokyo", destination: "Japan", start_date: Self.date(0), end_date: Self.date(5)))
        context.insert(TripsSchemaV1.Trip(name: "Lima", destination: "Peru", start_date: Self.date(10), end_date: Self.date(12)))
        try context.save()
        context.insert(TripsSchemaV1.Trip(name: "Tokyo", destination: "Japan", start_date: Self.date(20), end_date: Self.date(25)))
        try context.save()
        return try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
    }

    func readDocument(_ format: String) throws -> Document {
        let data = try Data(contentsOf: url(format))
        let documentFormat: any DocumentFormat =
            switch format {
            case "plist": PlistFormat()
            case "tripbundle": BundleFormat()
            default: JSONFormat()
            }
        return try documentFormat.readDocument(from: data, file: url(format).path, limits: .standard)
    }

    @Test(arguments: formats)
    func theTalksThreeVersionsMigrateWithTheirHistoryAndTokensKept(format: String) throws {
        let token = try writeVersion1(format)
        let container = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url(format)))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Tokyo", "Lima"])
        #expect(trips.map(\.startDate) == [Self.date(0), Self.date(10)])
        #expect(trips.map(\.endDate) == [Self.date(5), Self.date(12)])

        let document = try readDocument(format)
        #expect(document.schema.version == Schema.Version(3, 0, 0))
        #expect(document.schema == Schema(versionedSchema: TripsSchemaV3.self))

        // The two saves of version 1 and the stage's de-duplication, with their tokens.
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 3)
        #expect(history[1].token == token)
        guard case .delete(let deletion as DefaultHistoryDelete<TripsSchemaV3.Trip>) = history[2].changes.first else {
            Issue.record("expected the stage's deletion of the second Tokyo trip, typed by the current model")
            return
        }
        #expect(deletion.changedPersistentIdentifier.primaryKey == "3")
        let after = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        #expect(after.count == 1)

        // The unique name holds from now on: a second Lima updates the first.
        context.insert(TripsSchemaV3.Trip(name: "Lima", destination: "Peru!", startDate: Self.date(10), endDate: Self.date(12)))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripsSchemaV3.Trip>()) == 2)
    }

    @Test func aContainerNamesTheMigrationPlanItWasMadeWith() throws {
        let planned = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let plan = try #require(planned.migrationPlan)
        #expect(ObjectIdentifier(plan) == ObjectIdentifier(TripsMigrationPlan.self))
        let unplanned = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV3.self), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(unplanned.migrationPlan == nil)
    }

    @Test func theTalksThreeVersionsMigrateInMemory() throws {
        try writeVersion1("json")
        let document = try readDocument("json")
        let migrated = try document.migrated(
            to: Schema(versionedSchema: TripsSchemaV3.self), migrationPlan: TripsMigrationPlan.self)
        #expect(migrated.storeIdentifier == document.storeIdentifier)
        #expect(migrated.schema.version == Schema.Version(3, 0, 0))
        #expect(migrated.snapshots.count == 2)
        #expect(migrated.snapshots.allSatisfy { $0["startDate"] != nil && $0["start_date"] == nil })
        #expect(migrated.history.transactions.map(\.transactionIdentifier) == [1, 2, 3])
        #expect(try document.migrated(to: document.schema, migrationPlan: TripsMigrationPlan.self) == document)

        // A store kept in memory only opens with the plan, at the current version.
        let container = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(TripsSchemaV3.Trip(name: "Oslo", destination: "Norway", startDate: Self.date(1), endDate: Self.date(2)))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>()).map(\.name) == ["Oslo"])
    }

    @Test(arguments: formats)
    func aStageThatThrowsLeavesTheDocumentByteIdenticalAndNamesTheStageAndCause(format: String) throws {
        try writeVersion1(format)
        let before = try Data(contentsOf: url(format))
        do {
            _ = try ModelContainer(
                for: TripsSchemaV3.Trip.self, migrationPlan: FailingMigrationPlan.self,
                configurations: ModelConfiguration(url: url(format)))
            Issue.record("the migration did not fail")
        } catch let error as MigrationError {
            #expect(
                error.description
                    == "the migration's custom stage 1.0.0 → 2.0.0 failed in willMigrate: the trips could not be "
                    + "de-duplicated; the document was not changed")
        }
        #expect(try Data(contentsOf: url(format)) == before)
    }

    @Test func aPlanWhoseVersionsDoNotConnectIsRefusedSayingSo() throws {
        try writeVersion1("json")
        let before = try Data(contentsOf: url("json"))
        do {
            _ = try ModelContainer(
                for: TripsSchemaV3.Trip.self, migrationPlan: GappedMigrationPlan.self,
                configurations: ModelConfiguration(url: url("json")))
            Issue.record("the migration did not fail")
        } catch let error as MigrationError {
            #expect(
                error.description
                    == "the migration plan does not connect the document's schema version 1.0.0 to the current one, "
                    + "3.0.0: no stage starts from version 1.0.0 (its stages: lightweight stage 2.0.0 → 3.0.0); add a "
                    + "stage from 1.0.0, or list the document's version in the plan")
        }
        #expect(try Data(contentsOf: url("json")) == before)
    }

    @Test func addingUniquenessWithoutRemovingTheDuplicatesFirstIsRefusedNamingThem() throws {
        try writeVersion1("json")
        do {
            _ = try ModelContainer(
                for: TripsSchemaV2.Trip.self, configurations: ModelConfiguration(url: url("json")))
            Issue.record("the migration did not fail")
        } catch let error as SchemaMigrationError {
            #expect(error.description.contains("Trip/3 duplicates Trip/1"))
        }
    }

    @Test(.serialized, arguments: formats)
    func aRequiredAttributeWithoutDefaultIsAddedToTripsDeletedInWillMigrateAndInsertedInDidMigrate(format: String) throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV3.self), configurations: ModelConfiguration(url: url(format)))
        let context = ModelContext(container)
        context.insert(TripsSchemaV3.Trip(name: "Tokyo", destination: "Japan", startDate: Self.date(0), endDate: Self.date(5)))
        try context.save()

        let migrated = try ModelContainer(
            for: TripsSchemaV4.Trip.self, migrationPlan: ReinsertingMigrationPlan.self,
            configurations: ModelConfiguration(url: url(format)))
        let trips = try ModelContext(migrated).fetch(FetchDescriptor<TripsSchemaV4.Trip>())
        #expect(trips.map(\.name) == ["Tokyo"])
        #expect(trips.map(\.days) == [5])
    }

    @Test func aRequiredAttributeWithoutDefaultIsRefusedForTripsThatStay() throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV3.self), configurations: ModelConfiguration(url: url("json")))
        let context = ModelContext(container)
        context.insert(TripsSchemaV3.Trip(name: "Tokyo", destination: "Japan", startDate: Self.date(0), endDate: Self.date(5)))
        try context.save()
        let before = try Data(contentsOf: url("json"))

        #expect {
            _ = try ModelContainer(
                for: Schema(versionedSchema: TripsSchemaV4.self), configurations: ModelConfiguration(url: url("json")))
        } throws: { error in
            "\(error)".contains("Trip.days: attribute added, neither optional nor with a default value")
        }
        #expect(try Data(contentsOf: url("json")) == before)
    }

    @Test func didMigrateGetsAContextOnTheNewModels() throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV2.self), configurations: ModelConfiguration(url: url("plist")))
        let context = ModelContext(container)
        context.insert(TripsSchemaV2.Trip(name: "Tokyo", destination: "Japan", start_date: Self.date(0), end_date: Self.date(5)))
        try context.save()

        let migrated = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: DidMigratePlan.self, configurations: ModelConfiguration(url: url("plist")))
        let trips = try ModelContext(migrated).fetch(FetchDescriptor<TripsSchemaV3.Trip>())
        #expect(trips.map(\.destination) == ["JAPAN"])
        #expect(trips.map(\.startDate) == [Self.date(0)])
    }

    @Test(arguments: formats)
    func withoutAPlanALightweightMigrationIsInferred(format: String) throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: TripsSchemaV2.self), configurations: ModelConfiguration(url: url(format)))
        let context = ModelContext(container)
        context.insert(TripsSchemaV2.Trip(name: "Tokyo", destination: "Japan", start_date: Self.date(0), end_date: Self.date(5)))
        try context.save()
        let token = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        let migrated = ModelContext(
            try ModelContainer(for: Schema(versionedSchema: TripsSchemaV3.self), configurations: ModelConfiguration(url: url(format))))
        #expect(try migrated.fetch(FetchDescriptor<TripsSchemaV3.Trip>()).map(\.startDate) == [Self.date(0)])
        let history = try migrated.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.token) == [token])
        guard case .insert(let insert as DefaultHistoryInsert<TripsSchemaV3.Trip>) = history.first?.changes.first else {
            Issue.record("expected the insert, typed by the current model")
            return
        }
        #expect(insert.changedPersistentIdentifier.entityName == "Trip")
    }

    @Test func theSameModelsWithoutAPlanOpenAMigratedDocumentAsItIs() throws {
        try writeVersion1("json")
        _ = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url("json")))
        let migrated = try Data(contentsOf: url("json"))
        // Schema([Trip]) has version 1.0.0; the document's 3.0.0 stays, and no stage runs again.
        let unversioned = try ModelContainer(for: TripsSchemaV3.Trip.self, configurations: ModelConfiguration(url: url("json")))
        #expect(try ModelContext(unversioned).fetchCount(FetchDescriptor<TripsSchemaV3.Trip>()) == 2)
        #expect(try Data(contentsOf: url("json")) == migrated)
        let again = try ModelContainer(
            for: TripsSchemaV3.Trip.self, migrationPlan: TripsMigrationPlan.self,
            configurations: ModelConfiguration(url: url("json")))
        #expect(try ModelContext(again).fetchCount(FetchDescriptor<TripsSchemaV3.Trip>()) == 2)
        #expect(try Data(contentsOf: url("json")) == migrated)
    }

    @Test func versionedModelsAreTheEntityOfTheirUnqualifiedClassName() {
        #expect(Schema(versionedSchema: TripsSchemaV1.self).entities.map(\.name) == ["Trip"])
        #expect(Schema(versionedSchema: TripsSchemaV3.self).entity(named: "Trip")?.attribute(named: "startDate")?.originalName
            == "start_date")
    }
}
