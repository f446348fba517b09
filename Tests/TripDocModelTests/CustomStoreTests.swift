import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// Stores written by users, in the WWDC24 talk's shape, plug into ModelContainer as SwiftData's do.
@Suite struct CustomStoreTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("custom")
    }

    func container(_ spelling: String) throws -> ModelContainer {
        let url = folder.appendingPathComponent("trips.json")
        return spelling == "talk"
            ? try ModelContainer(for: Trip.self, configurations: TalkJSONStoreConfiguration(name: "Trips", fileURL: url))
            : try ModelContainer(for: Trip.self, configurations: SDKJSONStoreConfiguration(name: "Trips", url: url))
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    @Test(arguments: ["talk", "sdk"])
    func insertFetchUpdateAndDeleteThroughACustomStore(spelling: String) throws {
        let context = ModelContext(try container(spelling))
        let trip = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.start + 86_400)
        context.insert(trip)
        trip.livingAccommodation = LivingAccommodation(address: "1 Hill", placeName: "Ryokan")
        context.insert(Trip(name: "Oslo", destination: "Norway", startDate: Self.start, endDate: Self.start))
        try context.save()
        #expect(trip.persistentModelID.storeIdentifier == "trips.json")

        let reread = ModelContext(try container(spelling))
        let trips = try reread.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Oslo", "Tokyo"], "sorted in memory: the store asked for it")
        #expect(trips[1].startDate == Self.start)
        #expect(trips[1].livingAccommodation?.placeName == "Ryokan")
        #expect(trips[1].livingAccommodation?.trip === trips[1])
        let norway = try reread.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Norway" }))
        #expect(norway.map(\.name) == ["Oslo"], "filtered in memory")

        trips[1].destination = "Kyoto"
        reread.delete(trips[0])
        try reread.save()
        let last = ModelContext(try container(spelling))
        #expect(try last.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["Kyoto"])
        #expect(try last.fetchCount(FetchDescriptor<LivingAccommodation>()) == 1)
    }
}
