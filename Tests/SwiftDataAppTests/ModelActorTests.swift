import Foundation
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

    @Test(arguments: AppStores.kinds)
    @MainActor
    func anActorOnTheMainContextRunsItsCodeOneAtATimeWithTheMainActors(kind: String) async throws {
        let container = try stores.container(kind)
        let journal = MainContextJournal(modelContainer: container)
        // The main actor ticks as often as it gets a turn; the actor's code sleeps for a while
        // and counts the ticks it saw meanwhile: none, when the two never run at once (an actor
        // on a context of its own sees the main actor tick).
        let ticker = Task { @MainActor in
            while !Task.isCancelled {
                MainActorTicks.count += 1
                await Task.yield()
            }
        }
        await Task.yield()
        let ticksWhileTheActorRan = await journal.mainActorTicks(whileSleeping: 0.05)
        ticker.cancel()
        #expect(ticksWhileTheActorRan == 0)
    }

    @Test(arguments: AppStores.kinds)
    @MainActor
    func anActorOnTheMainContextSavesEachEditOnceBesideTheMainContextsAutosave(kind: String) async throws {
        let container = try stores.container(kind)
        let journal = MainContextJournal(modelContainer: container)
        #expect(container.mainContext.autosaveEnabled)
        // Each insert schedules the main context's autosave on the main actor; the actor's own
        // saves must not run at the same time as it (which saved models twice, or deleted a
        // model already deleted).
        let titles = (0..<100).map { "Journey \($0)" }
        try await journal.addAndRemoveEveryOther(titles)
        #expect(try container.mainContext.fetchCount(FetchDescriptor<Journey>()) == 50)
        let reopened = ModelContext(kind == "memory" ? container : try stores.container(kind))
        #expect(try reopened.fetch(FetchDescriptor<Journey>()).map(\.title).sorted()
            == titles.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element).sorted())
    }
}
