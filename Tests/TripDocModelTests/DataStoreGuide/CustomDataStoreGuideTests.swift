import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// What the guide "Writing a custom DataStore" says a store gets from tripdoc's engine, shown on
/// the WWDC24 talk's store and on the same store over ``ArchiveStore`` (``EngineJSONStore``).
@Suite struct CustomDataStoreGuideTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("datastore-guide")
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    func container(_ store: String) throws -> ModelContainer {
        let url = scratch.file("\(store).json")
        if store == "talk" {
            let container = try ModelContainer(for: Trip.self, configurations: TalkJSONStoreConfiguration(name: "Trips", fileURL: url))
            return container
        }
        let container = try ModelContainer(for: Trip.self, configurations: EngineJSONStoreConfiguration(name: "Trips", url: url))
        return container
    }

    /// Saves Tokyo twice with the same name and dates (the `#Unique` constraint's key), in two
    /// saves, with a bucket-list item each time.
    func saveTokyoTwice(in container: ModelContainer) throws {
        for title in ["Tea", "Temple"] {
            let context = ModelContext(container)
            let trip = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.start + 86_400)
            context.insert(trip)
            trip.bucketList.append(BucketListItem(title: title, details: "", hasReservation: false, isInPlan: true))
            try context.save()
        }
    }

    @Test func theTalksStoreKeepsWhatItIsGivenAndMintsUUIDs() throws {
        let container = try container("talk")
        try saveTokyoTwice(in: container)
        let trips = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 2, "no upsert on #Unique: the store does not know the constraint")
        #expect(UUID(uuidString: trips[0].persistentModelID.primaryKey) != nil)
    }

    @Test func theEngineUpsertsCascadesNumbersAndRecordsHistory() throws {
        let container = try container("engine")
        try saveTokyoTwice(in: container)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1, "the second insert updated the first: an upsert on #Unique")
        #expect(trips[0].persistentModelID.primaryKey == "1")
        #expect(trips[0].bucketList.map(\.title) == ["Temple"], "the upsert took the second insert's values, list included")

        context.delete(trips[0])
        try context.save()
        let items = try context.fetch(FetchDescriptor<BucketListItem>())
        #expect(items.map(\.title) == ["Tea"], "Temple deleted by the cascade rule; Tea, which the upsert left without a trip, stays")
        #expect(items.first?.trip == nil)

        let store = try EngineJSONStore(
            EngineJSONStoreConfiguration(name: "Trips", schema: Schema([Trip.self]), url: scratch.file("engine.json")),
            migrationPlan: nil)
        let history = try store.historyRecords()
        #expect(history.count == 3, "one transaction per save")
        #expect(history.last?.changes.count == 2, "the trip and Temple, deleted in one transaction")
    }
}

/// A store of your own gives the context typed history, and a token older than the history it
/// kept expires, as with tripdoc's own stores.
@Suite struct CustomStoreHistoryTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("custom-store-history")
    }

    @Test func aCustomStoreAnswersTypedHistory() throws {
        let url = scratch.file("engine.json")
        let container = try ModelContainer(for: Trip.self, configurations: EngineJSONStoreConfiguration(name: "Trips", url: url))
        let context = ModelContext(container)
        context.author = "importer"
        let start = Date(timeIntervalSince1970: 2_000_000_000)
        let trip = Trip(name: "Oslo", destination: "Norway", startDate: start, endDate: start + 86_400)
        context.insert(trip)
        try context.save()
        trip.destination = "Bergen"
        try context.save()

        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 2)
        #expect(history.map(\.author) == ["importer", "importer"])
        guard case .insert(let insert as DefaultHistoryInsert<Trip>) = history.first?.changes.first else {
            Issue.record("the first change is not a typed insert of a Trip: \(String(describing: history.first?.changes))")
            return
        }
        #expect(insert.changedPersistentIdentifier == trip.persistentModelID)
        guard case .update(let update as DefaultHistoryUpdate<Trip>) = history.last?.changes.first else {
            Issue.record("the second change is not a typed update of a Trip")
            return
        }
        #expect(update.updatedAttributes == [\Trip.destination])

        // Once both transactions are deleted, the first one's token is older than the history kept.
        trip.destination = "Tromsø"
        try context.save()
        let first = try #require(history.first?.token)
        let second = try #require(history.last?.token)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= second }))
        #expect(throws: HistoryError.self) {
            try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > first }))
        }
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > second })).count == 1)
    }

    @Test func aStoreOfYourOwnMakesItsTransactionsWithThePublicInitialisers() throws {
        let token = DefaultHistoryToken(storeIdentifier: "S", transactionIdentifier: 3)
        let id = PersistentIdentifier(storeIdentifier: "S", entityName: "Trip", primaryKey: "7")
        let transaction = DefaultHistoryTransaction(
            transactionIdentifier: 3, token: token, author: "csv", timestamp: Date(timeIntervalSince1970: 0),
            storeIdentifier: "S",
            changes: [
                .delete(
                    DefaultHistoryDelete<Trip>(
                        changedPersistentIdentifier: id, changeIdentifier: HistoryChangeIdentifier(token: token, index: 0),
                        tombstone: HistoryTombstone(values: ["name": .string("Oslo")])))
            ])
        guard case .delete(let delete as DefaultHistoryDelete<Trip>) = transaction.changes.first else {
            Issue.record("not a typed delete")
            return
        }
        #expect(delete.tombstone[\.name] == "Oslo")
        #expect(delete.changedPersistentIdentifier == id)
    }
}
