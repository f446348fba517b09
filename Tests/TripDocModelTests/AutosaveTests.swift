import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// `mainContext` saves without a call to `save()`, as SwiftData's does; contexts made with
/// `ModelContext(container)` do not, unless autosave is turned on.
@Suite struct AutosaveTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("autosave")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("trips.\(kind)"))
    }

    /// Lets the main actor run what was scheduled on it before now.
    @MainActor func nextTurnOfTheMainActor() async {
        await Task { @MainActor in }.value
    }

    /// The trips another context over the same store sees: a new container over the file, or
    /// for memory a new context of the same container.
    func tripNames(_ kind: String, container: ModelContainer) throws -> [String] {
        let reader = kind == "memory" ? container : try ModelContainer(for: Trip.self, configurations: configuration(kind))
        return try ModelContext(reader).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name)
    }

    @Test(arguments: stores) @MainActor
    func theMainContextSavesEditsMadeWithoutSave(kind: String) async throws {
        let container = try ModelContainer(for: Trip.self, configurations: configuration(kind))
        let context = container.mainContext
        #expect(context.autosaveEnabled)
        let trip = Trip(name: "Tokyo", destination: "Japan")
        context.insert(trip)
        context.insert(Trip(name: "Oslo", destination: "Norway"))
        #expect(context.hasChanges, "not saved before the main actor's next turn")
        await nextTurnOfTheMainActor()
        #expect(!context.hasChanges)
        #expect(try tripNames(kind, container: container) == ["Oslo", "Tokyo"])

        trip.destination = "Kyoto"
        await nextTurnOfTheMainActor()
        let reader = kind == "memory" ? container : try ModelContainer(for: Trip.self, configurations: configuration(kind))
        let reread = try ModelContext(reader).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Tokyo" }))
        #expect(reread.map(\.destination) == ["Kyoto"])
        #expect(context.autosaveError == nil)
    }

    @Test(arguments: stores) @MainActor
    func aContextMadeByTheAppDoesNotAutosave(kind: String) async throws {
        let container = try ModelContainer(for: Trip.self, configurations: configuration(kind))
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled)
        context.insert(Trip(name: "Lima", destination: "Peru"))
        await nextTurnOfTheMainActor()
        #expect(context.hasChanges)
        #expect(try tripNames(kind, container: container) == [])
    }

    @Test(arguments: stores)
    func aContextWithAutosaveOnSavesWhenItGoesAway(kind: String) throws {
        let container = try ModelContainer(for: Trip.self, configurations: configuration(kind))
        do {
            let context = ModelContext(container)
            context.autosaveEnabled = true
            context.insert(Trip(name: "Cusco", destination: "Peru"))
        }
        #expect(try tripNames(kind, container: container) == ["Cusco"])
    }

    @Test @MainActor
    func aFailedAutosaveIsReportedAndTheChangesStayPending() async throws {
        let url = scratch.file("read-only.json")
        _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url, allowsSave: false))
        let context = container.mainContext
        nonisolated(unsafe) var posted: [any Error] = []
        let observer = NotificationCenter.default.addObserver(
            forName: ModelContext.autosaveDidFail, object: context, queue: nil
        ) { notification in
            if let error = notification.userInfo?["error"] as? any Error { posted.append(error) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.insert(Trip(name: "Rome", destination: "Italy"))
        await nextTurnOfTheMainActor()
        #expect(context.hasChanges, "the changes are still pending")
        let error = try #require(context.autosaveError as? ModelContextError)
        #expect(error == .saveNotAllowed("read-only"))
        #expect(posted.count == 1)
        #expect((posted.first as? ModelContextError) == .saveNotAllowed("read-only"))
    }
}
