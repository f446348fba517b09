import Foundation
import Synchronization
import Testing
import TripDoc

/// A model whose initial values make another model, each time one is made (fetched ones too).
@Model
final class Shelf {
    var name: String
    var sticker: Sticker? = Sticker.made(text: "new shelf")

    init(name: String) { self.name = name }
}

@Model
final class Sticker {
    var text: String

    init(text: String) { self.text = text }

    /// Every sticker made through ``made(text:)``, in order (read and written under `lock`).
    nonisolated(unsafe) private static var madeSoFar: [Sticker] = []
    private static let lock = NSLock()

    static func made(text: String) -> Sticker {
        let sticker = Sticker(text: text)
        lock.withLock { madeSoFar.append(sticker) }
        return sticker
    }

    /// How many stickers ``made(text:)`` has made.
    static var madeCount: Int { lock.withLock { madeSoFar.count } }

    /// The texts of the stickers ``made(text:)`` made after the first `count`, and whether each
    /// is outside any context.
    static func madeAfter(_ count: Int) -> [(text: String, isOutsideContexts: Bool)] {
        lock.withLock { madeSoFar.dropFirst(count).map { ($0.text, $0.modelContext == nil) } }
    }
}

/// What a fetch gives when it makes models from stored snapshots in bulk, and when the in-memory
/// store answers from the snapshots it listed for an earlier fetch: the context's unsaved
/// changes, models it already holds, what other contexts saved since, relationships read when
/// first used, sorts with offsets and limits.
@Suite struct FetchMaterializationTests {
    /// An in-memory container with `count` saved trips (`Trip 0` …), every third going to
    /// Kyoto, each with an accommodation and two bucket-list items.
    func container(trips count: Int) throws -> ModelContainer {
        let container = try ModelContainer(
            for: Trip.self, BucketListItem.self, LivingAccommodation.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for number in 0..<count {
            let trip = Trip(
                name: "Trip \(number)", destination: number % 3 == 0 ? "Kyoto" : "Oslo",
                startDate: Date(timeIntervalSinceReferenceDate: Double((number * 7) % count) * 3600),
                endDate: Date(timeIntervalSinceReferenceDate: 1e9))
            context.insert(trip)
            trip.livingAccommodation = LivingAccommodation(address: "\(number) Harbour Street", placeName: "Stay \(number)")
            for item in 0..<2 {
                trip.bucketList.append(
                    BucketListItem(title: "Sight \(item) of \(number)", details: "", hasReservation: item == 0, isInPlan: true))
            }
        }
        try context.save()
        return container
    }

    func names(_ trips: [Trip]) -> [String] { trips.map(\.name) }

    @Test func aFetchShowsTheContextsUnsavedInsertsChangesAndDeletions() throws {
        let container = try container(trips: 30)
        let context = ModelContext(container)
        let saved = try context.fetch(FetchDescriptor<Trip>())
        saved[1].destination = "Kyoto"
        context.delete(saved[2])
        context.insert(Trip(name: "New", destination: "Kyoto"))

        let all = try context.fetch(FetchDescriptor<Trip>())
        #expect(all.count == 30)
        #expect(all.contains { $0.name == "New" })
        #expect(!all.contains { $0 === saved[2] })
        let kyoto = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Kyoto" }))
        #expect(Set(names(kyoto)) == Set((0..<30).filter { $0 % 3 == 0 }.map { "Trip \($0)" } + ["Trip 1", "New"]))
        #expect(kyoto.contains { $0 === saved[1] })

        var without = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Kyoto" })
        without.includePendingChanges = false
        let stored = try context.fetch(without)
        #expect(!stored.contains { $0.name == "New" })
        #expect(stored.filter { $0.name != "Trip 1" }.count == 10)
        // The changed model is the context's, unsaved value and all.
        #expect(try context.fetch(FetchDescriptor<Trip>()).first { $0.name == "Trip 1" }?.destination == "Kyoto")
    }

    @Test func aSecondFetchGivesTheRegisteredModelsWithWhatOtherContextsSaved() throws {
        let container = try container(trips: 12)
        let context = ModelContext(container)
        let first = try context.fetch(FetchDescriptor<Trip>())
        first[4].destination = "Lima"  // unsaved here

        let other = ModelContext(container)
        let theirs = try other.fetch(FetchDescriptor<Trip>())
        theirs[3].destination = "Paris"
        theirs[4].destination = "Quebec"
        try other.save()

        let second = try context.fetch(FetchDescriptor<Trip>())
        #expect(second.count == first.count)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(second[3].destination == "Paris")
        #expect(second[4].destination == "Lima")
        #expect(second[5].destination == theirs[5].destination)
    }

    @Test func fetchesAfterSavesInsertsDeletionsAndEraseSeeTheStoreAsItIsNow() throws {
        let container = try container(trips: 9)
        let reader = ModelContext(container)
        let kyoto = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Kyoto" })
        #expect(try ModelContext(container).fetch(kyoto).count == 3)

        let writer = ModelContext(container)
        writer.insert(Trip(name: "Later", destination: "Kyoto"))
        try writer.save()
        #expect(try ModelContext(container).fetch(kyoto).count == 4)
        #expect(try reader.fetch(FetchDescriptor<Trip>()).count == 10)

        let trips = try writer.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(names(trips) == ["Later"] + (0..<9).map { "Trip \($0)" })
        writer.delete(trips[4])  // Trip 3, to Kyoto
        trips[2].destination = "Kyoto"  // Trip 1
        trips[1].destination = "Lima"  // Trip 0
        try writer.save()
        let now = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        #expect(now.count == 9)
        #expect(!now.contains { $0.name == "Trip 3" })
        let kyotoNow = try ModelContext(container).fetch(kyoto)
        #expect(Set(names(kyotoNow)) == ["Later", "Trip 1", "Trip 6"])
        #expect(try ModelContext(container).fetchCount(kyoto) == 3)

        try container.erase()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).isEmpty)
        #expect(try ModelContext(container).fetch(kyoto).isEmpty)
    }

    @Test func relationshipsOfFetchedModelsResolveWhenFirstReadAndKeepTheirInverses() throws {
        let container = try container(trips: 6)
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        let stay = try #require(trips[2].livingAccommodation)
        #expect(stay.placeName == "Stay 2")
        #expect(stay.trip === trips[2])
        #expect(trips[2].bucketList.map(\.title).sorted() == ["Sight 0 of 2", "Sight 1 of 2"])

        // Moving an accommodation keeps both sides in step, through the fetched models.
        trips[3].livingAccommodation = stay
        #expect(stay.trip === trips[3])
        #expect(trips[2].livingAccommodation == nil)
        try context.save()
        let reader = ModelContext(container)
        let again = try reader.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Trip 3" }))
        #expect(again.first?.livingAccommodation?.placeName == "Stay 2")
    }

    @Test func predicatesOverRelationshipsAreEvaluatedOnTheModels() throws {
        let container = try container(trips: 10)
        let context = ModelContext(container)
        let byStay = try context.fetch(
            FetchDescriptor<Trip>(predicate: #Predicate { $0.livingAccommodation?.placeName == "Stay 7" }))
        #expect(names(byStay) == ["Trip 7"])
        let items = try context.fetch(
            FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.trip?.destination == "Kyoto" && $0.hasReservation }))
        #expect(Set(items.map(\.title)) == Set([0, 3, 6, 9].map { "Sight 0 of \($0)" }))
        #expect(items.allSatisfy { $0.trip?.destination == "Kyoto" })
    }

    /// Fetches whose predicate bounds an attribute no `#Index` serves (`destination`), which
    /// the in-memory store answers from a column of the attribute's values, select what the
    /// same condition selects on every model, in the same order, Unicode spellings included.
    @Test func unindexedBoundsSelectWhatTheConditionSelectsOnEveryModel() throws {
        let container = try container(trips: 24)
        let writer = ModelContext(container)
        let trips = try writer.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        trips[5].destination = "Québec"
        trips[6].destination = "Que\u{301}bec"
        trips[7].destination = "Lima"
        try writer.save()

        let reader = ModelContext(container)
        let everything = try reader.fetch(FetchDescriptor<Trip>())
        let cases: [(Predicate<Trip>, (Trip) -> Bool)] = [
            (#Predicate { $0.destination == "Kyoto" }, { $0.destination == "Kyoto" }),
            (#Predicate { $0.destination == "Québec" }, { $0.destination == "Québec" }),
            (#Predicate { $0.destination >= "L" && $0.destination < "P" }, { $0.destination >= "L" && $0.destination < "P" }),
            (#Predicate { $0.destination > "Kyoto" }, { $0.destination > "Kyoto" }),
            (#Predicate { $0.destination == "Kyoto" && $0.name != "Trip 3" }, { $0.destination == "Kyoto" && $0.name != "Trip 3" }),
            (#Predicate { $0.destination == "Nowhere" }, { $0.destination == "Nowhere" }),
        ]
        for (predicate, condition) in cases {
            let expected = everything.filter(condition).map(\.name)
            #expect(names(try ModelContext(container).fetch(FetchDescriptor(predicate: predicate))) == expected)
            // Twice: the second reads the column the first made.
            #expect(names(try ModelContext(container).fetch(FetchDescriptor(predicate: predicate))) == expected)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor(predicate: predicate)) == expected.count)
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Québec" })) == 2)
    }

    /// A model a fetched model's initial values make while the context makes it (here a
    /// sticker) is a model of its own, with its own values, and the fetched model keeps its
    /// saved relationship.
    @Test func modelsMadeByInitialValuesWhileAFetchedModelIsMadeKeepTheirValues() throws {
        let container = try ModelContainer(for: Shelf.self, Sticker.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        let shelf = Shelf(name: "Kitchen")
        writer.insert(shelf)
        shelf.sticker?.text = "saved sticker"
        try writer.save()

        let reader = ModelContext(container)
        let before = Sticker.madeCount
        let fetched = try #require(try reader.fetch(FetchDescriptor<Shelf>()).first)
        #expect(fetched.sticker?.text == "saved sticker")
        #expect(fetched.name == "Kitchen")
        let made = Sticker.madeAfter(before)
        #expect(made.count >= 1)
        #expect(made.allSatisfy { $0.text == "new shelf" && $0.isOutsideContexts })
    }

    /// Models created in code on another thread while a context makes fetched models get
    /// backing data of their own: what a fetch does to make its models stays on its thread.
    @Test func modelsCreatedOnAnotherThreadDuringFetchesKeepTheirValues() throws {
        let container = try container(trips: 300)
        let done = DispatchSemaphore(value: 0)
        let failures = Mutex(0)
        let creator = Thread {
            for number in 0..<3000 {
                let shelf = Shelf(name: "Shelf \(number)")
                let trip = Trip(name: "Made \(number)", destination: "Oslo")
                if shelf.name != "Shelf \(number)" || trip.name != "Made \(number)" || shelf.sticker?.text != "new shelf" {
                    failures.withLock { $0 += 1 }
                }
            }
            done.signal()
        }
        creator.start()
        for _ in 0..<20 { #expect(try ModelContext(container).fetch(FetchDescriptor<Trip>()).count == 300) }
        done.wait()
        #expect(failures.withLock { $0 } == 0)
    }

    @Test(arguments: [(0, 5), (3, 4), (8, 10), (12, 3)])
    func sortsWithOffsetsAndLimitsSelectWhatSortingEveryModelSelects(offset: Int, limit: Int) throws {
        let container = try container(trips: 14)
        let everything = try ModelContext(container).fetch(FetchDescriptor<Trip>())
        let expected = everything.sorted { ($0.destination, $0.startDate) < ($1.destination, $1.startDate) }
            .dropFirst(offset).prefix(limit).map(\.name)

        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.destination), SortDescriptor(\.startDate)])
        descriptor.fetchOffset = offset
        descriptor.fetchLimit = limit
        #expect(names(try ModelContext(container).fetch(descriptor)) == expected)

        // Without a sort: document order, cut the same way.
        var unsorted = FetchDescriptor<Trip>()
        unsorted.fetchOffset = offset
        unsorted.fetchLimit = limit
        let inOrder = try ModelContext(container).fetch(unsorted)
        #expect(names(inOrder) == Array(everything.dropFirst(offset).prefix(limit).map(\.name)))
    }
}
