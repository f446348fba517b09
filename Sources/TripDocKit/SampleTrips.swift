import Foundation
import TripDoc

/// The running example of SwiftData's WWDC talks: trips with a bucket list and a place to stay.
public enum SampleTrips {
    /// `Trip`, `BucketListItem` and `LivingAccommodation`, with relationships both ways, a
    /// uniqueness constraint on a trip's name and dates, and indexes.
    public static let schema = Schema(
        [
            Schema.Entity(
                name: "Trip",
                attributes: [
                    .init("name", .string, options: [.preserveValueOnDeletion]),
                    .init("destination", .string),
                    .init("startDate", .date, options: [.preserveValueOnDeletion]),
                    .init("endDate", .date, options: [.preserveValueOnDeletion]),
                ],
                relationships: [
                    .init(
                        "bucketList", destination: "BucketListItem", isToMany: true, inverse: "trip",
                        deleteRule: .cascade),
                    .init(
                        "livingAccommodation", destination: "LivingAccommodation", inverse: "trip",
                        deleteRule: .cascade),
                ],
                uniquenessConstraints: [["name", "startDate", "endDate"]],
                indices: [["name"], ["startDate"], ["endDate"], ["name", "startDate", "endDate"]]),
            Schema.Entity(
                name: "BucketListItem",
                attributes: [
                    .init("title", .string),
                    .init("details", .string),
                    .init("hasReservation", .bool),
                    .init("isInPlan", .bool),
                ],
                relationships: [.init("trip", destination: "Trip", inverse: "bucketList")]),
            Schema.Entity(
                name: "LivingAccommodation",
                attributes: [.init("address", .string), .init("placeName", .string)],
                relationships: [.init("trip", destination: "Trip", inverse: "livingAccommodation")]),
        ],
        version: Schema.Version(1, 0, 0))

    static let destinations = [
        "Tokyo", "Kyoto", "Lisbon", "Reykjavík", "Cape Town", "Buenos Aires", "Vancouver", "Marrakesh", "Hanoi",
        "Oaxaca", "Tbilisi", "Queenstown", "Edinburgh", "Seoul", "Istanbul", "Nairobi", "Cusco", "Tromsø",
        "Bergen", "Porto", "Naples", "Zanzibar", "Hobart", "Kraków", "Ljubljana", "Valparaíso", "Chiang Mai",
        "Montréal", "Granada", "Sapporo",
    ]
    static let themes = [
        "Getaway", "Family Trip", "Food Tour", "Hiking Week", "Conference", "Honeymoon", "Weekend",
        "Road Trip", "Photo Walk", "Reunion",
    ]
    static let activities = [
        "Visit the old town", "Take a cooking class", "See the sunrise", "Ride the night train",
        "Try the street food", "Hike to the viewpoint", "Tour the museum", "Go to a concert",
        "Swim in the sea", "Rent bikes", "Find the best café", "Buy a souvenir", "Watch the sunset",
    ]
    static let stayKinds = ["Hotel", "Guesthouse", "Apartment", "Hostel", "Cabin", "Ryokan", "Inn"]
    static let streets = ["Harbour Street", "Station Road", "Hill Lane", "Market Square", "River Walk"]

    /// The most trips a sample holds: up to 90 million snapshots, under the 100 million a
    /// document may hold by default (`DocumentLimits`), and a count whose arithmetic cannot
    /// overflow.
    public static let maximumTrips = 10_000_000

    /// A deterministic document of `trips` trips: the same `trips` and `seed` give the same
    /// bytes. Each trip has 3 to 7 bucket-list items and, 9 times in 10, a place to stay.
    /// ``write(trips:seed:history:to:)`` writes the same document without holding it.
    ///
    /// - Precondition: `trips` is from 0 to ``maximumTrips``.
    public static func document(trips: Int, seed: UInt64 = 1) -> Document {
        precondition((0...maximumTrips).contains(trips), "trips must be from 0 to \(maximumTrips)")
        var generator = SampleTripGenerator(seed: seed)
        let store = generator.identifiers
        var items: [DefaultSnapshot] = []
        var stays: [DefaultSnapshot] = []
        var tripSnapshots: [DefaultSnapshot] = []
        items.reserveCapacity(trips * 5)
        stays.reserveCapacity(trips)
        tripSnapshots.reserveCapacity(trips)
        for _ in 0..<trips {
            let trip = generator.next()
            items += trip.itemSnapshots(in: store)
            if let stay = trip.staySnapshot(in: store) { stays.append(stay) }
            tripSnapshots.append(trip.tripSnapshot(in: store))
        }
        return Document(header: header(of: generator), schema: schema, snapshots: items + stays + tripSnapshots)
    }

    /// The header of a sample (without history) whose trips `generator` has drawn.
    static func header(of generator: SampleTripGenerator) -> DocumentHeader {
        var header = DocumentHeader(storeIdentifier: generator.storeIdentifier, schemaVersion: schema.version)
        header.nextPrimaryKeys = [
            "Trip": Int64(generator.trips + 1), "BucketListItem": generator.items + 1,
            "LivingAccommodation": generator.stays + 1,
        ]
        return header
    }
}

extension SampleTrips {
    /// The start of the sample's history: 2025-01-01T09:00:00Z.
    static let historyStart = Date(timeIntervalSinceReferenceDate: 757_414_800)

    /// A sample whose history tells a story, saved through the store engine: the app inserts the
    /// trips (transaction 1); the widget inserts a place to stay for the last trip (2), then
    /// updates it (3); the app deletes the first trip, its bucket list and place to stay with it
    /// (4, with the trip's name and dates in its tombstone). The same arguments give the same bytes.
    public static func documentWithHistory(trips: Int, seed: UInt64 = 1) throws -> Document {
        let base = document(trips: trips, seed: seed)
        var document = Document.empty(schema: base.schema, storeIdentifier: base.storeIdentifier)
        guard trips > 0 else { return document }
        let last = base.identifier(entityName: "Trip", primaryKey: String(trips))
        // The last trip starts without a place to stay, so that the widget can add one.
        let lastStay = base.snapshots.first { $0.persistentIdentifier == last }?["livingAccommodation"]
        var snapshots = base.orderedSnapshots.filter { snapshot in
            if case .reference(let stay) = lastStay ?? .null, snapshot.persistentIdentifier == stay { return false }
            return true
        }
        for index in snapshots.indices where snapshots[index].persistentIdentifier == last {
            snapshots[index]["livingAccommodation"] = .null
        }
        // Inserted with temporary identifiers, as a context would; the store gives them back in order.
        let temporary: (PersistentIdentifier) -> PersistentIdentifier = {
            .temporary(entityName: $0.entityName, primaryKey: "t\($0.primaryKey)")
        }
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "app"), inserted: snapshots.map { $0.remapped(temporary) }),
            timestamp: historyStart)
        try tellTheStory(in: &document, trips: trips)
        return document
    }

    /// The saves after the app's first, in a document holding at least the sample's first and
    /// last trips as the first save left them (the last one without a place to stay): the widget
    /// inserts a place to stay for the last trip and updates it, the app deletes the first trip.
    static func tellTheStory(in document: inout Document, trips: Int) throws {
        let permanentLast = document.identifier(entityName: "Trip", primaryKey: String(trips))
        var lastTrip = document.snapshots.first { $0.persistentIdentifier == permanentLast }!
        let stay = PersistentIdentifier.temporary(entityName: "LivingAccommodation", primaryKey: "widget-1")
        lastTrip["livingAccommodation"] = .reference(stay)
        let inserted = try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "widget"),
                inserted: [
                    DefaultSnapshot(
                        persistentIdentifier: stay,
                        values: [
                            "placeName": .string("Harbour View Hotel"), "address": .string("1 Harbour Street"),
                            "trip": .reference(permanentLast),
                        ])
                ], updated: [lastTrip]),
            timestamp: historyStart.addingTimeInterval(86_400))
        let stayID = inserted.remappedIdentifiers[stay]!
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "widget"),
                updated: [
                    DefaultSnapshot(
                        persistentIdentifier: stayID,
                        values: [
                            "placeName": .string("Harbour View Hotel & Spa"), "address": .string("1 Harbour Street"),
                            "trip": .reference(permanentLast),
                        ])
                ]),
            timestamp: historyStart.addingTimeInterval(2 * 86_400))
        let first = document.identifier(entityName: "Trip", primaryKey: "1")
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "app"), deleted: [DefaultSnapshot(persistentIdentifier: first, values: [:])]),
            timestamp: historyStart.addingTimeInterval(3 * 86_400))
    }
}

/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), so a
/// seed gives the same sample on every platform and Swift version.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`, the same on every platform.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A version-4 UUID made from the generator's output.
    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map {
            UInt8(truncatingIfNeeded: low >> (8 * $0))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
