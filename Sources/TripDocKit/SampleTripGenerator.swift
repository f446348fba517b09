import Foundation

/// Draws the trips of a SampleTrips document one after another, as a seed determines them.
///
/// A generator holds its random number generator, the running primary keys and which
/// name-and-dates combinations are taken (a trip's name, start and end are unique, as the
/// schema requires), in a bit per combination: under 2 MB whatever the number of trips. So a
/// sample can be drawn again as often as needed, one entity's snapshots at a time, in the
/// order a document lists them, without keeping the trips drawn.
struct SampleTripGenerator {
    /// The store identifier the seed gives.
    let storeIdentifier: String
    /// The identifiers of the store, for the trips' snapshots.
    let identifiers: SampleTrip.Identifiers
    private var random: SplitMix64
    /// One bit per combination of name, start day and length: set once a trip has it.
    private var taken: [UInt64]
    /// How many trips have been drawn.
    private(set) var trips = 0
    /// How many bucket-list items the trips drawn have.
    private(set) var items: Int64 = 0
    /// How many places to stay the trips drawn have.
    private(set) var stays: Int64 = 0

    /// The days a trip may start on, counted from 2025-01-01.
    private static let startDays = 3650
    /// The lengths a trip may have, in days: from 2.
    private static let lengths = 13
    /// For each destination and theme (`destination * themes + theme`), the index of the name
    /// they make among the distinct names: two pairs that made the same name share a bit, as
    /// they shared a key when the names were compared as text.
    private static let nameIndices: [Int] = {
        var indices: [String: Int] = [:]
        return SampleTrips.destinations.flatMap { destination in
            SampleTrips.themes.map { theme in
                let name = "\(destination) \(theme)"
                if let index = indices[name] { return index }
                indices[name] = indices.count
                return indices.count - 1
            }
        }
    }()

    /// A generator at the start of the sample `seed` gives.
    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        storeIdentifier = random.uuid().uuidString
        identifiers = SampleTrip.Identifiers(storeIdentifier: storeIdentifier)
        let names = (Self.nameIndices.max() ?? -1) + 1
        taken = [UInt64](repeating: 0, count: (names * Self.startDays * Self.lengths + 63) / 64)
    }

    /// Draws the next trip.
    mutating func next() -> SampleTrip {
        trips += 1
        let destination = random.below(SampleTrips.destinations.count)
        let theme = random.below(SampleTrips.themes.count)
        let name = Self.nameIndices[destination * SampleTrips.themes.count + theme]
        var startDay = random.below(Self.startDays)
        let length = 2 + random.below(Self.lengths)
        while !take((name * Self.startDays + startDay) * Self.lengths + length - 2) {
            startDay = random.below(Self.startDays)
        }
        let firstItemKey = items + 1
        let count = 3 + random.below(5)
        var drawn: [SampleTrip.Item] = []
        drawn.reserveCapacity(count)
        for _ in 0..<count {
            let activity = random.below(SampleTrips.activities.count)
            let hasReservation = random.below(2) == 0
            let isInPlan = random.below(3) != 0
            drawn.append(SampleTrip.Item(activity: activity, hasReservation: hasReservation, isInPlan: isInPlan))
        }
        items += Int64(count)
        var stay: SampleTrip.Stay?
        if random.below(10) != 0 {
            stays += 1
            let kind = random.below(SampleTrips.stayKinds.count)
            let number = 1 + random.below(200)
            let street = random.below(SampleTrips.streets.count)
            stay = SampleTrip.Stay(key: stays, kind: kind, number: number, street: street)
        }
        return SampleTrip(
            key: Int64(trips), destination: destination, theme: theme, startDay: startDay, length: length,
            firstItemKey: firstItemKey, items: drawn, stay: stay)
    }

    /// Marks the combination `bit` taken; whether it was free.
    private mutating func take(_ bit: Int) -> Bool {
        let mask: UInt64 = 1 << UInt64(bit % 64)
        guard taken[bit / 64] & mask == 0 else { return false }
        taken[bit / 64] |= mask
        return true
    }
}
