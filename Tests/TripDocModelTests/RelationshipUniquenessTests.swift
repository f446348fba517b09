import Foundation
import Testing
import TripDoc
import TripDocTestSupport

// A uniqueness constraint over a to-one relationship and an attribute, as SwiftData allows: a
// berth is unique by its harbour and its number.

@Model final class Harbour {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Berth.harbour) var berths: [Berth] = []
    @Relationship(inverse: \Pilot.harbour) var pilots: [Pilot] = []
    init(name: String) { self.name = name }
}

@Model final class Pilot {
    #Unique<Pilot>([\.licence])
    var licence: String
    var name: String
    var harbour: Harbour?
    init(licence: String, name: String) {
        self.licence = licence
        self.name = name
    }
}

@Model final class Berth {
    #Unique<Berth>([\.harbour, \.number])
    var harbour: Harbour?
    var number: Int
    var boat: String
    init(number: Int, boat: String) {
        self.number = number
        self.boat = boat
    }
}

/// A uniqueness constraint that names a to-one relationship compares the destination with the
/// other values: the same number in two harbours is two berths, the same number in one harbour
/// is one (an insert updates it), in every store.
@Suite struct RelationshipUniquenessTests {
    static let kinds = ["json", "plist", "tripbundle", "memory"]

    @Test(arguments: kinds)
    func aBerthIsUniqueByItsHarbourAndNumber(kind: String) throws {
        let scratch = try ScratchFolder("relationship-uniqueness")
        let configuration = kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: scratch.file("harbours.\(kind)"))
        let container = try ModelContainer(for: Harbour.self, configurations: configuration)
        let context = ModelContext(container)
        let oslo = Harbour(name: "Oslo"), bergen = Harbour(name: "Bergen")
        context.insert(oslo)
        context.insert(bergen)
        // Harbours and berths inserted in one save: the berths refer to harbours not yet saved.
        let first = Berth(number: 1, boat: "Vega")
        context.insert(first)
        first.harbour = oslo
        let other = Berth(number: 1, boat: "Lyra")
        context.insert(other)
        other.harbour = bergen
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Berth>()) == 2, "one number, two harbours")

        let again = Berth(number: 1, boat: "Orion")
        again.harbour = oslo
        context.insert(again)
        try context.save()
        let berths = try context.fetch(FetchDescriptor<Berth>(sortBy: [SortDescriptor(\.boat)]))
        #expect(berths.map(\.boat) == ["Lyra", "Orion"], "the Oslo berth took the new boat")

        let unmoored = Berth(number: 1, boat: "Draco")
        context.insert(unmoored)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Berth>()) == 3, "without a harbour, no berth collides")

        let reopened = ModelContext(kind == "memory" ? container : try ModelContainer(for: Harbour.self, configurations: configuration))
        let saved = try reopened.fetch(FetchDescriptor<Berth>(sortBy: [SortDescriptor(\.boat)]))
        #expect(saved.map(\.boat) == ["Draco", "Lyra", "Orion"])
        #expect(saved.map { $0.harbour?.name } == [nil, "Bergen", "Oslo"])
        let harbours = try reopened.fetch(FetchDescriptor<Harbour>(sortBy: [SortDescriptor(\.name)]))
        #expect(harbours.map { $0.berths.map(\.boat) } == [["Lyra"], ["Orion"]])
    }

    @Test(arguments: kinds)
    func aModelInsertedAgainIntoAListThatHoldsItIsListedOnce(kind: String) throws {
        let scratch = try ScratchFolder("relationship-uniqueness")
        let configuration = kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: scratch.file("pilots.\(kind)"))
        let container = try ModelContainer(for: Harbour.self, configurations: configuration)
        let context = ModelContext(container)
        let oslo = Harbour(name: "Oslo")
        context.insert(oslo)
        let ada = Pilot(licence: "N-1", name: "Ada")
        context.insert(ada)
        oslo.pilots.append(ada)
        try context.save()
        // The same licence again, into the same harbour: an upsert of Ada's model.
        let again = Pilot(licence: "N-1", name: "Ada Lind")
        context.insert(again)
        oslo.pilots.append(again)
        try context.save()

        let reopened = ModelContext(kind == "memory" ? container : try ModelContainer(for: Harbour.self, configurations: configuration))
        let harbour = try #require(try reopened.fetch(FetchDescriptor<Harbour>()).first)
        #expect(harbour.pilots.map(\.name) == ["Ada Lind"])
        #expect(try reopened.fetchCount(FetchDescriptor<Pilot>()) == 1)
    }
}
