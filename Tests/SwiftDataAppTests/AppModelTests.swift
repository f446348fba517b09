import SwiftData
import Testing

/// The travel app's models — non-final, `public` and `open` classes, unannotated properties,
/// `let`s — saved, fetched and reopened on every store.
@Suite struct AppModelTests {
    let stores: AppStores

    init() throws {
        stores = try AppStores()
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Saves a journey with every kind of property, and returns it.
    func savedJourney(in context: ModelContext) throws -> Journey {
        let journey = Journey(title: "Norway", createdBy: "planner")
        journey.nights = 9
        journey.budget = 1_250.5
        journey.isBooked = true
        journey.created = Self.start
        journey.tags = ["fjords", "trains"]
        context.insert(journey)
        journey.stops.append(Stop(place: "Oslo", order: 0))
        journey.stops.append(Stop(place: "Bergen", order: 1))
        journey.notes.append(Note(text: "Buy the rail pass"))
        try context.save()
        return journey
    }

    @Test(arguments: AppStores.kinds)
    func unannotatedPropertiesAndLetsAreSavedAndFetched(kind: String) throws {
        let container = try stores.container(kind)
        let saved = try savedJourney(in: ModelContext(container))

        // A second context reads the store, not the first context's objects.
        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<Journey>()).first)
        #expect(fetched !== saved)
        #expect(fetched.title == "Norway")
        #expect(fetched.nights == 9)
        #expect(fetched.budget == 1_250.5)
        #expect(fetched.isBooked)
        #expect(fetched.created == Self.start)
        #expect(fetched.lastOpened == saved.lastOpened)
        #expect(fetched.tags == ["fjords", "trains"])
        #expect(fetched.deposit == Decimal(250))
        #expect(fetched.website == URL(string: "https://example.com/norway"))
        #expect(fetched.stops.sorted { $0.order < $1.order }.map(\.place) == ["Oslo", "Bergen"])
        #expect(fetched.stops.allSatisfy { $0.journey === fetched }, "the inverse is kept")
        #expect(fetched.notes.map(\.text) == ["Buy the rail pass"])
        #expect(fetched.id == saved.id, "a `let` with an initial value gets its saved value back")
        #expect(fetched.createdBy == "planner", "a `let` set in init gets its saved value back")
        #expect(fetched.isLong, "a computed @Transient property reads the saved values")
        fetched.weeks = 2
        #expect(fetched.nights == 14)
    }

    @Test(arguments: AppStores.kinds.filter { $0 != "memory" })
    func aDocumentReopensWithModelsWhoseInitialValuesDifferEachRun(kind: String) throws {
        // `var created = Date()`, `var lastOpened = Date.now` and `let id = UUID()` are each new
        // model's own values, not the schema's: a second container (a second run of the app)
        // opens the document its first one wrote.
        let saved = try savedJourney(in: ModelContext(try stores.container(kind)))
        let reader = ModelContext(try stores.container(kind))
        let fetched = try reader.fetch(FetchDescriptor<Journey>())
        #expect(fetched.map(\.id) == [saved.id])
        #expect(fetched.map(\.lastOpened) == [saved.lastOpened])
    }

    @Test(arguments: AppStores.kinds)
    func editsOfANonFinalModelAreSaved(kind: String) throws {
        let container = try stores.container(kind)
        let context = ModelContext(container)
        let journey = try savedJourney(in: context)
        journey.title = "Norway by train"
        journey.nights += 1
        journey.tags.append("ferries")
        journey.stops.removeAll { $0.place == "Bergen" }
        #expect(journey.hasChanges)
        try context.save()

        let reader = ModelContext(container)
        let fetched = try #require(try reader.fetch(FetchDescriptor<Journey>()).first)
        #expect(fetched.title == "Norway by train")
        #expect(fetched.nights == 10)
        #expect(fetched.tags == ["fjords", "trains", "ferries"])
        #expect(fetched.stops.map(\.place) == ["Oslo"])
    }

    @Test(arguments: AppStores.kinds)
    func uniqueOnANonFinalModelUpdatesTheExistingModel(kind: String) throws {
        let container = try stores.container(kind)
        let context = ModelContext(container)
        _ = try savedJourney(in: context)
        let again = Journey(title: "Norway")
        again.nights = 3
        context.insert(again)
        try context.save()
        let journeys = try ModelContext(container).fetch(FetchDescriptor<Journey>())
        #expect(journeys.map(\.nights) == [3], "#Unique<Journey>([\\.title]) upserts")
    }

    @Test(arguments: AppStores.kinds)
    func predicatesAndSortsReadUnannotatedProperties(kind: String) throws {
        let container = try stores.container(kind)
        let context = ModelContext(container)
        for (title, nights) in [("Lima", 4), ("Oslo", 2), ("Kyoto", 7)] {
            let journey = Journey(title: title)
            journey.nights = nights
            context.insert(journey)
        }
        try context.save()
        let minimum = 3
        let long = try ModelContext(container).fetch(
            FetchDescriptor<Journey>(predicate: #Predicate { $0.nights >= minimum }, sortBy: [SortDescriptor(\.title)]))
        #expect(long.map(\.title) == ["Kyoto", "Lima"])
    }

    @Test func aPlainSubclassOfAModelIsSavedAsTheModel() throws {
        let container = try stores.container("json")
        let context = ModelContext(container)
        context.insert(Reminder(text: "Check out by 11"))
        try context.save()
        let notes = try ModelContext(container).fetch(FetchDescriptor<Note>())
        #expect(notes.map(\.text) == ["Check out by 11"])
        #expect(notes.allSatisfy { type(of: $0) == Note.self })
    }

    @Test func theSchemaNamesEveryModelAndItsInferredTypes() throws {
        let schema = Schema([Journey.self])
        let journey = try #require(schema.entity(named: "Journey"))
        #expect(Set(schema.entities.map(\.name)) == ["Journey", "Stop", "Note"])
        func type(_ name: String) -> AttributeType? { journey.attributes.first { $0.name == name }?.type }
        #expect(type("title") == .string)
        #expect(type("nights") == .int)
        #expect(type("stopCount") == .int)
        #expect(type("budget") == .double)
        #expect(type("isBooked") == .bool)
        #expect(type("tags") == .array(.string))
        #expect(type("deposit") == .decimal)
        #expect(type("website") == .url)
        #expect(journey.attributes.first { $0.name == "website" }?.isOptional == true)
        #expect(type("created") == .date)
        #expect(type("id") == .uuid)
        #expect(type("createdBy") == .string)
        #expect(journey.uniquenessConstraints == [["title"]])
        #expect(journey.attributes.first { $0.name == "nights" }?.defaultValue == .int(0))
        #expect(journey.attributes.first { $0.name == "created" }?.defaultValue == nil, "Date() is each model's own")
        #expect(journey.attributes.first { $0.name == "id" }?.defaultValue == nil, "UUID() is each model's own")
    }
}
