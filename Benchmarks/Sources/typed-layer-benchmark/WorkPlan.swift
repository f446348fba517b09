/// How much work a run does at one size: the trips, how many times each query is timed, and which
/// trips are updated and deleted (the same on every store).
struct WorkPlan {
    /// The number of trips (each with five bucket-list items and an accommodation).
    var trips: Int
    /// How many timed runs of each query (after one untimed run); the row gives their median.
    var queryRuns: Int
    /// How many one-object updates; the row gives their median.
    var updates: Int
    /// How many single-trip deletes; the row gives their median.
    var deletes: Int

    /// The default number of updates at a size: 51 up to 20k trips, fewer above, so that a run's
    /// slow saves stay within minutes (11 at 100k), always an odd number of at least 5.
    static func defaultUpdates(trips: Int) -> Int {
        let updates = min(51, max(5, 1_000_000 / max(trips, 1)))
        return updates % 2 == 0 ? updates + 1 : updates
    }

    /// The trips updated, spread over the store.
    var updatedTripNames: [String] {
        (0..<min(updates, trips)).map { "Trip \($0 * trips / min(updates, trips))" }
    }

    /// The trips deleted, spread over the store (some may have been updated before).
    var deletedTripNames: [String] {
        (0..<min(deletes, trips)).map { "Trip \(($0 * trips / min(deletes, trips) + trips / (2 * min(deletes, trips))) % trips)" }
    }
}
