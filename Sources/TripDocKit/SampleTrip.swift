import Foundation
import TripDoc

/// One trip of a SampleTrips document as its generator drew it: what was chosen from the
/// sample's word lists, and the primary keys it and its bucket-list items and place to stay
/// get. It makes their snapshots on demand, so that a pass that writes one entity makes only
/// that entity's.
struct SampleTrip {
    /// A bucket-list item as drawn.
    struct Item {
        /// Its index among ``SampleTrips/activities``.
        var activity: Int
        var hasReservation: Bool
        var isInPlan: Bool
    }

    /// The identifiers of a sample's store, made once: the identifiers of snapshots and
    /// references are made from them without looking their names up again.
    struct Identifiers {
        private let trip: PersistentIdentifier
        private let item: PersistentIdentifier
        private let stay: PersistentIdentifier

        init(storeIdentifier: String) {
            trip = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "Trip", primaryKey: "1")
            item = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "BucketListItem", primaryKey: "1")
            stay = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "LivingAccommodation", primaryKey: "1")
        }

        func trip(_ key: Int64) -> PersistentIdentifier { trip.withPrimaryKey(String(key)) }
        func item(_ key: Int64) -> PersistentIdentifier { item.withPrimaryKey(String(key)) }
        func stay(_ key: Int64) -> PersistentIdentifier { stay.withPrimaryKey(String(key)) }
    }

    /// A place to stay as drawn.
    struct Stay {
        /// Its primary key.
        var key: Int64
        /// Its index among ``SampleTrips/stayKinds``.
        var kind: Int
        /// The house number of its address.
        var number: Int
        /// Its index among ``SampleTrips/streets``.
        var street: Int
    }

    /// The trip's primary key: its position in the sample, from 1.
    var key: Int64
    /// Its index among ``SampleTrips/destinations``.
    var destination: Int
    /// Its index among ``SampleTrips/themes``.
    var theme: Int
    /// The day it starts, counted from 2025-01-01.
    var startDay: Int
    /// How many days it lasts.
    var length: Int
    /// The primary key of its first bucket-list item; the others follow.
    var firstItemKey: Int64
    var items: [Item]
    var stay: Stay?

    /// 2025-01-01T00:00:00Z, the day trips count from.
    static let firstDay = Date(timeIntervalSinceReferenceDate: 757_382_400)

    var destinationName: String { SampleTrips.destinations[destination] }

    /// The trip's name: its destination and theme.
    var name: String { Self.names[destination * SampleTrips.themes.count + theme] }

    // Each entity's snapshot layout, found once: a snapshot made from a dictionary sorts and
    // looks its names up for every snapshot. The makers below list their values in these orders
    // (the names' UTF-8 order), which a precondition checks when the layouts are made.

    private static let tripLayout = layout(
        of: ["bucketList", "destination", "endDate", "livingAccommodation", "name", "startDate"])
    private static let itemLayout = layout(of: ["details", "hasReservation", "isInPlan", "title", "trip"])
    private static let stayLayout = layout(of: ["address", "placeName", "trip"])

    private static func layout(of names: [String]) -> SnapshotLayout {
        let layout = SnapshotLayout.of(names: names, isAnEntitys: true)
        precondition(layout.names == names, "a sample snapshot's values are listed in its layout's order")
        return layout
    }

    // The texts made of the word lists, made once and shared by the snapshots that hold them
    // (a string longer than 15 bytes made for each snapshot is an allocation).

    /// Trip names, by `destination * themes + theme`.
    private static let names = SampleTrips.destinations.flatMap { destination in
        SampleTrips.themes.map { "\(destination) \($0)" }
    }
    /// Bucket-list items' details, by `activity * destinations + destination`.
    private static let details = SampleTrips.activities.flatMap { activity in
        SampleTrips.destinations.map { "\(activity) in \($0)." }
    }
    /// Places to stay's names, by `destination * stayKinds + kind`.
    private static let placeNames = SampleTrips.destinations.flatMap { destination in
        SampleTrips.stayKinds.map { "\(destination) \($0)" }
    }

    /// The primary keys of its bucket-list items, in their order.
    var itemKeys: ClosedRange<Int64> { firstItemKey...(firstItemKey + Int64(items.count) - 1) }

    /// The trip's snapshot in the store whose identifiers are `store`.
    func tripSnapshot(in store: Identifiers) -> DefaultSnapshot {
        let start = Self.firstDay.addingTimeInterval(Double(startDay) * 86_400)
        let end = start.addingTimeInterval(Double(length) * 86_400)
        let destination = destinationName
        // In the layout's order: bucketList, destination, endDate, livingAccommodation, name, startDate.
        return DefaultSnapshot(
            persistentIdentifier: store.trip(key), layout: Self.tripLayout,
            slots: [
                .references(itemKeys.map { store.item($0) }), .string(destination), .date(end),
                stay.map { .reference(store.stay($0.key)) } ?? .null, .string(name), .date(start),
            ])
    }

    /// The snapshots of the trip's bucket-list items in the store whose identifiers are `store`,
    /// in key order.
    func itemSnapshots(in store: Identifiers) -> [DefaultSnapshot] {
        let trip = SnapshotValue.reference(store.trip(key))
        return zip(itemKeys, items).map { key, item in
            let title = SampleTrips.activities[item.activity]
            // In the layout's order: details, hasReservation, isInPlan, title, trip.
            return DefaultSnapshot(
                persistentIdentifier: store.item(key), layout: Self.itemLayout,
                slots: [
                    .string(Self.details[item.activity * SampleTrips.destinations.count + self.destination]),
                    .bool(item.hasReservation), .bool(item.isInPlan), .string(title), trip,
                ])
        }
    }

    /// The snapshot of the trip's place to stay in the store whose identifiers are `store`, if
    /// it has one.
    func staySnapshot(in store: Identifiers) -> DefaultSnapshot? {
        guard let stay else { return nil }
        let destination = destinationName
        // In the layout's order: address, placeName, trip.
        return DefaultSnapshot(
            persistentIdentifier: store.stay(stay.key), layout: Self.stayLayout,
            slots: [
                .string("\(stay.number) \(SampleTrips.streets[stay.street]), \(destination)"),
                .string(Self.placeNames[self.destination * SampleTrips.stayKinds.count + stay.kind]),
                .reference(store.trip(key)),
            ])
    }

    /// The snapshots of `entityName` that the trip has: itself, its bucket-list items or its
    /// place to stay.
    func snapshots(of entityName: String, in store: Identifiers) -> [DefaultSnapshot] {
        switch entityName {
        case "Trip": [tripSnapshot(in: store)]
        case "BucketListItem": itemSnapshots(in: store)
        case "LivingAccommodation": staySnapshot(in: store).map { [$0] } ?? []
        default: []
        }
    }
}
