import Foundation

/// The work one child process does, so that each measurement starts from a fresh process: a file
/// store is filled in one process, opened in another, read in a third, and queried, updated and
/// deleted from in a fourth; an in-memory store does everything in one process.
enum Stage: String, CaseIterable {
    case insert
    case open
    case fetchAll = "fetch-all"
    case work
    case inMemory = "in-memory"

    /// Runs the stage on `kind`'s store at `path` and returns what it measured.
    func run(on kind: StoreKind, path: String, plan: WorkPlan) throws -> StageResult {
        let type: any BenchmarkedStore.Type = kind.isTripDoc ? TripDocBenchmarkStore.self : GRDBBenchmarkStore.self
        var result = StageResult()
        switch self {
        case .insert:
            let store = try type.init(kind: kind, path: path)
            try Self.insert(into: store, plan: plan, result: &result)
        case .open:
            var store: (any BenchmarkedStore)?
            result.values[.open] = try secondsTaken { store = try type.init(kind: kind, path: path) } * 1000
            withExtendedLifetime(store) {}
        case .fetchAll:
            var checksum = Checksum()
            result.values[.fetchAll] =
                try secondsTaken {
                    let store = try type.init(kind: kind, path: path)
                    checksum = try store.fetchAllTrips()
                } * 1000
            result.checksums[.fetchAll] = checksum.description
        case .work:
            let store = try type.init(kind: kind, path: path)
            try Self.work(on: store, plan: plan, result: &result)
        case .inMemory:
            let store = try type.init(kind: kind, path: path)
            try Self.insert(into: store, plan: plan, result: &result)
            var checksum = Checksum()
            result.values[.fetchAll] = try secondsTaken { checksum = try store.fetchAllTrips() } * 1000
            result.checksums[.fetchAll] = checksum.description
            try Self.work(on: store, plan: plan, result: &result)
        }
        return result
    }

    /// Insert all + one save, and the process's peak resident memory right after it.
    private static func insert(into store: any BenchmarkedStore, plan: WorkPlan, result: inout StageResult) throws {
        result.values[.insert] = try secondsTaken { try store.insertTrips(count: plan.trips) }
        result.values[.peakMemory] = PeakMemory.megabytes()
        result.checksums[.insert] = try store.entityCounts().description
    }

    /// The queries (each run once to warm what it reads, then timed over several runs), the
    /// updates and the deletes.
    private static func work(on store: any BenchmarkedStore, plan: WorkPlan, result: inout StageResult) throws {
        let range = GeneratedTrip.startRange(firstSlot: plan.trips / 2, slots: max(1, plan.trips / 100))
        let queries: [(Row, () throws -> Checksum)] = [
            (.equalityFetch, { try store.fetchTrips(destination: GeneratedTrip.queriedDestination) }),
            (.rangeFetch, { try store.fetchTrips(startingFrom: range.from, before: range.to) }),
            (.sortedLimit, { try store.fetchEarliestTrips(limit: 10) }),
        ]
        for (row, query) in queries {
            let first = try query()
            var times: [Double] = []
            for _ in 0..<plan.queryRuns {
                var checksum = Checksum()
                times.append(try secondsTaken { checksum = try query() } * 1000)
                guard checksum == first else {
                    throw BenchmarkFailure(description: "\(row.rawValue): a repeated query returned \(checksum), the first \(first)")
                }
            }
            result.values[row] = median(times)
            result.checksums[row] = first.description
        }

        let updated = "Updated"
        var updateTimes: [Double] = []
        for name in plan.updatedTripNames {
            updateTimes.append(try store.setDestination(ofTripNamed: name, to: updated) * 1000)
        }
        // The first save after opening (the store read only what the queries needed so far).
        if let first = updateTimes.first { result.values[.firstUpdate] = first }
        result.values[.update] = median(updateTimes)
        result.checksums[.update] = try store.fetchTrips(destination: updated).description

        var deleteTimes: [Double] = []
        for name in plan.deletedTripNames {
            deleteTimes.append(try store.deleteTrip(named: name) * 1000)
        }
        result.values[.delete] = median(deleteTimes)
        result.checksums[.delete] = try store.entityCounts().description
    }
}
