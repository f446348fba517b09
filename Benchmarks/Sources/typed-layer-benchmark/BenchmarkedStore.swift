import Foundation

/// One side of the comparison: a store in which the benchmark does the same work, whose results
/// it reduces to checksums both sides must agree on. Opening is the initialiser; the timed parts
/// of an update and a delete are timed inside, so that finding the object is not counted.
protocol BenchmarkedStore {
    /// Opens the store at `path` (creating it if it does not exist), or an empty in-memory one.
    init(kind: StoreKind, path: String) throws

    /// Inserts trips `0..<count` with their items and accommodations and saves them in one save.
    func insertTrips(count: Int) throws

    /// The number of trips, bucket-list items and accommodations saved, read afresh.
    func entityCounts() throws -> Checksum

    /// Every trip, read afresh.
    func fetchAllTrips() throws -> Checksum

    /// The trips going to `destination`.
    func fetchTrips(destination: String) throws -> Checksum

    /// The trips starting from `from` (inclusive) to `to` (exclusive).
    func fetchTrips(startingFrom from: Date, before to: Date) throws -> Checksum

    /// The first `limit` trips by start date, in order.
    func fetchEarliestTrips(limit: Int) throws -> Checksum

    /// Sets the destination of the trip called `name` and saves; returns the seconds the change
    /// and its save took.
    func setDestination(ofTripNamed name: String, to destination: String) throws -> Double

    /// Deletes the trip called `name` (its items and accommodation go with it) and saves;
    /// returns the seconds the deletion and its save took.
    func deleteTrip(named name: String) throws -> Double
}
