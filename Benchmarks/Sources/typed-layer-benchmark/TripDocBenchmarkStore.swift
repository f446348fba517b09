import Foundation
import TripDoc

/// tripdoc's side: the models through `ModelContainer` and `ModelContext`, as an app uses them.
/// The insert has a context of its own, dropped after its save; reads use a fresh context each
/// (nothing registered from an earlier read); updates and deletes share one context, as an app's
/// main context, which holds only what they fetched (in every store alike, the in-memory one too).
final class TripDocBenchmarkStore: BenchmarkedStore {
    let container: ModelContainer
    let context: ModelContext

    init(kind: StoreKind, path: String) throws {
        let configuration =
            kind == .tripdocMemory
            ? ModelConfiguration(isStoredInMemoryOnly: true) : ModelConfiguration(url: URL(fileURLWithPath: path))
        container = try ModelContainer(
            for: Trip.self, BucketListItem.self, LivingAccommodation.self, configurations: configuration)
        context = ModelContext(container)
    }

    func insertTrips(count: Int) throws {
        let context = ModelContext(container)
        for number in 0..<count {
            let values = GeneratedTrip(number: number, of: count)
            let trip = Trip(
                name: values.name, destination: values.destination, startDate: values.startDate,
                endDate: values.endDate)
            context.insert(trip)
            for item in values.items {
                trip.bucketList.append(
                    BucketListItem(
                        title: item.title, details: item.details, hasReservation: item.hasReservation,
                        isInPlan: item.isInPlan))
            }
            trip.livingAccommodation = LivingAccommodation(address: values.address, placeName: values.placeName)
        }
        try context.save()
    }

    func entityCounts() throws -> Checksum {
        let reader = ModelContext(container)
        var checksum = Checksum()
        checksum.add(try reader.fetchCount(FetchDescriptor<Trip>()))
        checksum.add(try reader.fetchCount(FetchDescriptor<BucketListItem>()))
        checksum.add(try reader.fetchCount(FetchDescriptor<LivingAccommodation>()))
        return checksum
    }

    func fetchAllTrips() throws -> Checksum {
        try unordered(ModelContext(container).fetch(FetchDescriptor<Trip>()))
    }

    func fetchTrips(destination: String) throws -> Checksum {
        try unordered(ModelContext(container).fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == destination })))
    }

    func fetchTrips(startingFrom from: Date, before to: Date) throws -> Checksum {
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate >= from && $0.startDate < to })
        return try unordered(ModelContext(container).fetch(descriptor))
    }

    func fetchEarliestTrips(limit: Int) throws -> Checksum {
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
        descriptor.fetchLimit = limit
        var checksum = Checksum()
        for trip in try ModelContext(container).fetch(descriptor) {
            checksum.addOrdered(name: trip.name, destination: trip.destination, startDate: trip.startDate, endDate: trip.endDate)
        }
        return checksum
    }

    func setDestination(ofTripNamed name: String, to destination: String) throws -> Double {
        let trip = try trip(named: name)
        return try secondsTaken {
            trip.destination = destination
            try context.save()
        }
    }

    func deleteTrip(named name: String) throws -> Double {
        let trip = try trip(named: name)
        return try secondsTaken {
            context.delete(trip)
            try context.save()
        }
    }

    private func trip(named name: String) throws -> Trip {
        guard let trip = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name })).first else {
            throw BenchmarkFailure(description: "tripdoc: no trip is called '\(name)'")
        }
        return trip
    }

    private func unordered(_ trips: [Trip]) -> Checksum {
        var checksum = Checksum()
        for trip in trips {
            checksum.addUnordered(name: trip.name, destination: trip.destination, startDate: trip.startDate, endDate: trip.endDate)
        }
        return checksum
    }
}
