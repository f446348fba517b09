import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// An `#Index` is built when a fetch first asks for it, and kept up to date by every save from
/// then on: whether a fetch asked before the saves, between them or after, it answers as an
/// index built afresh over the document the saves left.
@Suite struct AttributeIndexLifetimeTests {
    /// Saves that move a trip's start date, insert a trip and delete one.
    func applySaves(to document: inout IndexedDocument) throws {
        var moved = try #require(document.snapshots(of: "Trip").first)
        moved["startDate"] = .date(Date(timeIntervalSince1970: 2_000_000_000))
        try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [moved]))
        var inserted = moved
        inserted.persistentIdentifier = .temporary(entityName: "Trip")
        inserted["name"] = .string("Inserted")
        inserted["bucketList"] = .references([])
        inserted["livingAccommodation"] = .null
        inserted["startDate"] = .date(Date(timeIntervalSince1970: -10_000_000_000))
        try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [inserted]))
        let deleted = document.snapshots(of: "Trip")[1]
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [deleted]))
    }

    func startDates(_ document: IndexedDocument) -> [PersistentIdentifier]? {
        document.identifiers(of: "Trip", where: "startDate", from: nil, to: nil)
    }

    @Test(arguments: ["before", "between", "after"])
    func anIndexAnswersAsOneBuiltAfreshWheneverAFetchFirstAskedForIt(when: String) throws {
        var document = IndexedDocument(SampleTrips.document(trips: 30), indexingAttributes: true)
        if when == "before" { #expect(startDates(document)?.count == 30) }
        var copy = document  // a copy a fetch holds keeps answering for its own snapshots
        if when == "between" {
            var moved = try #require(document.snapshots(of: "Trip").first)
            moved["startDate"] = .date(Date(timeIntervalSince1970: 3_000_000_000))
            try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [moved]))
            #expect(startDates(document)?.last == moved.persistentIdentifier)
        }
        try applySaves(to: &document)
        let fresh = IndexedDocument(document.document, indexingAttributes: true)
        #expect(startDates(document) == startDates(fresh))
        #expect(startDates(document)?.count == 30)
        #expect(startDates(document)?.first.map { document.snapshot(for: $0)?["name"] } == .string("Inserted"))
        #expect(startDates(copy) == startDates(IndexedDocument(SampleTrips.document(trips: 30), indexingAttributes: true)))
        copy = document
        #expect(startDates(copy) == startDates(fresh))
    }
}
