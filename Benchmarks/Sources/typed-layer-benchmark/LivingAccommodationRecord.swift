import GRDB

/// A trip's accommodation as a GRDB app stores it: a row of `livingAccommodation` that names its
/// trip by `tripId` (a unique foreign key that cascades deletes: one accommodation per trip).
struct LivingAccommodationRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "livingAccommodation"

    var id: Int64?
    var address: String
    var placeName: String
    var tripId: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
