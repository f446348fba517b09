import SwiftData
import Testing
import TripDocTestSupport

/// Codable attributes and the main context's autosave, written as apps write them (no `save()`),
/// in both language modes, on the three document formats and in memory.
@Suite struct CodableAndAutosaveTests {
    let stores: AppStores

    init() throws {
        stores = try AppStores()
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func codableValuesAreKeptAndQueried(kind: String) throws {
        let container = try ModelContainer(for: PackingItem.self, configurations: stores.configuration(kind))
        let context = ModelContext(container)
        let boots = PackingItem(name: "Boots", bag: .checked)
        boots.forWeather = [.rainy(millimetres: 12), .snowy(centimetres: 30.5, roadsClosed: true)]
        boots.size = Dimensions(width: 30, height: 20, depth: nil)
        boots.countsByDay = ["Mon": 1, "Tue": 2]
        context.insert(boots)
        context.insert(PackingItem(name: "Sunglasses", bag: .carryOn))
        try context.save()

        let reopened = ModelContext(
            kind == "memory" ? container : try ModelContainer(for: PackingItem.self, configurations: stores.configuration(kind)))
        let checked = Bag.checked
        let found = try reopened.fetch(FetchDescriptor<PackingItem>(predicate: #Predicate { $0.bag == checked }))
        #expect(found.map(\.name) == ["Boots"])
        let item = try #require(found.first)
        #expect(item.forWeather == [.rainy(millimetres: 12), .snowy(centimetres: 30.5, roadsClosed: true)])
        #expect(item.size == Dimensions(width: 30, height: 20, depth: nil))
        #expect(item.countsByDay == ["Mon": 1, "Tue": 2])
        let sorted = try reopened.fetch(FetchDescriptor<PackingItem>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
        #expect(sorted.map(\.bag) == [.carryOn, .checked])
    }

    @Test(arguments: AppStores.kinds.filter { $0 != "memory" })
    @MainActor
    func editsInTheMainContextAreSavedWithoutSave(kind: String) async throws {
        let container = try ModelContainer(for: PackingItem.self, configurations: stores.configuration(kind))
        let main = container.mainContext
        #expect(main.autosaveEnabled)
        main.insert(PackingItem(name: "Umbrella", bag: .backpack))
        // The main actor's next turn, as an app's run loop gives it.
        await Task.yield()
        try await Task.sleep(for: .milliseconds(50))

        let reopened = ModelContext(try ModelContainer(for: PackingItem.self, configurations: stores.configuration(kind)))
        #expect(try reopened.fetch(FetchDescriptor<PackingItem>()).map(\.name) == ["Umbrella"])
    }
}
