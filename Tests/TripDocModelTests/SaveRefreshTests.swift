import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// What a save does to the models a context holds: the models it changed (those sent, and those
/// the store changed for them: inverses, cascades, upserts) take the store's state; the others
/// are left alone, so that a save costs what it changed, not what the context holds.
@Suite struct SaveRefreshTests {
    static let stores = ["json", "tripbundle", "memory"]
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("save-refresh") }

    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self,
            configurations: kind == "memory"
                ? ModelConfiguration(isStoredInMemoryOnly: true)
                : ModelConfiguration(url: scratch.url.appendingPathComponent("trips.\(kind)")))
    }

    @Test(arguments: stores)
    func aSaveRefreshesTheModelsItChangedAndLeavesTheOthers(kind: String) throws {
        let container = try container(kind)
        let writer = ModelContext(container)
        let tokyo = Trip(name: "Tokyo", destination: "Japan", startDate: .distantPast, endDate: .distantFuture)
        let oslo = Trip(name: "Oslo", destination: "Norway", startDate: .distantPast, endDate: .distantFuture)
        writer.insert(tokyo)
        writer.insert(oslo)
        tokyo.bucketList = [BucketListItem(title: "Sushi", details: "", hasReservation: false, isInPlan: true)]
        try writer.save()

        let reader = ModelContext(container)
        let trips = try reader.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let (readerOslo, readerTokyo) = (trips[0], trips[1])
        let sushi = try #require(readerTokyo.bucketList.first)

        // Another context changes Oslo; this one saves a change to Tokyo only.
        oslo.destination = "Norge"
        try writer.save()
        readerTokyo.destination = "Nippon"
        try reader.save()
        #expect(readerTokyo.destination == "Nippon")
        #expect(readerOslo.destination == "Norway", "a model the save did not change keeps its state until fetched")
        _ = try reader.fetch(FetchDescriptor<Trip>())
        #expect(readerOslo.destination == "Norge", "fetching again gives it the saved state")

        // Moving the item to Oslo changes both trips through the inverse: both are refreshed.
        sushi.trip = readerOslo
        try reader.save()
        #expect(readerTokyo.bucketList.isEmpty)
        #expect(readerOslo.bucketList.map(\.title) == ["Sushi"])

        // Deleting Oslo deletes the item (cascade): the context lets go of both.
        reader.delete(readerOslo)
        try reader.save()
        #expect(sushi.isDeleted)
        #expect(reader.registeredModel(for: sushi.persistentModelID) as BucketListItem? == nil)
        #expect(try reader.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
    }
}
