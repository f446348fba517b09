import Foundation
import Testing
import TripDoc

@Model
final class Reading {
    // Indexed attributes are selected through the store's indexes; the others by a pass over
    // the snapshots.
    #Index<Reading>([\.station], [\.value], [\.takenAt], [\.count], [\.level, \.price])

    var station: String
    var note: String?
    var value: Double
    var count: Int
    var level: Int8
    var takenAt: Date
    var price: Decimal
    var site: Site?

    init(station: String, note: String?, value: Double, count: Int, level: Int8, takenAt: Date, price: Decimal) {
        self.station = station
        self.note = note
        self.value = value
        self.count = count
        self.level = level
        self.takenAt = takenAt
        self.price = price
    }

    var label: String { "\(station) #\(count)" }
}

@Model
final class Site {
    var name: String
    @Relationship(inverse: \Reading.site) var readings: [Reading] = []
    init(name: String) { self.name = name }
}

/// Fetches that filter and sort the stored snapshots, making models of the selected ones only,
/// give exactly what evaluating the same predicate and sort on every model gives: Foundation's
/// semantics, ties in the stable order, `nil`s, Unicode spellings, offsets and limits.
@Suite struct SnapshotFetchTests {
    static let stations = ["Café", "Cafe\u{301}", "cafe", "Åre", "Oslo", "oslo", "Zürich", ""]

    func container(count: Int) throws -> (ModelContainer, [PersistentIdentifier]) {
        let container = try ModelContainer(
            for: Reading.self, Site.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let sites = [Site(name: "North"), Site(name: "South")]
        var readings: [Reading] = []
        for index in 0..<count {
            let reading = Reading(
                station: Self.stations[next(Self.stations.count)], note: next(3) == 0 ? nil : "n\(next(4))",
                value: [-1.5, 0, 0.5, 2, .infinity, -0.0][next(6)], count: next(7) - 3, level: Int8(next(5)),
                takenAt: Date(timeIntervalSinceReferenceDate: Double(next(10) * 3600)), price: Decimal(next(4)) / 4)
            context.insert(reading)
            if index % 3 == 0 { reading.site = sites[next(2)] }
            readings.append(reading)
        }
        try context.save()
        return (container, readings.map(\.persistentModelID))
    }

    static let from = Date(timeIntervalSinceReferenceDate: 7200)
    static let until = Date(timeIntervalSinceReferenceDate: 21600)
    static let predicates: [(String, Predicate<Reading>?)] = makePredicates(from: from, until: until)
    static func makePredicates(from: Date, until: Date) -> [(String, Predicate<Reading>?)] { [
        ("none", nil),
        ("station ==", #Predicate { $0.station == "Café" }),
        ("station !=", #Predicate { $0.station != "Oslo" }),
        ("string range", #Predicate { $0.station >= "C" && $0.station < "a" }),
        ("optional == nil", #Predicate { $0.note == nil }),
        ("optional ==", #Predicate { $0.note == "n1" }),
        ("double >", #Predicate { $0.value > 0 }),
        ("int range or", #Predicate { $0.count <= -2 || $0.count > 2 }),
        ("int range flipped", #Predicate { 0 < $0.count && $0.count <= 2 && $0.level != 1 }),
        ("double ==", #Predicate { $0.value == 0.5 }),
        ("string prefix range and other attribute", #Predicate { $0.station > "O" && $0.price < 0.75 }),
        ("int8", #Predicate { $0.level == 3 }),
        ("date range", #Predicate { $0.takenAt >= from && $0.takenAt < until }),
        ("decimal", #Predicate { $0.price > 0.25 }),
        ("not", #Predicate { !($0.level < 2) }),
        ("contains", #Predicate { ["Oslo", "Åre", ""].contains($0.station) }),
        // Left to the models: a path through a relationship, and a computed property.
        ("relationship", #Predicate { $0.site?.name == "North" }),
        ("computed", #Predicate { $0.label == "Oslo #1" }),
    ] }

    static let sorts: [(String, [SortDescriptor<Reading>])] = [
        ("unsorted", []),
        ("station", [SortDescriptor(\.station)]),
        ("station reversed", [SortDescriptor(\.station, order: .reverse)]),
        ("date", [SortDescriptor(\.takenAt)]),
        ("count reversed", [SortDescriptor(\.count, order: .reverse)]),
        ("value reversed, then date", [SortDescriptor(\.value, order: .reverse), SortDescriptor(\.takenAt)]),
        ("level, count reversed, price", [SortDescriptor(\.level), SortDescriptor(\.count, order: .reverse), SortDescriptor(\.price)]),
        // Left to the models: an optional key and a string comparator.
        ("optional note", [SortDescriptor(\.note)]),
        ("lexical comparator", [SortDescriptor(\.station, comparator: .lexical)]),
    ]

    /// Inserts, changes (of indexed values among others) and deletes, saved: what the indexes
    /// must follow.
    func edit(_ container: ModelContainer, round: Int) throws {
        let context = ModelContext(container)
        let readings = try context.fetch(FetchDescriptor<Reading>())
        for (index, reading) in readings.enumerated() where index % (7 + round) == 0 {
            reading.station = Self.stations[(index + round) % Self.stations.count]
            reading.value = [Double.nan, 3, -1.5, 0][(index + round) % 4]
            reading.takenAt = Date(timeIntervalSinceReferenceDate: Double(((index * 7) % 10) * 3600))
            reading.count += round
        }
        for (index, reading) in readings.enumerated() where index % (11 + round) == 1 { context.delete(reading) }
        for index in 0..<(20 + round) {
            context.insert(
                Reading(
                    station: Self.stations[index % Self.stations.count], note: nil, value: Double(index % 3), count: index % 5 - 2,
                    level: Int8(index % 5), takenAt: Date(timeIntervalSinceReferenceDate: Double((index % 10) * 3600)),
                    price: Decimal(index % 4)))
        }
        try context.save()
    }

    @Test(arguments: 0..<predicates.count)
    func snapshotFetchesEqualModelEvaluation(predicateIndex: Int) throws {
        let (container, _) = try container(count: 300)
        for round in 0..<3 {
            if round > 0 { try edit(container, round: round) }
            try checkFetches(container, predicateIndex: predicateIndex, round: round)
        }
    }

    func checkFetches(_ container: ModelContainer, predicateIndex: Int, round: Int) throws {
        let (_, predicate) = Self.predicates[predicateIndex]
        let oracle = ModelContext(container)
        let everyModel = try oracle.fetch(FetchDescriptor<Reading>())
        for (sortName, sortBy) in Self.sorts {
            for (offset, limit) in [(nil, nil), (nil, 5), (3, 10), (0, 0), (290, 20)] as [(Int?, Int?)] {
                var expected = try everyModel.filter { try predicate?.evaluate($0) ?? true }
                if !sortBy.isEmpty { expected.sort(using: sortBy) }
                if let offset { expected = Array(expected.dropFirst(offset)) }
                if let limit { expected = Array(expected.prefix(limit)) }
                var descriptor = FetchDescriptor<Reading>(predicate: predicate, sortBy: sortBy)
                descriptor.fetchOffset = offset
                descriptor.fetchLimit = limit
                let context = ModelContext(container)
                let label = "round \(round), \(Self.predicates[predicateIndex].0), \(sortName), offset \(offset as Any), limit \(limit as Any)"
                #expect(try context.fetch(descriptor).map(\.persistentModelID) == expected.map(\.persistentModelID), "\(label)")
                #expect(try context.fetchCount(descriptor) == expected.count, "\(label)")
                #expect(try context.fetchIdentifiers(descriptor) == expected.map(\.persistentModelID), "\(label)")
            }
        }
    }

    @Test func aSortedFetchWithALimitMakesModelsOfTheSelectedOnly() throws {
        let (container, identifiers) = try container(count: 200)
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Reading>(predicate: #Predicate { $0.level >= 1 }, sortBy: [SortDescriptor(\.takenAt)])
        descriptor.fetchLimit = 3
        let selected = Set(try context.fetch(descriptor).map(\.persistentModelID))
        #expect(selected.count == 3)
        for identifier in identifiers where !selected.contains(identifier) {
            #expect(context.registeredModel(for: identifier) as Reading? == nil)
        }
        #expect(try context.fetchCount(FetchDescriptor<Reading>()) == 200)
        #expect(identifiers.filter { context.registeredModel(for: $0) as Reading? != nil }.count == 3)
    }

    @Test func unsavedChangesCountAsTheyDidBefore() throws {
        let (container, _) = try container(count: 50)
        let context = ModelContext(container)
        let cafes = try context.fetch(FetchDescriptor<Reading>(predicate: #Predicate { $0.station == "Café" }))
        try #require(!cafes.isEmpty)
        cafes[0].station = "Moved"
        context.insert(Reading(station: "Café", note: nil, value: 1, count: 1, level: 1, takenAt: .now, price: 1))
        let again = try context.fetch(FetchDescriptor<Reading>(predicate: #Predicate { $0.station == "Café" }))
        #expect(again.count == cafes.count)
        #expect(!again.contains { $0 === cafes[0] })
        #expect(try context.fetchCount(FetchDescriptor<Reading>(predicate: #Predicate { $0.station == "Moved" })) == 1)
    }
}
