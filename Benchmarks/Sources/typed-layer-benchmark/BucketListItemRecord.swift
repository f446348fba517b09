import GRDB

/// A bucket-list item as a GRDB app stores it: a row of `bucketListItem` that names its trip by
/// `tripId` (a foreign key that cascades deletes).
struct BucketListItemRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "bucketListItem"

    var id: Int64?
    var title: String
    var details: String
    var hasReservation: Bool
    var isInPlan: Bool
    var tripId: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
