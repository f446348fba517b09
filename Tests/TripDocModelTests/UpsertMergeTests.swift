import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// An insert that matches an existing model on `#Unique` updates it (an upsert) with the values
/// the inserted object holds, and keeps the relationships the inserted object left empty.
@Suite struct UpsertMergeTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("upsert")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("trips.\(kind)"))
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)
    static let end = Date(timeIntervalSince1970: 2_000_500_000)

    /// A saved Tokyo trip with two bucket-list items and a place to stay.
    func savedTokyo(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        let tokyo = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.end)
        context.insert(tokyo)
        tokyo.bucketList = [
            BucketListItem(title: "Sushi", details: "Tsukiji", hasReservation: true, isInPlan: true),
            BucketListItem(title: "Temple", details: "Senso-ji", hasReservation: false, isInPlan: false),
        ]
        tokyo.livingAccommodation = LivingAccommodation(address: "1-1 Ginza", placeName: "Hotel")
        try context.save()
    }

    @Test(arguments: stores)
    func aDuplicateKeepsTheRelationshipsItNeverSet(kind: String) throws {
        let container = try ModelContainer(for: Trip.self, configurations: configuration(kind))
        try savedTokyo(container)

        // The app inserts Tokyo again (as an import or a sync does), with a new destination.
        let context = ModelContext(container)
        let duplicate = Trip(name: "Tokyo", destination: "Kyoto", startDate: Self.start, endDate: Self.end)
        context.insert(duplicate)
        try context.save()

        let reader = ModelContext(container)
        let trips = try reader.fetch(FetchDescriptor<Trip>())
        #expect(trips.count == 1)
        let trip = try #require(trips.first)
        #expect(trip.destination == "Kyoto", "the values the inserted object holds win")
        #expect(trip.bucketList.map(\.title).sorted() == ["Sushi", "Temple"], "the list it never set is kept")
        #expect(trip.livingAccommodation?.placeName == "Hotel")
        let items = try reader.fetch(FetchDescriptor<BucketListItem>())
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0.trip === trip }, "no item is orphaned")
        #expect(duplicate.bucketList.count == 2, "the inserted object is the model now")
    }

    @Test(arguments: stores)
    func aDuplicateThatSetsARelationshipReplacesIt(kind: String) throws {
        let container = try ModelContainer(for: Trip.self, configurations: configuration(kind))
        try savedTokyo(container)

        let context = ModelContext(container)
        let duplicate = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.end)
        context.insert(duplicate)
        duplicate.bucketList = [BucketListItem(title: "Ramen", details: "", hasReservation: false, isInPlan: true)]
        try context.save()

        let reader = ModelContext(container)
        let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.bucketList.map(\.title) == ["Ramen"])
        #expect(trip.livingAccommodation?.placeName == "Hotel", "the to-one it left nil is kept")
        let items = try reader.fetch(FetchDescriptor<BucketListItem>(sortBy: [SortDescriptor(\.title)]))
        #expect(items.map(\.title) == ["Ramen", "Sushi", "Temple"])
        #expect(items.map { $0.trip === trip } == [true, false, false], "the replaced items no longer point at the trip")
    }
}
