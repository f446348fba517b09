import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// An archive store reads what a fetch needs: opening reads the header and schema, a fetch the
/// entities it asks for, and a save the whole document, so that an app opening a large
/// document and showing one entity does not decode the rest.
@Suite struct ArchiveStorePartialReadTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("partial") }

    func write(_ document: Document, in format: any DocumentFormat) throws -> String {
        let path = scratch.file("trips.\(format.fileExtensions[0])").path
        try format.writeDocument(document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Damages the bucket-list items of the document at `path`, and them only: the last one
    /// holds text where a Boolean belongs (JSON, plist); the bundle's entry of items has a
    /// byte of its compressed data changed.
    static func damageItems(at path: String, format: any DocumentFormat) throws {
        let url = URL(fileURLWithPath: path)
        var bytes = [UInt8](try Data(contentsOf: url))
        func range(of pattern: String, last: Bool) -> Range<Int>? {
            let needle = Array(pattern.utf8)
            let starts = Array(0...(bytes.count - needle.count))
            return (last ? starts.reversed() : starts).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
                .map { $0..<$0 + needle.count }
        }
        if format is BundleFormat {
            // The entry's local header comes first in the file (its central directory record
            // last): 30 bytes, the name, the extra field, then the compressed data.
            let name = try #require(range(of: "snapshots/BucketListItem.json", last: false))
            let extra = Int(bytes[name.lowerBound - 2]) | Int(bytes[name.lowerBound - 1]) << 8
            bytes[name.upperBound + extra + 20] ^= 0x55
        } else {
            let (value, replacement) =
                format is JSONFormat
                ? ("\"hasReservation\":true", "\"hasReservation\":\"maybe\"")
                : ("<key>hasReservation</key><true/>", "<key>hasReservation</key><string>maybe</string>")
            let range = try #require(range(of: value, last: true))
            bytes.replaceSubrange(range, with: Array(replacement.utf8))
        }
        try Data(bytes).write(to: url)
    }

    @Test(arguments: formats)
    func aFetchDecodesOnlyItsEntityAndASaveTheWholeDocument(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 20)
        let path = try write(document, in: format)
        try Self.damageItems(at: path, format: format)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        #expect(try store.fetchSnapshots(entityName: "Trip") == document.snapshots(of: "Trip"))
        #expect(try store.fetchSnapshots(entityName: "LivingAccommodation") == document.snapshots(of: "LivingAccommodation"))
        #expect(try store.readSnapshots(of: ["Trip"]).heldEntities == ["Trip", "LivingAccommodation"])
        // The damaged entity is read when it is asked for, and a save reads everything.
        #expect(throws: DocumentReadError.self) { try store.fetchSnapshots(entityName: "BucketListItem") }
        var trip = try #require(document.snapshots(of: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        #expect(throws: DocumentReadError.self) { try store.save(DataStoreSaveChangesRequest(updated: [trip])) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: formats)
    func aSaveAfterFetchesKeepsTheHistoryAndTheOtherEntities(format: any DocumentFormat) throws {
        let document = try SampleTrips.documentWithHistory(trips: 12)
        let path = try write(document, in: format)
        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        var trip = try #require(try store.fetchSnapshots(entityName: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try store.save(DataStoreSaveChangesRequest(updated: [trip]))

        let saved = try ArchiveStore(path: path, format: format).readDocument()
        #expect(saved.history.transactions.count == document.history.transactions.count + 1)
        #expect(saved.history.transactions.dropLast() == document.history.transactions[...])
        var expected = document
        expected.snapshots[expected.snapshots.firstIndex { $0.persistentIdentifier == trip.persistentIdentifier }!] = trip
        #expect(saved.orderedSnapshots == expected.orderedSnapshots)
    }

    @Test(arguments: formats)
    func theEntitiesAFetchReadsAreOfOneVersionOfTheFile(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 10)
        let path = try write(document, in: format)
        let reader = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        #expect(try reader.fetchSnapshots(entityName: "Trip") == document.snapshots(of: "Trip"))

        // Another store (another process) changes a trip and an item, writing the document whole.
        let writer = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        var trip = try #require(document.snapshots(of: "Trip").last)
        trip["destination"] = .string("Elsewhere")
        var item = try #require(document.snapshots(of: "BucketListItem").last)
        item["title"] = .string("Something else")
        try writer.save(DataStoreSaveChangesRequest(updated: [trip, item]))

        // What was read of the old version is let go; each read is of the new one.
        let read = try reader.readSnapshots(of: ["BucketListItem"])
        #expect(read.heldEntities == ["BucketListItem"])
        #expect(read.snapshots(of: "BucketListItem").last == item)
        #expect(try reader.fetchSnapshots(entityName: "Trip").last == trip)
        #expect(try reader.readSnapshots(of: ["Trip"]).heldEntities == ["Trip", "BucketListItem"])
    }

    @Test(arguments: formats)
    func aFetchFoldsInTheJournalOfSavesNotYetInTheDocument(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 10)
        let path = try write(document, in: format)
        let writer = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        var trip = try #require(document.snapshots(of: "Trip").first)
        trip["destination"] = .string("Elsewhere")
        try writer.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(writer.journal.exists)

        let reader = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        #expect(try reader.fetchSnapshots(entityName: "Trip").first == trip)
        // A reader that had read only trips before the journaled save sees it too.
        let earlier = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        try writer.compact()
        _ = try earlier.fetchSnapshots(entityName: "Trip")
        trip["destination"] = .string("Further")
        try writer.save(DataStoreSaveChangesRequest(updated: [trip]))
        #expect(try earlier.fetchSnapshots(entityName: "Trip").first == trip)
    }

    @Test(arguments: formats)
    func theEntitiesReadForAFetchAnswerIndexedQueriesAsTheWholeDocumentDoes(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 60)
        let path = try write(document, in: format)
        let whole = IndexedDocument(document, indexingAttributes: true)
        let part = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema).readSnapshots(of: ["Trip"])
        #expect(part.heldEntities == ["Trip"])
        let dates = document.snapshots(of: "Trip").compactMap { $0["startDate"] }.sorted { SnapshotValue.scalarOrder($0, $1) == .orderedAscending }
        let (lower, upper) = (ValueBound(dates[10], isInclusive: true), ValueBound(dates[40], isInclusive: false))
        let ranged = try #require(part.identifiers(of: "Trip", where: "startDate", from: lower, to: upper))
        #expect(ranged.count == 30)
        #expect(ranged == whole.identifiers(of: "Trip", where: "startDate", from: lower, to: upper))
        #expect(
            part.identifiers(of: "Trip", withFirst: 5, of: "name", reversed: true)
                == whole.identifiers(of: "Trip", withFirst: 5, of: "name", reversed: true))
        // Only an attribute an #Index names alone has an index, in either.
        #expect(part.identifiers(of: "Trip", where: "destination", from: nil, to: nil) == nil)
        #expect(whole.identifiers(of: "Trip", where: "destination", from: nil, to: nil) == nil)
    }

    @Test(arguments: formats)
    func aSaveToADocumentListingAnIdentifierTwiceIsRefusedNamingIt(format: any DocumentFormat) throws {
        var document = SampleTrips.document(trips: 3)
        var twice = try #require(document.snapshots(of: "Trip").first)
        twice["destination"] = .string("Listed twice")
        document.snapshots.append(twice)
        let path = try write(document, in: format)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema)
        var trip = try #require(document.snapshots(of: "Trip").last)
        trip["destination"] = .string("Elsewhere")
        #expect {
            try store.save(DataStoreSaveChangesRequest(updated: [trip]))
        } throws: { error in
            guard case SaveChangesError.documentHasProblems(let problems) = error else { return false }
            return "\(problems)".contains(twice.persistentIdentifier.description)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: formats)
    func openingADocumentOfAnotherSchemaIsRefusedBeforeAnyFetch(format: any DocumentFormat) throws {
        let path = try write(SampleTrips.document(trips: 2), in: format)
        #expect {
            try ArchiveStore(path: path, format: format, schema: Schema([Schema.Entity(name: "Other")]))
        } throws: { error in
            "\(error)".contains("migrate the document first")
        }
    }
}
