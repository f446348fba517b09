import Foundation

/// One trip of the benchmark's data, with its five bucket-list items and its accommodation: the
/// same values on both sides, made from the trip's number alone (no randomness, no state).
struct GeneratedTrip {
    /// One bucket-list item's values.
    struct Item {
        var title: String
        var details: String
        var hasReservation: Bool
        var isInPlan: Bool
    }

    /// The destinations trips are drawn from; about one trip in ten goes to each.
    static let destinations = [
        "Kyoto", "Lisbon", "Oslo", "Lima", "Paris", "Vienna", "Nairobi", "Hanoi", "Quebec", "Tbilisi",
    ]

    /// The destination of the equality fetch.
    static let queriedDestination = "Kyoto"

    /// The first trip's start (2026-05-07 00:00:00 UTC, a whole second so that every store keeps it exactly).
    static let firstStart = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Trips start an hour apart, in an order unrelated to their numbers.
    static let startSpacing: TimeInterval = 3600

    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date
    var items: [Item]
    var address: String
    var placeName: String

    /// Trip `number` of `count`. Start dates are distinct: trip `number` takes the start slot
    /// `(number × stride) mod count`, a permutation of the slots because `stride` and `count`
    /// are coprime, so a sort by start date is a real sort and its first ten are unambiguous.
    init(number: Int, of count: Int) {
        let mixed = Self.mix(UInt64(number))
        name = "Trip \(number)"
        destination = Self.destinations[Int(mixed % UInt64(Self.destinations.count))]
        let slot = (number * Self.stride(for: count)) % count
        startDate = Self.firstStart + Double(slot) * Self.startSpacing
        endDate = startDate + Double(1 + Int((mixed >> 8) % 21)) * 86_400
        items = (0..<5).map { item in
            Item(
                title: "Sight \(item + 1) of trip \(number)",
                details: "Book ahead; open from 9 to 17, closed on Mondays (item \(item + 1)).",
                hasReservation: (mixed >> (16 + item)) & 1 == 1,
                isInPlan: (mixed >> (24 + item)) & 1 == 1)
        }
        address = "\(number % 400 + 1) Harbour Street, \(destination)"
        placeName = "Guesthouse \(number % 997)"
    }

    /// Start dates from slot `first` (inclusive) to slot `first + count` (exclusive): exactly
    /// `count` trips start in that range when the slots exist.
    static func startRange(firstSlot first: Int, slots count: Int) -> (from: Date, to: Date) {
        (firstStart + Double(first) * startSpacing, firstStart + Double(first + count) * startSpacing)
    }

    /// A stride coprime with `count`, near 0.618 × count so that neighbouring trips start far apart.
    static func stride(for count: Int) -> Int {
        guard count > 2 else { return 1 }
        var stride = max(1, Int(Double(count) * 0.618))
        while gcd(stride, count) != 1 { stride += 1 }
        return stride
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : gcd(b, a % b)
    }

    /// SplitMix64's finaliser: well-spread bits from a trip's number.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
