import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// A save appended to the journal of a document the store has not read whole reads the
/// entities the save needs and where the history stands, not the rest, and leaves the document
/// as the same save applied to the whole document does: an app that opens a large document,
/// shows its trips and saves an edit pays for its trips, not for the document.
@Suite struct JournaledSaveAfterOpeningTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// The saves an app makes after opening: each changes what the next ones need read.
    enum Edit: String, CaseIterable {
        /// A trip's destination (reads trips only).
        case attribute
        /// A bucket-list item moved to another trip, only the trip's side sent (reads items).
        case relationship
        /// A new trip with a new bucket-list item (reads the entities it refers to).
        case insert
        /// A trip deleted, its items and place to stay with it (reads what the cascade reaches).
        case delete
        /// A new trip with the name and dates of an existing one (an upsert onto it).
        case upsert

        /// The entities the save reads, after a fetch of the trips.
        var entitiesRead: Set<String> {
            switch self {
            case .attribute: ["Trip"]
            case .relationship: ["Trip", "BucketListItem"]
            case .insert, .delete, .upsert: ["Trip", "BucketListItem", "LivingAccommodation"]
            }
        }
    }

    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("journaled-save") }

    func write(_ document: Document, in format: any DocumentFormat) throws -> String {
        let path = scratch.file("trips.\(format.fileExtensions[0])").path
        try format.writeDocument(document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `edit` made from `document`'s snapshots, as a context would send it.
    static func request(_ edit: Edit, in document: Document) throws -> DataStoreSaveChangesRequest<DefaultSnapshot> {
        let trips = document.snapshots(of: "Trip")
        switch edit {
        case .attribute:
            var trip = trips[0]
            trip["destination"] = .string("Elsewhere")
            return DataStoreSaveChangesRequest(updated: [trip])
        case .relationship:
            guard case .references(let items) = trips[0]["bucketList"], case .references(let list) = trips[1]["bucketList"]
            else { throw Unexpected.shape }
            var trip = trips[1]
            trip["bucketList"] = .references(list + [items[0]])
            return DataStoreSaveChangesRequest(updated: [trip])
        case .insert:
            let trip = PersistentIdentifier.temporary(entityName: "Trip")
            let item = PersistentIdentifier.temporary(entityName: "BucketListItem")
            let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
            return DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(
                    persistentIdentifier: trip,
                    values: [
                        "name": .string("Ski Week"), "destination": .string("Oslo"), "startDate": .date(start),
                        "endDate": .date(start + 7 * 86_400), "bucketList": .references([item]), "livingAccommodation": .null,
                    ]),
                DefaultSnapshot(
                    persistentIdentifier: item,
                    values: [
                        "title": .string("Ski"), "details": .string("Holmenkollen"), "hasReservation": .bool(false),
                        "isInPlan": .bool(true), "trip": .reference(trip),
                    ]),
            ])
        case .delete:
            return DataStoreSaveChangesRequest(deleted: [trips[2]])
        case .upsert:
            var values = trips[3].values
            values["destination"] = .string("Upserted")
            values["bucketList"] = .references([])
            values["livingAccommodation"] = .null
            return DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Trip"), values: values)
            ])
        }
    }

    enum Unexpected: Error { case shape }

    @Test(arguments: formats, Edit.allCases)
    func aSaveAfterFetchingTripsLeavesTheDocumentAsASaveOverTheWholeDocument(format: any DocumentFormat, edit: Edit) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        let request = try Self.request(edit, in: document)
        var whole = IndexedDocument(document)
        let expected = try whole.applySaveChanges(request)

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        _ = try store.fetchSnapshots(entityName: "Trip")
        let result = try store.save(request)
        #expect(result.remappedIdentifiers == expected.result.remappedIdentifiers)
        #expect(store.savesInJournal == 1)
        // The trips were read for the fetch; what else the save read depends on what it changes.
        #expect(try store.readSnapshots(of: []).heldEntities == edit.entitiesRead)

        let saved = try ArchiveStore(path: path, format: format).readDocument()
        #expect(saved.orderedSnapshots == whole.document.orderedSnapshots)
        #expect(saved.header.nextPrimaryKeys == whole.header.nextPrimaryKeys)
        #expect(saved.history.transactions.map(\.transactionIdentifier) == whole.history.transactions.map(\.transactionIdentifier))
        #expect(saved.history.transactions.last?.changes == whole.history.transactions.last?.changes)
    }

    @Test(arguments: formats)
    func anEditOfTripsReadsTripsOnlyAndLeavesDamageElsewhereToTheReadThatNeedsIt(format: any DocumentFormat) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        try ArchiveStorePartialReadTests.damageItems(at: path, format: format)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        var trip = try #require(try store.fetchSnapshots(entityName: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try store.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(try store.readSnapshots(of: []).heldEntities == ["Trip"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
        #expect(store.journal.exists)

        // A save that changes a trip's bucket list needs the damaged items: refused, nothing written.
        let journal = try Data(contentsOf: URL(fileURLWithPath: store.journal.path))
        trip["bucketList"] = .references([])
        #expect(throws: DocumentReadError.self) { try store.save(DataStoreSaveChangesRequest(updated: [trip])) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.journal.path)) == journal)
        // The whole read reports the damage; the saved edit waits in the journal.
        #expect(throws: DocumentReadError.self) { try ArchiveStore(path: path, format: format).readDocument() }
    }

    /// A bundle's manifest records where its history stands: the first save after opening
    /// reads the trips it changes and not the history entry, whose damage (one byte of its
    /// deflated data) only a read of the history finds.
    @Test func aSaveAfterOpeningABundleLeavesItsHistoryEntryUninflated() throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let newest = try #require(document.history.transactions.last?.transactionIdentifier)
        let path = try write(document, in: BundleFormat())
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let name = Array("history.json".utf8)
        // The entry's local header comes first in the file: 30 bytes, the name, the extra
        // field, then the deflated data.
        let start = try #require((0...(bytes.count - name.count)).first { bytes[$0..<$0 + name.count].elementsEqual(name) })
        let extra = Int(bytes[start - 2]) | Int(bytes[start - 1]) << 8
        bytes[start + name.count + extra + 20] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let store = try ArchiveStore(path: path, format: BundleFormat(), schema: SampleTrips.schema, savesToJournal: true)
        #expect(try store.readSnapshots(of: []).knowsHistoryPosition)
        var trip = try #require(try store.fetchSnapshots(entityName: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try store.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(try store.readSnapshots(of: []).heldEntities == ["Trip"])
        let journal = try store.journal.read(storeIdentifier: store.identifier)
        #expect(journal.records.map(\.transaction.transactionIdentifier) == [newest + 1])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        // A whole read reads the history, and reports the damage; the save waits in the journal.
        #expect(throws: DocumentReadError.self) { try ArchiveStore(path: path, format: BundleFormat()).readDocument() }
    }

    @Test(arguments: formats)
    func aSaveNumbersItsTransactionAfterTheHistoryItDidNotRead(format: any DocumentFormat) throws {
        var document = try SampleTrips.documentWithHistory(trips: 12)
        let newest = try #require(document.history.transactions.last?.transactionIdentifier)
        // Every transaction deleted, through one after the newest the file lists.
        document.history = DocumentHistory(deletedThrough: newest + 5)
        let path = try write(document, in: format)

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        for destination in ["First", "Second"] {
            var trip = try #require(try store.fetchSnapshots(entityName: "Trip").first)
            trip["destination"] = .string(destination)
            try store.save(DataStoreSaveChangesRequest(editingState: EditingState(author: destination), updated: [trip]))
        }
        #expect(store.savesInJournal == 2)
        let saved = try ArchiveStore(path: path, format: format).readDocument()
        #expect(saved.history.transactions.suffix(2).map(\.transactionIdentifier) == [newest + 6, newest + 7])
        #expect(saved.history.transactions.suffix(2).map(\.author) == ["First", "Second"])
        #expect(saved.snapshots(of: "Trip").first?["destination"] == .string("Second"))
    }

    @Test(arguments: formats)
    func aDocumentWithoutHistoryGetsItsFirstTransaction(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 5)
        let path = try write(document, in: format)
        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        let request = try Self.request(.attribute, in: document)
        try store.save(request)
        #expect(try ArchiveStore(path: path, format: format).readDocument().history.transactions.map(\.transactionIdentifier) == [1])
    }

    @Test(arguments: formats)
    func anotherStoresFoldIsNoConflictButItsSaveIs(format: any DocumentFormat) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        let app = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        let widget = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        var trips = try app.fetchSnapshots(entityName: "Trip")
        trips[0]["destination"] = .string("Elsewhere")
        try app.save(DataStoreSaveChangesRequest(updated: [trips[0]]))

        // The widget reads the app's save, saves one of its own and folds the journal (as it
        // does when it is released): the app, which has not read that save, is refused.
        var seen = try widget.fetchSnapshots(entityName: "Trip")
        #expect(seen[0] == trips[0])
        seen[1]["destination"] = .string("Widget")
        try widget.save(DataStoreSaveChangesRequest(updated: [seen[1]]))
        try widget.compact()
        trips[2]["destination"] = .string("Later")
        #expect(throws: ArchiveStoreError.conflict(path: path)) {
            try app.save(DataStoreSaveChangesRequest(updated: [trips[2]]))
        }

        // Once the app has read it, a fold alone is no conflict.
        trips = try app.fetchSnapshots(entityName: "Trip")
        #expect(trips[1]["destination"] == .string("Widget"))
        try app.save(DataStoreSaveChangesRequest(updated: [trips[2]]))
        _ = try widget.fetchSnapshots(entityName: "Trip")
        try widget.compact()
        trips[3]["destination"] = .string("After the fold")
        try app.save(DataStoreSaveChangesRequest(updated: [trips[3]]))
        let saved = try ArchiveStore(path: path, format: format).readDocument().snapshots(of: "Trip")
        #expect(saved.prefix(4).map { $0["destination"] } == trips.prefix(4).map { $0["destination"] })
    }

    /// Visits of places, the relationship without an inverse: deleting a place leaves the
    /// visits that named it pointing at nothing, as SwiftData leaves them.
    static let visits = Schema(
        [
            Schema.Entity(name: "Place", attributes: [.init("name", .string)]),
            Schema.Entity(
                name: "Visit", attributes: [.init("title", .string)], relationships: [.init("place", destination: "Place")]),
        ],
        version: Schema.Version(1, 0, 0))

    @Test(arguments: formats)
    func aReferenceLeftDanglingByADeleteStaysAsItIsAndOnlyNewOnesAreChecked(format: any DocumentFormat) throws {
        var document = Document.empty(schema: Self.visits)
        let place = PersistentIdentifier.temporary(entityName: "Place")
        let visit = PersistentIdentifier.temporary(entityName: "Visit")
        let inserted = try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [
            DefaultSnapshot(persistentIdentifier: place, values: ["name": .string("Kyoto")]),
            DefaultSnapshot(persistentIdentifier: visit, values: ["title": .string("Temples"), "place": .reference(place)]),
        ])).remappedIdentifiers
        var saved = try #require(document.snapshots.first { $0.persistentIdentifier == inserted[visit] })
        let kyoto = try #require(document.snapshots.first { $0.persistentIdentifier == inserted[place] })
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [kyoto]))
        #expect(document.snapshots(of: "Visit").first?["place"] == .reference(kyoto.persistentIdentifier))
        let path = try write(document, in: format)

        // An edit of the visit's title keeps the reference: saved to the journal, read back.
        let store = try ArchiveStore(path: path, format: format, schema: Self.visits, savesToJournal: true)
        saved = try #require(try store.fetchSnapshots(entityName: "Visit").first)
        saved["title"] = .string("Gardens")
        try store.save(DataStoreSaveChangesRequest(updated: [saved]))
        #expect(try store.readSnapshots(of: []).heldEntities == ["Visit"])
        let reread = try ArchiveStore(path: path, format: format).readDocument()
        #expect(reread.snapshots(of: "Visit").first == saved)

        // A reference a save adds must name a model the store holds.
        var moved = saved
        moved["place"] = .reference(kyoto.persistentIdentifier.withPrimaryKey("99"))
        #expect(throws: SaveChangesError.danglingReference(saved.persistentIdentifier, property: "place", target: moved["place"]!.referencedIdentifiers[0])) {
            try store.save(DataStoreSaveChangesRequest(updated: [moved]))
        }
    }

    @Test(arguments: formats)
    func aDocumentListingAnIdentifierTwiceInAnEntityNotReadIsNeverWrittenWithOneOfThem(format: any DocumentFormat) throws {
        var document = try SampleTrips.documentWithHistory(trips: 6)
        let item = try #require(document.snapshots(of: "BucketListItem").first)
        document.snapshots.append(item)
        let path = try write(document, in: format)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        var trip = try #require(try store.fetchSnapshots(entityName: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try store.save(DataStoreSaveChangesRequest(updated: [trip]))
        // Folding the journal in would write the document with one of the two: refused, and
        // the document and the journal stay.
        #expect(throws: SaveChangesError.self) { try store.compact() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(store.journal.exists)
    }

    @Test func aDocumentHoldingSomeEntitiesRefusesASaveThatReadsOthers() throws {
        let document = SampleTrips.document(trips: 4)
        let path = try write(document, in: JSONFormat())
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: SampleTrips.schema, savesToJournal: true)
        var part = try store.readSnapshots(of: ["Trip"])
        var item = try #require(document.snapshots(of: "BucketListItem").first)
        item["title"] = .string("Changed")
        #expect(throws: SaveChangesError.entitiesNotRead(["BucketListItem"])) {
            try part.applySaveChanges(DataStoreSaveChangesRequest(updated: [item]))
        }
        var trip = try #require(document.snapshots(of: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try part.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(part.snapshot(for: trip.persistentIdentifier) == trip)
    }

    @Test(arguments: formats)
    func uniquenessIsCheckedAgainstEveryTripTheFileHolds(format: any DocumentFormat) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let trips = document.snapshots(of: "Trip")
        var trip = trips[0]
        for name in ["name", "startDate", "endDate"] { trip[name] = trips[5][name] }

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        #expect(throws: SaveChangesError.uniquenessViolated(
            trip.persistentIdentifier, constraint: ["name", "startDate", "endDate"], existing: trips[5].persistentIdentifier)
        ) { try store.save(DataStoreSaveChangesRequest(updated: [trip])) }
        #expect(!store.journal.exists)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: formats)
    func fetchesAfterJournaledSavesFoldTheJournalIntoTheEntitiesTheyRead(format: any DocumentFormat) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        _ = try store.fetchSnapshots(entityName: "Trip")
        let request = try Self.request(.delete, in: document)
        try store.save(request)
        var whole = IndexedDocument(document)
        try whole.applySaveChanges(request)

        // Another store, opened on the journaled document, and this one read the same.
        let other = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        for entity in ["BucketListItem", "LivingAccommodation", "Trip"] {
            #expect(try store.fetchSnapshots(entityName: entity) == whole.snapshots(of: entity))
            #expect(try other.fetchSnapshots(entityName: entity) == whole.snapshots(of: entity))
        }
        // The other store saves after this one, appending to the same journal; this one
        // reads that save, and saves after it.
        var trip = try #require(try other.fetchSnapshots(entityName: "Trip").last)
        trip["destination"] = .string("Elsewhere")
        try other.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(other.savesInJournal == 2)
        trip = try #require(try store.fetchSnapshots(entityName: "Trip").last)
        #expect(trip["destination"] == .string("Elsewhere"))
        trip["destination"] = .string("Further")
        try store.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(store.savesInJournal == 3)
        let saved = try ArchiveStore(path: path, format: format).readDocument()
        #expect(saved.snapshots(of: "Trip").last == trip)
        #expect(saved.history.transactions.count == document.history.transactions.count + 3)
    }
}
