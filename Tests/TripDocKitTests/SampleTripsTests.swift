import Foundation
import Testing
import TripDoc
import TripDocKit

@Suite struct SampleTripsTests {
    @Test(arguments: [0, 1, 250])
    func samplesAreConsistentAtAnySize(trips: Int) {
        let document = SampleTrips.document(trips: trips, seed: 3)
        #expect(document.countsByEntity["Trip"] == trips)
        #expect(IntegrityChecker().problems(in: document) == [])
    }

    @Test func aSampleHasAboutSevenSnapshotsPerTrip() {
        let document = SampleTrips.document(trips: 1000)
        let perTrip = Double(document.snapshots.count) / 1000
        #expect((6.5...7.5).contains(perTrip))
        #expect(document.header.nextPrimaryKeys["Trip"] == 1001)
    }

    @Test func theSampleSchemaIsTheWWDCModel() throws {
        let trip = try #require(SampleTrips.schema.entity(named: "Trip"))
        #expect(trip.uniquenessConstraints == [["name", "startDate", "endDate"]])
        #expect(trip.attributes.filter(\.preservesValueOnDeletion).map(\.name) == ["name", "startDate", "endDate"])
        #expect(trip.relationship(named: "bucketList")?.deleteRule == .cascade)
        try SampleTrips.schema.validate()
    }
}

@Suite struct DocumentConversionTests {
    func file(_ document: Document) -> DocumentFile {
        DocumentFile(path: "in.json", format: JSONFormat(), size: 0, document: document)
    }

    @Test func everyIdentifierAndReferenceMovesToTheNewStore() throws {
        let source = SampleTrips.document(trips: 40)
        let conversion = try DocumentConversion(source: file(source), storeIdentifier: "NEW")
        let converted = conversion.document
        #expect(converted.storeIdentifier == "NEW")
        #expect(converted.snapshots.count == source.snapshots.count)
        for snapshot in converted.snapshots {
            #expect(snapshot.persistentIdentifier.storeIdentifier == "NEW")
            for value in snapshot.values.values {
                #expect(value.referencedIdentifiers.allSatisfy { $0.storeIdentifier == "NEW" })
            }
        }
        #expect(IntegrityChecker().problems(in: converted) == [])
        #expect(conversion.identifiers.count == source.snapshots.count)
        // Converting back under the original identifier gives the original document.
        let back = try DocumentConversion(source: file(converted), storeIdentifier: source.storeIdentifier).document
        #expect(back.snapshots == source.orderedSnapshots)
    }

    @Test func renumberingGivesDenseKeysAndKeepsRelationships() throws {
        var source = SampleTrips.document(trips: 5)
        // Delete a trip so that the keys have a gap.
        _ = try source.applySaveChanges(
            DataStoreSaveChangesRequest(deleted: [DefaultSnapshot(persistentIdentifier: source.identifier(entityName: "Trip", primaryKey: "2"), values: [:])]))
        let converted = try DocumentConversion(source: file(source), storeIdentifier: "R", renumber: true).document
        #expect(converted.snapshots(of: "Trip").map(\.persistentIdentifier.primaryKey) == ["1", "2", "3", "4"])
        // The deleted trip is still named in the history, so it gets the next key, 5.
        let deleted = converted.history.transactions.last?.changes.first?.changedPersistentIdentifier
        #expect(deleted?.entityName == "Trip" && deleted?.primaryKey == "5")
        #expect(converted.header.nextPrimaryKeys["Trip"] == 6)
        #expect(IntegrityChecker().problems(in: converted) == [])
    }

    @Test func aDocumentWithProblemsIsRefused() {
        var source = SampleTrips.document(trips: 2)
        source.snapshots[0]["trip"] = .reference(source.identifier(entityName: "Trip", primaryKey: "77"))
        #expect(throws: TripDocError.self) { try DocumentConversion(source: file(source)) }
    }
}

/// A check of more snapshots than it frees in place (100,000) still finds every problem, in
/// document order, before its tables go to another thread to be freed.
@Suite struct LargeIntegrityCheckTests {
    @Test func aLargeSessionFindsItsProblemsBeforeItFreesItsTables() throws {
        var document = SampleTrips.document(trips: 16_000)
        #expect(document.snapshots.count > 100_000)
        let last = try #require(document.snapshots.lastIndex { $0.entityName == "Trip" })
        let missing = try PersistentIdentifier.identifier(
            for: document.storeIdentifier, entityName: "LivingAccommodation", primaryKey: 99_999_999)
        let abandoned = try #require(document.snapshots[last]["livingAccommodation"])
        document.snapshots[last]["livingAccommodation"] = .reference(missing)

        var session = IntegrityChecker.Session(schema: document.schema, header: document.header)
        for snapshot in document.snapshots { session.add(snapshot) }
        let problems = session.finish()

        #expect(problems.map(\.kind).contains(.danglingReference))
        let dangling = try #require(problems.first { $0.kind == .danglingReference })
        #expect(dangling.identifier == document.snapshots[last].persistentIdentifier)
        #expect(dangling.message.contains("LivingAccommodation/99999999"))
        // The accommodation it left points back at a trip that no longer points at it.
        guard case .reference(let accommodation) = abandoned else { Issue.record("\(abandoned)"); return }
        #expect(problems.contains { $0.kind == .inverseMismatch && $0.identifier == accommodation })
        #expect(problems.count == 2)
    }
}
