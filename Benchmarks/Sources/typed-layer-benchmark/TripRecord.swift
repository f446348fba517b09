import Foundation
import GRDB

/// A trip as a GRDB app stores it: a Codable record in the `trip` table, whose identifier SQLite
/// assigns on insert.
struct TripRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "trip"

    var id: Int64?
    var name: String
    var destination: String
    var startDate: Date
    var endDate: Date

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
