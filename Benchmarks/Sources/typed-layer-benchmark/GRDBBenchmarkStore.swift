import Foundation
import GRDB

/// GRDB's side: Codable records in tables with foreign keys that cascade deletes and the indexes
/// of `Trip`'s `#Unique` and `#Index`, through one `DatabaseQueue`, as a GRDB app is written.
final class GRDBBenchmarkStore: BenchmarkedStore {
    let queue: DatabaseQueue

    init(kind: StoreKind, path: String) throws {
        var configuration = Configuration()
        switch kind {
        case .wal:
            // journal_mode=WAL with synchronous=NORMAL: a commit appends to the log without fsync.
            configuration.journalMode = .wal
        case .delete:
            // SQLite's default rollback journal, fsynced at every commit.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
        case .grdbMemory:
            break
        case .json, .bundle, .tripdocMemory:
            throw BenchmarkFailure(description: "GRDB: \(kind.rawValue) is one of tripdoc's stores")
        }
        queue = kind == .grdbMemory ? try DatabaseQueue(configuration: configuration) : try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            guard try !db.tableExists(TripRecord.databaseTableName) else { return }
            try Self.createTables(db)
        }
    }

    /// The schema: `Trip`'s unique constraint and its four indexes, and the relationships as
    /// foreign keys (indexed, cascading deletes).
    private static func createTables(_ db: Database) throws {
        try db.create(table: TripRecord.databaseTableName) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("name", .text).notNull()
            table.column("destination", .text).notNull()
            table.column("startDate", .datetime).notNull()
            table.column("endDate", .datetime).notNull()
            table.uniqueKey(["name", "startDate", "endDate"])
        }
        for columns in [["name"], ["startDate"], ["endDate"], ["name", "startDate", "endDate"]] {
            try db.create(indexOn: TripRecord.databaseTableName, columns: columns)
        }
        try db.create(table: BucketListItemRecord.databaseTableName) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("title", .text).notNull()
            table.column("details", .text).notNull()
            table.column("hasReservation", .boolean).notNull()
            table.column("isInPlan", .boolean).notNull()
            table.belongsTo("trip", onDelete: .cascade).notNull()
        }
        try db.create(table: LivingAccommodationRecord.databaseTableName) { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("address", .text).notNull()
            table.column("placeName", .text).notNull()
            table.belongsTo("trip", onDelete: .cascade).notNull().unique()
        }
    }

    func insertTrips(count: Int) throws {
        try queue.write { db in
            for number in 0..<count {
                let values = GeneratedTrip(number: number, of: count)
                var trip = TripRecord(
                    name: values.name, destination: values.destination, startDate: values.startDate,
                    endDate: values.endDate)
                try trip.insert(db)
                guard let tripID = trip.id else { throw BenchmarkFailure(description: "GRDB: a trip got no id") }
                for item in values.items {
                    var record = BucketListItemRecord(
                        title: item.title, details: item.details, hasReservation: item.hasReservation,
                        isInPlan: item.isInPlan, tripId: tripID)
                    try record.insert(db)
                }
                var stay = LivingAccommodationRecord(address: values.address, placeName: values.placeName, tripId: tripID)
                try stay.insert(db)
            }
        }
    }

    func entityCounts() throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            checksum.add(try TripRecord.fetchCount(db))
            checksum.add(try BucketListItemRecord.fetchCount(db))
            checksum.add(try LivingAccommodationRecord.fetchCount(db))
            return checksum
        }
    }

    func fetchAllTrips() throws -> Checksum {
        try unordered(queue.read { try TripRecord.fetchAll($0) })
    }

    func fetchTrips(destination: String) throws -> Checksum {
        try unordered(queue.read { try TripRecord.filter(Column("destination") == destination).fetchAll($0) })
    }

    func fetchTrips(startingFrom from: Date, before to: Date) throws -> Checksum {
        let startDate = Column("startDate")
        return try unordered(queue.read { try TripRecord.filter(startDate >= from && startDate < to).fetchAll($0) })
    }

    func fetchEarliestTrips(limit: Int) throws -> Checksum {
        var checksum = Checksum()
        for trip in try queue.read({ try TripRecord.order(Column("startDate")).limit(limit).fetchAll($0) }) {
            checksum.addOrdered(name: trip.name, destination: trip.destination, startDate: trip.startDate, endDate: trip.endDate)
        }
        return checksum
    }

    func setDestination(ofTripNamed name: String, to destination: String) throws -> Double {
        var trip = try trip(named: name)
        return try secondsTaken {
            trip.destination = destination
            try queue.write { try trip.update($0) }
        }
    }

    func deleteTrip(named name: String) throws -> Double {
        let trip = try trip(named: name)
        return try secondsTaken {
            _ = try queue.write { try trip.delete($0) }
        }
    }

    private func trip(named name: String) throws -> TripRecord {
        guard let trip = try queue.read({ try TripRecord.filter(Column("name") == name).fetchOne($0) }) else {
            throw BenchmarkFailure(description: "GRDB: no trip is called '\(name)'")
        }
        return trip
    }

    private func unordered(_ trips: [TripRecord]) -> Checksum {
        var checksum = Checksum()
        for trip in trips {
            checksum.addUnordered(name: trip.name, destination: trip.destination, startDate: trip.startDate, endDate: trip.endDate)
        }
        return checksum
    }
}
