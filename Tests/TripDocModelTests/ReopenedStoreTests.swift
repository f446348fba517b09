import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// An app's launch: a container opened on a document another run saved reads what the app
/// fetches (the store reads the entities a fetch or a save needs), and every model,
/// relationship, save and history entry is as it would be had it read the whole document.
@Suite struct ReopenedStoreTests {
    static let stores = ["json", "plist", "tripbundle"]
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("reopened") }

    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(url: scratch.url.appendingPathComponent("trips.\(kind)")))
    }

    /// Runs that save trips with items and accommodations, one save each, and end (their
    /// containers released).
    func saveTrips(_ kind: String, count: Int) throws {
        for number in 0..<count {
            let context = ModelContext(try container(kind))
            let trip = Trip(
                name: "Trip \(number)", destination: "Place \(number % 3)",
                startDate: Date(timeIntervalSince1970: Double(number) * 86_400),
                endDate: Date(timeIntervalSince1970: Double(number + 2) * 86_400))
            context.insert(trip)
            trip.bucketList = (0..<2).map {
                BucketListItem(title: "Item \(number).\($0)", details: "", hasReservation: $0 == 0, isInPlan: true)
            }
            trip.livingAccommodation = LivingAccommodation(address: "Street \(number)", placeName: "Hotel \(number)")
            try context.save()
        }
    }

    @Test(arguments: stores)
    func aRelaunchFetchesFollowsRelationshipsSavesAndKeepsTheHistory(kind: String) throws {
        try saveTrips(kind, count: 4)

        let container = try container(kind)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Trip 0", "Trip 1", "Trip 2", "Trip 3"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Place 0" })) == 2)
        // Relationships load their entities when first used.
        #expect(trips[2].bucketList.map(\.title).sorted() == ["Item 2.0", "Item 2.1"])
        #expect(trips[3].livingAccommodation?.placeName == "Hotel 3")
        #expect(trips[3].livingAccommodation?.trip === trips[3])

        trips[2].bucketList[0].title = "Changed"
        trips[1].destination = "Elsewhere"
        try context.save()
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 5)
        #expect(history.last?.changes.count == 2)

        let reread = ModelContext(try self.container(kind))
        let item = try reread.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == "Changed" }))
        #expect(item.first?.trip?.name == "Trip 2")
        #expect(try reread.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Elsewhere" })).map(\.name) == ["Trip 1"])
        #expect(try reread.fetchCount(FetchDescriptor<LivingAccommodation>()) == 4)
    }

    @Test func damageInAnEntityNoReadNeedsIsReportedByTheReadThatDoesAndNothingIsLost() throws {
        try saveTrips("json", count: 3)
        let url = scratch.url.appendingPathComponent("trips.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let value = try #require(text.range(of: "\"hasReservation\":false"))
        try text.replacingCharacters(in: value, with: "\"hasReservation\":\"no\"").write(
            to: url, atomically: true, encoding: .utf8)
        let damaged = try Data(contentsOf: url)

        do {
            let context = ModelContext(try container("json"))
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.count == 3)
            #expect(throws: DocumentReadError.self) { try context.fetch(FetchDescriptor<BucketListItem>()) }
            // Editing a trip's destination reads trips only: the save goes to the journal.
            trips[0].destination = "Elsewhere"
            try context.save()
            #expect(try Data(contentsOf: url) == damaged)
        }
        // Folding the journal into the document on closing needed the whole document: the
        // journal stays. The next launch reads the saved edit from it, and the damage where it
        // is; once the file is mended, everything is read.
        #expect(DocumentJournal(documentPath: url.path).exists)
        do {
            let context = ModelContext(try container("json"))
            let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            #expect(trips.map(\.destination) == ["Elsewhere", "Place 1", "Place 2"])
            #expect(throws: DocumentReadError.self) { try context.fetch(FetchDescriptor<BucketListItem>()) }
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let context = ModelContext(try container("json"))
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.destination) == ["Elsewhere", "Place 1", "Place 2"])
        #expect(try context.fetchCount(FetchDescriptor<BucketListItem>()) == 6)
    }
}
