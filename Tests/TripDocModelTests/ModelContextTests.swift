import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// Each ModelContext operation, against each store kind: the three document formats and memory.
@Suite struct ModelContextTests {
    /// tripdoc's stores: the three formats and memory.
    static let stores = ["json", "plist", "tripbundle", "memory"]
    /// …and stores written by users in the WWDC24 talk's shape, in its spelling and the SDK's
    /// (TalkJSONStore.swift, SDKJSONStore.swift), for what does not depend on tripdoc's engine
    /// (upserts, delete rules and history are the engine's, which those stores do not use).
    static let allStores = stores + ["talk", "sdk"]

    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("models")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: folder.appendingPathComponent("trips.\(kind)"))
    }

    func container(_ kind: String) throws -> ModelContainer {
        let url = folder.appendingPathComponent("custom-trips.json")
        switch kind {
        case "talk":
            return try ModelContainer(for: Trip.self, configurations: TalkJSONStoreConfiguration(name: "Trips", fileURL: url))
        case "sdk":
            return try ModelContainer(for: Trip.self, configurations: SDKJSONStoreConfiguration(name: "Trips", url: url))
        default:
            return try ModelContainer(for: Trip.self, configurations: configuration(kind))
        }
    }

    static func date(_ day: Int) -> Date { Date(timeIntervalSince1970: 2_000_000_000 + Double(day) * 86_400) }

    @Test(arguments: allStores)
    func insertSaveAndFetchAgainInANewContainer(kind: String) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let trip = Trip(name: "Tokyo", destination: "Japan", startDate: Self.date(0), endDate: Self.date(5))
        #expect(trip.persistentModelID.isTemporary)
        context.insert(trip)
        let item = BucketListItem(title: "Sushi", details: "Tsukiji", hasReservation: true, isInPlan: false)
        trip.bucketList.append(item)
        #expect(item.trip === trip, "the inverse follows")
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.count == 2)
        try context.save()
        #expect(!context.hasChanges)
        #expect(!trip.persistentModelID.isTemporary)
        #expect(trip.persistentModelID.entityName == "Trip")

        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(fetched.count == 1)
        #expect(fetched.first === trip, "one object per model in a context")

        guard kind != "memory" else { return }
        let other = ModelContext(try self.container(kind))
        let reread = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
        #expect(reread !== trip)
        #expect(reread.name == "Tokyo")
        #expect(reread.startDate == Self.date(0))
        #expect(reread.bucketList.map(\.title) == ["Sushi"])
        #expect(reread.bucketList.first?.trip === reread)
        #expect(reread.livingAccommodation == nil)
        #expect(reread.persistentModelID == trip.persistentModelID)
    }
}

extension ModelContextTests {
    /// Four trips, saved: Tokyo (in progress on `now`, one unplanned item), Oslo (in progress,
    /// all planned), Lima (past), Café Paris (future).
    func savedTrips(in context: ModelContext, now: Date) throws -> [Trip] {
        func trip(_ name: String, _ destination: String, _ start: Int, _ end: Int, items: [(String, Bool)]) -> Trip {
            let trip = Trip(
                name: name, destination: destination, startDate: now.addingTimeInterval(Double(start) * 86_400),
                endDate: now.addingTimeInterval(Double(end) * 86_400))
            context.insert(trip)
            for (title, planned) in items {
                trip.bucketList.append(BucketListItem(title: title, details: "", hasReservation: false, isInPlan: planned))
            }
            return trip
        }
        let trips = [
            trip("Tokyo", "Japan", -1, 3, items: [("Sushi", true), ("Fuji", false)]),
            trip("Oslo", "Norway", -2, 2, items: [("Fjord", true)]),
            trip("Lima", "Peru", -30, -20, items: [("Ceviche", false)]),
            trip("Café Paris", "France", 10, 15, items: []),
        ]
        try context.save()
        return trips
    }

    @Test(arguments: allStores)
    func predicatesAndSortsAreEvaluatedOnTheModels(kind: String) throws {
        let context = ModelContext(try container(kind))
        let now = Self.date(100)
        _ = try savedTrips(in: context, now: now)

        let search = "cafe"
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.localizedStandardContains(search) }))
        #expect(found.map(\.name) == ["Café Paris"], "case and diacritics ignored")

        let inProgressWithUnplanned = try context.fetch(
            FetchDescriptor<Trip>(
                predicate: #Predicate { trip in
                    trip.startDate <= now && trip.endDate >= now && trip.bucketList.filter { !$0.isInPlan }.count > 0
                }))
        #expect(inProgressWithUnplanned.map(\.name) == ["Tokyo"])

        var newestFirst = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        #expect(try context.fetch(newestFirst).map(\.name) == ["Café Paris", "Tokyo", "Oslo", "Lima"])
        newestFirst.fetchOffset = 1
        newestFirst.fetchLimit = 2
        #expect(try context.fetch(newestFirst).map(\.name) == ["Tokyo", "Oslo"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.isInPlan })) == 2)
        let byName = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetchIdentifiers(byName).map(\.entityName) == ["Trip", "Trip", "Trip", "Trip"])
        var seen: [String] = []
        try context.enumerate(byName) { seen.append($0.name) }
        #expect(seen == ["Café Paris", "Lima", "Oslo", "Tokyo"])
        // SwiftData's batched spelling, the type named as apps name it.
        let batched: FetchResultsCollection<Trip> = try context.fetch(byName, batchSize: 2)
        #expect(batched.count == 4)
        #expect(batched[2].name == "Oslo")
        #expect(batched.map(\.name) == seen)
        let batchedIdentifiers: FetchResultsCollection<PersistentIdentifier> = try context.fetchIdentifiers(byName, batchSize: 2)
        #expect(batchedIdentifiers == batched.map(\.persistentModelID))
        // `PersistentIdentifier.ID`, as apps key models by it.
        #expect(Set(batchedIdentifiers.map(\.id)).count == 4)
        #expect(batchedIdentifiers[0].id == batched[0].persistentModelID.id)
        #expect(batchedIdentifiers[0].id != batchedIdentifiers[1].id)
        let encoded = try JSONEncoder().encode(batchedIdentifiers[0].id)
        #expect(try JSONDecoder().decode(PersistentIdentifier.ID.self, from: encoded) == batchedIdentifiers[0].id)
    }

    @Test(arguments: allStores)
    func pendingChangesCountUnlessAskedNotTo(kind: String) throws {
        let context = ModelContext(try container(kind))
        let trips = try savedTrips(in: context, now: Self.date(0))
        context.insert(Trip(name: "Rome", destination: "Italy"))
        context.delete(trips[2])
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetch(descriptor).map(\.name) == ["Café Paris", "Oslo", "Rome", "Tokyo"])
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).map(\.name) == ["Café Paris", "Lima", "Oslo", "Tokyo"])
        #expect(context.deletedModelsArray.count == 1)
        #expect(trips[2].isDeleted)
    }

    @Test(arguments: stores)
    func aDuplicateOfAUniqueTripUpdatesTheExistingOne(kind: String) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        context.insert(Trip(name: "Tokyo", destination: "Japan", startDate: Self.date(0), endDate: Self.date(5)))
        try context.save()
        let again = Trip(name: "Tokyo", destination: "Kyoto", startDate: Self.date(0), endDate: Self.date(5))
        context.insert(again)
        try context.save()
        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        #expect(trips.first?.destination == "Kyoto")
        #expect(again.persistentModelID == trips.first?.persistentModelID)
    }

    @Test(arguments: stores)
    func deletingATripCascadesToItsItemsAndNullifiesFromAnItem(kind: String) throws {
        let context = ModelContext(try container(kind))
        let trips = try savedTrips(in: context, now: Self.date(0))
        let tokyo = trips[0]
        let fuji = try #require(tokyo.bucketList.first { $0.title == "Fuji" })
        context.delete(fuji)
        try context.save()
        #expect(tokyo.bucketList.map(\.title) == ["Sushi"], "nullify: the trip no longer lists the item")
        context.delete(tokyo)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<BucketListItem>()).map(\.title).sorted() == ["Ceviche", "Fjord"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 3)
    }

    @Test(arguments: allStores)
    func rollbackForgetsEverySinceTheLastSave(kind: String) throws {
        let context = ModelContext(try container(kind))
        let trips = try savedTrips(in: context, now: Self.date(0))
        trips[0].name = "Renamed"
        context.insert(Trip(name: "Rome", destination: "Italy"))
        context.delete(trips[1])
        #expect(context.changedModelsArray.count == 1)
        #expect(trips[0].hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(trips[0].name == "Tokyo")
        #expect(!trips[1].isDeleted)
        #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == [
            "Café Paris", "Lima", "Oslo", "Tokyo",
        ])
    }

    @Test(arguments: allStores)
    func deleteWhereAndTransaction(kind: String) throws {
        let context = ModelContext(try container(kind))
        _ = try savedTrips(in: context, now: Self.date(0))
        try context.transaction {
            try context.delete(model: BucketListItem.self, where: #Predicate { $0.isInPlan })
        }
        #expect(try context.fetch(FetchDescriptor<BucketListItem>()).map(\.title).sorted() == ["Ceviche", "Fuji"])
        let id = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lima" })).first)
            .persistentModelID
        #expect((context.model(for: id) as? Trip)?.destination == "Peru")
        #expect(context.registeredModel(for: id) as Trip? != nil)
    }

    @Test(arguments: stores)
    func historyRecordsEachSaveWithTypedChanges(kind: String) throws {
        let container = try container(kind)
        let app = ModelContext(container)
        app.author = "app"
        let trip = Trip(name: "Tokyo", destination: "Japan", startDate: Self.date(0), endDate: Self.date(5))
        app.insert(trip)
        try app.save()
        let token = try #require(try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        let widget = ModelContext(container)
        widget.author = "widget"
        let fetched = try #require(try widget.fetch(FetchDescriptor<Trip>()).first)
        fetched.livingAccommodation = LivingAccommodation(address: "1 Hill", placeName: "Ryokan")
        try widget.save()
        fetched.destination = "Kyoto"
        try widget.save()
        widget.delete(fetched)
        try widget.save()

        let author = "widget"
        let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { $0.token > token && $0.author == author })
        let transactions = try app.fetchHistory(descriptor)
        #expect(transactions.count == 3)
        var insertedStays = 0
        for change in transactions[0].changes {
            if case .insert(let insert as DefaultHistoryInsert<LivingAccommodation>) = change {
                insertedStays += 1
                #expect(insert.changedPersistentIdentifier.entityName == "LivingAccommodation")
            }
        }
        #expect(insertedStays == 1)
        guard case .update(let update as DefaultHistoryUpdate<Trip>) = transactions[1].changes.first else {
            Issue.record("expected an update of a trip: \(transactions[1].changes)")
            return
        }
        #expect(update.updatedAttributes == [\Trip.destination])
        let deletion = transactions[2].changes.compactMap { change -> DefaultHistoryDelete<Trip>? in
            if case .delete(let delete as DefaultHistoryDelete<Trip>) = change { return delete }
            return nil
        }.first
        #expect(deletion?.tombstone[\.name] == "Tokyo")
        #expect(deletion?.tombstone[\.destination] == nil, "only .preserveValueOnDeletion attributes are kept")
        // Read through a key path typed only at run time, as code holding several kinds does.
        let partial: PartialKeyPath<Trip> = \Trip.name
        #expect(deletion?.tombstone[partial] as? String == "Tokyo")
        #expect(deletion?.tombstone[\Trip.destination as PartialKeyPath<Trip>] == nil)

        try app.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= token }))
        #expect(try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 3)
    }

    @Test func aTombstoneReadThroughAPartialKeyPathGivesNilForAPreservedNil() {
        let tombstone = HistoryTombstone<Reading>(values: ["note": .null, "station": .string("Oslo")])
        #expect(tombstone[\Reading.note as PartialKeyPath<Reading>] == nil)
        #expect(tombstone[\Reading.station as PartialKeyPath<Reading>] as? String == "Oslo")
        #expect(tombstone[\Reading.value as PartialKeyPath<Reading>] == nil, "not preserved")
    }
}
