import SwiftData
import Testing

/// A `@ModelActor` importing in the background while the main context reads, identifiers
/// crossing between them, and contexts of one container seeing each other's saves.
@Suite struct ModelActorTests {
    let stores: AppStores

    init() throws {
        stores = try AppStores()
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func aBackgroundActorInsertsAndTheMainContextReadsWhatItSaved(kind: String) async throws {
        let container = try stores.container(kind)
        let importer = JourneyImporter(modelContainer: container)
        let ids = try await importer.importJourneys(["Oslo", "Lima"], places: ["harbour", "museum"])
        #expect(ids.allSatisfy { !$0.isTemporary }, "the identifiers are the saved models'")

        let main = container.mainContext
        let journeys = try main.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
        #expect(journeys.map(\.title) == ["Lima", "Oslo"])
        let oslo = try #require(main.model(for: ids[0]) as? Journey)
        #expect(oslo.title == "Oslo")
        #expect(oslo.createdBy == "importer")
        #expect(oslo.stops.map(\.place).sorted() == ["harbour", "museum"])
        #expect(main.registeredModel(for: ids[1]) as Journey? === journeys[0])
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func eachSideSeesTheOthersSavesWhenItFetchesAgain(kind: String) async throws {
        let container = try stores.container(kind)
        let importer = JourneyImporter(modelContainer: container)
        let id = try #require(try await importer.importJourneys(["Oslo"]).first)
        let main = container.mainContext
        let oslo = try #require(try main.fetch(FetchDescriptor<Journey>()).first)
        #expect(try await importer.nights(of: id) == 0)

        // The main context saves; the actor's context sees it on its next fetch.
        oslo.nights = 4
        try main.save()
        #expect(try await importer.nights(of: id) == 4)

        // The actor renames the model the main context holds; the main context's next fetch
        // gives the same object with the saved title.
        try await importer.rename(id, to: "Oslo and Bergen")
        let again = try main.fetch(FetchDescriptor<Journey>())
        #expect(again.first === oslo)
        #expect(oslo.title == "Oslo and Bergen")
        #expect(oslo.nights == 4)
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func unsavedChangesInTheMainContextOutliveAnotherContextsSave(kind: String) async throws {
        let container = try stores.container(kind)
        let importer = JourneyImporter(modelContainer: container)
        let id = try #require(try await importer.importJourneys(["Oslo"]).first)
        let main = container.mainContext
        main.autosaveEnabled = false  // the changes must stay unsaved across the await below
        let oslo = try #require(try main.fetch(FetchDescriptor<Journey>()).first)
        oslo.nights = 6
        try await importer.rename(id, to: "Oslo in winter")
        _ = try main.fetch(FetchDescriptor<Journey>())
        #expect(oslo.nights == 6, "a model with unsaved changes keeps them")
        #expect(oslo.title == "Oslo", "and is not refreshed until they are saved or rolled back")
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func theMainContextReadsWhileTheActorImports(kind: String) async throws {
        let container = try stores.container(kind)
        let importer = JourneyImporter(modelContainer: container)
        let main = container.mainContext
        let titles = (0..<40).map { "Journey \($0)" }
        async let imported = withThrowingTaskGroup(of: [PersistentIdentifier].self) { group in
            for batch in stride(from: 0, to: titles.count, by: 10) {
                let slice = Array(titles[batch..<batch + 10])
                group.addTask { try await importer.importJourneys(slice) }
            }
            var ids: [PersistentIdentifier] = []
            for try await batch in group { ids += batch }
            return ids
        }
        var counts: [Int] = []
        for _ in 0..<20 {
            counts.append(try main.fetchCount(FetchDescriptor<Journey>()))
            await Task.yield()
        }
        let ids = try await imported
        #expect(ids.count == 40)
        #expect(counts.allSatisfy { $0 % 10 == 0 }, "each save is seen whole or not at all: \(counts)")
        #expect(try main.fetchCount(FetchDescriptor<Journey>()) == 40)
        #expect(try await importer.titles() == titles.sorted())
    }

    @Test(arguments: AppStores.kinds)
    func theActorResolvesIdentifiersByType(kind: String) async throws {
        let container = try stores.container(kind)
        let importer = JourneyImporter(modelContainer: container)
        let id = try #require(try await importer.importJourneys(["Oslo"]).first)
        #expect(await importer.finds(id, as: Journey.self))
        #expect(await !importer.finds(id, as: Note.self), "an identifier of another model type is nil")

        // An identifier the store does not hold (deleted in the meantime) is nil too.
        let context = ModelContext(container)
        try context.delete(model: Journey.self)
        try context.save()
        let other = JourneyImporter(modelContainer: container)
        #expect(await !other.finds(id, as: Journey.self))
    }

    @Test func theActorRunsOnItsModelExecutor() async throws {
        let container = try stores.container("memory")
        let importer = JourneyImporter(modelContainer: container)
        #expect(await importer.runsOnItsModelExecutor())
        let executor = try #require(importer.modelExecutor as? DefaultSerialModelExecutor)
        #expect(executor.isIsolatingCurrentContext() == false, "the test itself is not on the actor")
        #expect(importer.modelContainer === container)
    }

    @Test func containersAndIdentifiersAreSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(ModelContainer.self)
        requireSendable(PersistentIdentifier.self)
        requireSendable(DefaultSerialModelExecutor.self)
    }
}
