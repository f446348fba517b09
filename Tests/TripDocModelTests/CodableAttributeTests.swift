import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// Codable enums and structs as @Model attributes: stored as composite values every store and
/// format keeps, readable field by field, and usable in #Predicate.
@Suite struct CodableAttributeTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("codable")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("journeys.\(kind)"))
    }

    static let paris = Address(
        street: "1 rue de Rivoli", city: "Paris", coordinate: Coordinate(latitude: 48.8606, longitude: -0.0),
        tags: ["home", "city"])
    static let lyon = Address(street: "2 quai", city: "Lyon", coordinate: nil, tags: [])

    static func journey() -> Journey {
        let journey = Journey(
            name: "Summer", mode: .train, priority: .high, home: paris, booking: .flight(number: "AF 12", seat: nil))
        journey.previousMode = .car
        journey.destination = lyon
        journey.stops = [
            Stop(
                name: "Dijon", arrival: Date(timeIntervalSinceReferenceDate: 800_000_000.25), mode: .train,
                cost: Decimal(string: "12.345")!, ticket: Data([0, 255, 7]), link: URL(string: "https://example.com/t?a=1")),
            Stop(
                name: "Mâcon", arrival: Date(timeIntervalSinceReferenceDate: -1.5), mode: .car, cost: 0, ticket: nil,
                link: nil),
        ]
        journey.modes = [.train, .plane]
        journey.ratings = ["food": 5, "views": Int.max, "noise": Int.min]
        journey.notesByDay = [1: ["arrive"], 12: []]
        journey.legs = [.none, .hotel(name: "Le Grand", nights: 2)]
        journey.sparse = [1, nil, 3]
        return journey
    }

    func expectSame(_ journey: Journey, as expected: Journey) {
        #expect(journey.name == expected.name)
        #expect(journey.mode == expected.mode)
        #expect(journey.priority == expected.priority)
        #expect(journey.previousMode == expected.previousMode)
        #expect(journey.home == expected.home)
        #expect(journey.home.coordinate?.longitude.sign == .minus, "-0.0 inside a struct stays -0.0")
        #expect(journey.destination == expected.destination)
        #expect(journey.booking == expected.booking)
        #expect(journey.stops == expected.stops)
        #expect(journey.modes == expected.modes)
        #expect(journey.ratings == expected.ratings)
        #expect(journey.notesByDay == expected.notesByDay)
        #expect(journey.legs == expected.legs)
        #expect(journey.sparse == expected.sparse)
    }

    @Test(arguments: stores)
    func codableEnumsAndStructsSurviveASaveAndAReopen(kind: String) throws {
        let container = try ModelContainer(for: Journey.self, configurations: configuration(kind))
        let context = ModelContext(container)
        context.insert(Self.journey())
        try context.save()

        // A new context (and for a document, a new container) reads the values back from the store.
        let reopened = kind == "memory" ? container : try ModelContainer(for: Journey.self, configurations: configuration(kind))
        let reader = ModelContext(reopened)
        let read = try #require(try reader.fetch(FetchDescriptor<Journey>()).first)
        expectSame(read, as: Self.journey())

        // Changes to a struct's field and to an enum's associated values are saved like any change.
        read.home.city = "Marseille"
        read.booking = .hotel(name: "Vieux Port", nights: 3)
        read.destination = nil
        try reader.save()
        let again = try #require(try ModelContext(reopened).fetch(FetchDescriptor<Journey>()).first)
        #expect(again.home.city == "Marseille")
        #expect(again.booking == .hotel(name: "Vieux Port", nights: 3))
        #expect(again.destination == nil)
    }

    @Test func rawValueEnumsAreStoredAsTheirRawValuesAndOtherCodableValuesDescribeThemselves() throws {
        let entity = try #require(Schema([Journey.self]).entity(named: "Journey"))
        #expect(entity.attribute(named: "mode")?.type == .string)
        #expect(entity.attribute(named: "priority")?.type == .int)
        #expect(entity.attribute(named: "previousMode")?.type == .string)
        #expect(entity.attribute(named: "previousMode")?.isOptional == true)
        #expect(entity.attribute(named: "home")?.type == .codable)
        #expect(entity.attribute(named: "home")?.isOptional == false)
        #expect(entity.attribute(named: "destination")?.type == .codable)
        #expect(entity.attribute(named: "destination")?.isOptional == true)
        #expect(entity.attribute(named: "stops")?.type == .codable)
        #expect(entity.attribute(named: "stops")?.defaultValue == .array([]))
        #expect(entity.attribute(named: "ratings")?.defaultValue == .composite([:]))
        #expect(entity.attribute(named: "legs")?.defaultValue == nil)
    }

    @Test func theDocumentHoldsTheValuesFieldByField() throws {
        let url = scratch.file("fields.json")
        do {
            let context = ModelContext(try ModelContainer(for: Journey.self, configurations: ModelConfiguration(url: url)))
            context.insert(Self.journey())
            try context.save()
        }
        // The container is released: the journal of its saves is folded into the document.
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let snapshots = try #require(root["snapshots"] as? [String: [[String: Any]]])
        let journey = try #require(snapshots["Journey"]?.first)
        #expect(journey["mode"] as? String == "train")
        #expect(journey["priority"] as? Int == 3)
        let home = try #require(journey["home"] as? [String: Any])
        #expect(home["city"] as? String == "Paris")
        #expect((home["coordinate"] as? [String: Any])?["latitude"] as? Double == 48.8606)
        let stop = try #require((journey["stops"] as? [[String: Any]])?.first)
        #expect(stop["arrival"] as? String == "2026-05-09T06:13:20.25Z")
        #expect(stop["cost"] as? String == "12.345")
        #expect(stop["ticket"] as? String == "AP8H")
        let booking = try #require(journey["booking"] as? [String: [String: Any]])
        #expect(booking["flight"]?["number"] as? String == "AF 12")
        #expect((journey["sparse"] as? [Any])?[1] is NSNull)
        let schema = try #require(root["schema"] as? [String: Any])
        let entity = try #require((schema["entities"] as? [[String: Any]])?.first { $0["name"] as? String == "Journey" })
        let homeAttribute = try #require(
            (entity["attributes"] as? [[String: Any]])?.first { $0["name"] as? String == "home" })
        #expect(homeAttribute["type"] as? String == "Codable")
    }

    @Test(arguments: stores)
    func predicatesCompareCodableValues(kind: String) throws {
        let context = ModelContext(try ModelContainer(for: Journey.self, configurations: configuration(kind)))
        let summer = Self.journey()
        let winter = Journey(name: "Winter", mode: .plane, priority: .low, home: Self.lyon, booking: .none)
        let spring = Journey(
            name: "Spring", mode: .car, priority: .normal, home: Self.paris, booking: .hotel(name: "Inn", nights: 1))
        for journey in [summer, winter, spring] { context.insert(journey) }
        try context.save()

        func names(_ predicate: Predicate<Journey>) throws -> [String] {
            try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
        let plane = TravelMode.plane
        #expect(try names(#Predicate { $0.mode == plane }) == ["Winter"])
        #expect(try names(#Predicate { $0.mode.rawValue == "car" }) == ["Spring"])
        let normal = Priority.normal
        #expect(try names(#Predicate { $0.priority >= normal }) == ["Spring", "Summer"])
        #expect(try names(#Predicate { $0.priority.rawValue < 2 }) == ["Winter"])
        let paris = Self.paris
        #expect(try names(#Predicate { $0.home == paris }) == ["Spring", "Summer"])
        #expect(try names(#Predicate { $0.home.city == "Lyon" }) == ["Winter"])
        let none = Booking.none
        #expect(try names(#Predicate { $0.booking == none }) == ["Winter"])
        let car = TravelMode.car
        #expect(try names(#Predicate { $0.previousMode == car }) == ["Summer"])
        #expect(try names(#Predicate { $0.stops.count > 1 }) == ["Summer"])
    }

    @Test(arguments: stores)
    func aSubclassEncodingItsSuperclassThroughSuperEncoderRoundTrips(kind: String) throws {
        let container = try ModelContainer(for: Sketch.self, configurations: configuration(kind))
        let context = ModelContext(container)
        context.insert(Sketch(name: "Poster", title: TextLayer(text: "Hello", opacity: 0.5)))
        try context.save()
        let reopened = kind == "memory" ? container : try ModelContainer(for: Sketch.self, configurations: configuration(kind))
        let read = try #require(try ModelContext(reopened).fetch(FetchDescriptor<Sketch>()).first)
        #expect(read.title.text == "Hello")
        #expect(read.title.opacity == 0.5)
    }

    @Test(arguments: stores)
    func aTypeThatCannotBeStoredIsAnErrorNamingTheModelThePropertyAndTheType(kind: String) throws {
        let error = #expect(throws: ModelContextError.self) {
            try ModelContainer(for: Drawing.self, configurations: configuration(kind))
        }
        #expect(
            error == .unsupportedPropertyType(
                model: "Drawing", property: "shape", type: String(reflecting: Shape.self)))
        #expect(error?.description.hasPrefix("Drawing.shape has type TripDocModelTests.Shape") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("journeys.\(kind)").path), "no store was opened")
    }

    @Test func aUniquenessConstraintOnAPropertyThatIsNotStoredIsAnErrorNotACrash() throws {
        let error = #expect(throws: ModelContextError.self) {
            try ModelContainer(for: Badge.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        guard case .keyPathNotPersisted(let model, _) = error else {
            Issue.record("expected keyPathNotPersisted, got \(String(describing: error))")
            return
        }
        #expect(model == "Badge")
    }

    @Test func aStoredValueThatIsNotOfThePropertysTypeMakesTheFetchThrow() throws {
        let url = scratch.file("edited.json")
        do {
            let context = ModelContext(try ModelContainer(for: Journey.self, configurations: ModelConfiguration(url: url)))
            context.insert(Self.journey())
            try context.save()
        }
        // Edited by hand: a city that is a number.
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        try Data(text.replacingOccurrences(of: #""city":"Paris""#, with: #""city":7"#).utf8).write(to: url)
        let reader = ModelContext(try ModelContainer(for: Journey.self, configurations: ModelConfiguration(url: url)))
        let error = #expect(throws: ModelContextError.self) { try reader.fetch(FetchDescriptor<Journey>()) }
        guard case .unreadableValue(_, let property, let reason) = error else {
            Issue.record("expected unreadableValue, got \(String(describing: error))")
            return
        }
        #expect(property == "home")
        #expect(reason.contains("city"), "\(reason)")
    }
}
