import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// Many models inserted and saved at once, as an import does: each leaves the save under its
/// permanent identifier, the one object the context holds for it, reading what the store saved;
/// its relationships hold the same objects; an insert matching a saved model on `#Unique` (an
/// upsert) becomes that model; and nothing is left pending.
@Suite struct BulkInsertTests {
    static let stores = ["json", "tripbundle", "memory"]
    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("bulk-insert") }

    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self,
            configurations: kind == "memory"
                ? ModelConfiguration(isStoredInMemoryOnly: true)
                : ModelConfiguration(url: scratch.file("trips.\(kind)")))
    }

    /// Trip `number`, with three bucket-list items and a place to stay, inserted into `context`
    /// the way an app builds it (the trip first, then its relationships).
    @discardableResult
    func insertTrip(_ number: Int, into context: ModelContext, destination: String = "Somewhere") -> Trip {
        let trip = Trip(
            name: "Trip \(number)", destination: destination, startDate: Self.start,
            endDate: Self.start.addingTimeInterval(Double(number)))
        context.insert(trip)
        for item in 0..<3 {
            trip.bucketList.append(
                BucketListItem(title: "Item \(number).\(item)", details: "", hasReservation: item == 0, isInPlan: true))
        }
        trip.livingAccommodation = LivingAccommodation(address: "\(number) Main Street", placeName: "Hotel \(number)")
        return trip
    }

    @Test(arguments: stores)
    func everyInsertedModelIsRegisteredUnderItsPermanentIdentifier(kind: String) throws {
        let context = ModelContext(try container(kind))
        let trips = (0..<300).map { insertTrip($0, into: context) }
        let models: [any PersistentModel] = trips.flatMap { trip -> [any PersistentModel] in
            [trip] + trip.bucketList + [trip.livingAccommodation!]
        }
        let temporary = models.map(\.persistentModelID)
        #expect(temporary.allSatisfy { $0.isTemporary })
        #expect(context.insertedModelsArray.count == 300 * 5)

        try context.save()

        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        let permanent = models.map(\.persistentModelID)
        #expect(permanent.allSatisfy { !$0.isTemporary })
        #expect(Set(permanent).count == models.count, "every model has an identifier of its own")
        for (model, id) in zip(models, permanent) {
            #expect(context.model(for: id) === model, "the context gives the inserted object for \(id)")
        }
        for id in temporary {
            let registered: Trip? = context.registeredModel(for: id)
            #expect(registered == nil, "\(id) is no longer registered")
        }
        for (number, trip) in trips.enumerated() {
            #expect(trip.name == "Trip \(number)")
            #expect(trip.bucketList.map(\.title) == (0..<3).map { "Item \(number).\($0)" })
            #expect(trip.bucketList.allSatisfy { $0.trip === trip })
            #expect(trip.livingAccommodation?.trip === trip)
            #expect(!trip.hasChanges)
        }
    }

    @Test(arguments: stores)
    func theStoreHoldsWhatTheModelsRead(kind: String) throws {
        let container = try container(kind)
        let context = ModelContext(container)
        let trips = (0..<200).map { insertTrip($0, into: context) }
        try context.save()

        // A model changed after the bulk save is saved as an update of the model the store holds.
        trips[7].destination = "Kyoto"
        trips[7].bucketList[1].details = "Book ahead"
        try context.save()

        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 200)
        #expect(try reader.fetchCount(FetchDescriptor<BucketListItem>()) == 600)
        #expect(try reader.fetchCount(FetchDescriptor<LivingAccommodation>()) == 200)
        for trip in trips {
            let read = try #require(reader.model(for: trip.persistentModelID) as? Trip)
            #expect(read !== trip)
            #expect(read.name == trip.name && read.destination == trip.destination && read.endDate == trip.endDate)
            #expect(read.bucketList.map(\.persistentModelID) == trip.bucketList.map(\.persistentModelID))
            #expect(read.livingAccommodation?.persistentModelID == trip.livingAccommodation?.persistentModelID)
        }
        let kyoto = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Kyoto" }))
        #expect(kyoto.map(\.name) == ["Trip 7"])
        #expect(kyoto.first?.bucketList.map(\.details) == ["", "Book ahead", ""])
    }

    @Test(arguments: stores)
    func upsertsAmongABulkInsertBecomeTheSavedModels(kind: String) throws {
        let container = try container(kind)
        let first = ModelContext(container)
        for number in 0..<50 { insertTrip(number, into: first) }
        try first.save()

        // Every other trip again (the same name and dates, a new destination), among new trips.
        let second = ModelContext(container)
        let again = stride(from: 0, to: 50, by: 2).map { insertTrip($0, into: second, destination: "Again") }
        let new = (50..<80).map { insertTrip($0, into: second) }
        try second.save()

        #expect(!second.hasChanges)
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Trip>()) == 80, "the duplicates updated the trips they match")
        let savedIDs = Set(try reader.fetchIdentifiers(FetchDescriptor<Trip>()))
        for trip in again + new {
            #expect(!trip.persistentModelID.isTemporary)
            #expect(savedIDs.contains(trip.persistentModelID))
            #expect(second.model(for: trip.persistentModelID) as? Trip === trip)
        }
        for trip in again {
            let read = try #require(reader.model(for: trip.persistentModelID) as? Trip)
            #expect(read.destination == "Again")
            #expect(trip.destination == "Again")
            #expect(read.bucketList.count == 3, "the upsert's list replaced the saved one")
            #expect(trip.bucketList.allSatisfy { $0.trip === trip })
        }
        #expect(try reader.fetchCount(FetchDescriptor<BucketListItem>()) == 80 * 3 + 25 * 3, "replaced items stay, unlinked")
    }

    @Test(arguments: stores)
    func aChangeAfterTheBulkSaveRollsBackToTheSavedState(kind: String) throws {
        let context = ModelContext(try container(kind))
        let trips = (0..<20).map { insertTrip($0, into: context) }
        try context.save()

        let trip = trips[3]
        let item = trip.bucketList[0]
        trip.destination = "Changed"
        item.title = "Changed too"
        trip.bucketList.removeLast()
        #expect(context.changedModelsArray.count == 3, "the trip, its item and the item it let go")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(trip.destination == "Somewhere")
        #expect(item.title == "Item 3.0")
        #expect(trip.bucketList.map(\.title) == ["Item 3.0", "Item 3.1", "Item 3.2"])
        #expect(trips[4].name == "Trip 4", "a model not changed reads its saved values")
    }
}
