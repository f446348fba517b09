import Foundation
import Testing
import TripDocCore
import TripDocTestSupport

/// A document kept across saves (what a store holds between saves) changes as a document
/// rebuilt for each save would, and tells what each save changed.
@Suite struct IndexedDocumentTests {
    static let schema = SaveChangesTests.schema
    let fixture = SaveChangesTests()
    let time = Date(timeIntervalSinceReferenceDate: 0)

    func id(_ entity: String, _ key: String) -> PersistentIdentifier { fixture.id(entity, key) }
    func temp(_ entity: String, _ key: String) -> PersistentIdentifier { fixture.temp(entity, key) }

    @Test func aSaveReportsEveryModelItChangedIncludingInversesAndCascades() throws {
        var document = IndexedDocument(try fixture.documentWithTokyoTrip().0)
        let kyoto = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: temp("Trip", "k"), values: ["name": .string("Kyoto"), "days": .int(3)])
            ]))
        #expect(Set(kyoto.changedSnapshots.keys) == [id("Trip", "2")])

        // Moving an item to another trip changes the item and, through the inverse, both trips.
        var item = try #require(document.snapshot(for: id("Item", "1")))
        item["trip"] = .reference(id("Trip", "2"))
        let moved = try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [item]))
        #expect(Set(moved.changedSnapshots.keys) == [id("Item", "1"), id("Trip", "1"), id("Trip", "2")])
        #expect(moved.changedSnapshots[id("Trip", "1")]??["items"] == .references([id("Item", "2")]))
        #expect(moved.changedSnapshots[id("Trip", "2")]??["items"] == .references([id("Item", "1")]))
        #expect(moved.transaction?.changes.count == 3)

        // Deleting a trip deletes its items (cascade): each is reported gone.
        let trip = try #require(document.snapshot(for: id("Trip", "1")))
        let deleted = try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [trip]))
        #expect(deleted.changedSnapshots.count == 2)
        #expect(deleted.changedSnapshots[id("Trip", "1")] == .some(nil))
        #expect(deleted.changedSnapshots[id("Item", "2")] == .some(nil))
        #expect(deleted.changes[id("Item", "2")] == .some(nil))
        #expect(deleted.changes[id("Item", "1")] == nil)
        #expect(deleted.changes.count == 2)
        #expect(document.count(of: "Item") == 1)
        #expect(document.identifiers(of: "Trip") == [id("Trip", "2")])
    }

    @Test func aRefusedSaveLeavesTheDocumentAsItWas() throws {
        var document = IndexedDocument(try fixture.documentWithTokyoTrip().0)
        _ = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: temp("Trip", "k"), values: ["name": .string("Kyoto"), "days": .int(3)])
            ]))
        let before = document.document
        var renamed = try #require(document.snapshot(for: id("Trip", "2")))
        renamed["name"] = .string("Tokyo")
        let orphan = DefaultSnapshot(persistentIdentifier: temp("Item", "x"), values: ["title": .string("Lost")])
        #expect(throws: SaveChangesError.self) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [orphan], updated: [renamed]))
        }
        #expect(document.document == before)
        // The uniqueness index is as it was: Kyoto is still taken, Tokyo still Trip 1's.
        let upsert = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: temp("Trip", "again"), values: ["name": .string("Kyoto"), "days": .int(9)])
            ]))
        #expect(upsert.result.remappedIdentifiers[temp("Trip", "again")] == id("Trip", "2"))
    }

    /// The identifiers a save adds join the document's order by primary key (numbers by value,
    /// before other keys), whether the save gives them in order (a bulk insert's minted keys,
    /// taken as they are) or out of it (a patch's kept keys), into an empty document or one
    /// that lists others already.
    @Test func identifiersASaveAddsAreListedInKeyOrderWhateverOrderTheSaveGaveThem() throws {
        var document = IndexedDocument(fixture.emptyDocument())
        func trip(_ identifier: PersistentIdentifier) -> DefaultSnapshot {
            DefaultSnapshot(persistentIdentifier: identifier, values: ["name": .string("trip \(identifier.primaryKey)"), "days": .int(1)])
        }
        _ = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: ["12", "b", "3", "a", "7"].map { trip(id("Trip", $0)) }),
            keepingInsertedIdentifiers: true)
        #expect(document.identifiers(of: "Trip") == ["3", "7", "12", "a", "b"].map { id("Trip", $0) })
        _ = try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: (1...3).map { trip(temp("Trip", "n\($0)")) }))
        #expect(document.identifiers(of: "Trip") == ["3", "7", "12", "13", "14", "15", "a", "b"].map { id("Trip", $0) })

        var minted = IndexedDocument(fixture.emptyDocument())
        _ = try minted.applySaveChanges(DataStoreSaveChangesRequest(inserted: (1...20).map { trip(temp("Trip", "m\($0)")) }))
        #expect(minted.identifiers(of: "Trip") == (1...20).map { id("Trip", String($0)) })
    }

    /// An entity's order is the order of its keys however its identifiers are kept: numbered
    /// close together (one run of the document's table, no list), or spread (a key that is not
    /// a number, another store's identifier, a key far from the others), and back again when a
    /// save deletes those that spread them. Writing the document lists them in that order too.
    @Test func anEntityIsListedInKeyOrderWhetherItsKeysAreCloseTogetherOrSpread() throws {
        func trip(_ identifier: PersistentIdentifier) -> DefaultSnapshot {
            DefaultSnapshot(persistentIdentifier: identifier, values: ["name": .string("trip \(identifier)"), "days": .int(1)])
        }
        func expectOrder(_ expected: [PersistentIdentifier], in document: IndexedDocument, _ comment: Comment) {
            #expect(document.identifiers(of: "Trip") == expected, comment)
            #expect(document.snapshots(of: "Trip").map(\.persistentIdentifier) == expected, comment)
            #expect(document.document.snapshots.map(\.persistentIdentifier) == expected, comment)
            #expect(document.count(of: "Trip") == expected.count, comment)
        }
        let elsewhere = PersistentIdentifier(storeIdentifier: "another-store", entityName: "Trip", primaryKey: "2")
        var read = fixture.emptyDocument()
        read.snapshots = [id("Trip", "3"), id("Trip", "x"), elsewhere, id("Trip", "1"), id("Trip", "2")].map(trip)
        var document = IndexedDocument(read)
        expectOrder([id("Trip", "1"), id("Trip", "2"), elsewhere, id("Trip", "3"), id("Trip", "x")], in: document, "as read")

        // The save deletes the identifiers that spread the entity: one run holds the rest.
        _ = try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [elsewhere, id("Trip", "x")].map(trip)))
        let close = ["1", "2", "3"].map { id("Trip", $0) }
        expectOrder(close, in: document, "in one run")
        _ = try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [trip(temp("Trip", "a"))]))
        expectOrder(close + [id("Trip", "4")], in: document, "a minted key joins the run")

        // A key that is not a number and one far from the rest spread them again.
        _ = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [trip(id("Trip", "k")), trip(id("Trip", "5000000"))]),
            keepingInsertedIdentifiers: true)
        expectOrder(close + [id("Trip", "4"), id("Trip", "5000000"), id("Trip", "k")], in: document, "spread again")
        #expect(document.count(of: "Item") == 0)
        #expect(document.identifiers(of: "Item").isEmpty)
        #expect(document.count(of: "NoSuchEntity") == 0)
        #expect(document.snapshots(of: "NoSuchEntity").isEmpty)
    }

    /// A save's report is a value: the document takes a first save's new models as the report
    /// holds them (an entity it held none of), and the saves after it change the document, never
    /// a report kept from before.
    @Test func aReportKeptFromAnEarlierSaveIsNotChangedByLaterSaves() throws {
        var document = IndexedDocument(fixture.emptyDocument())
        let first = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: ["Kyoto", "Oslo", "Lima"].map { name in
                DefaultSnapshot(persistentIdentifier: temp("Trip", name), values: ["name": .string(name), "days": .int(2)])
            }))
        let trips = ["1", "2", "3"].map { id("Trip", $0) }
        #expect(document.identifiers(of: "Trip") == trips)

        var renamed = try #require(document.snapshot(for: trips[0]))
        renamed["name"] = .string("Nara")
        _ = try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [renamed]))
        let lima = try #require(document.snapshot(for: trips[2]))
        _ = try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [lima]))
        _ = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: temp("Trip", "Rome"), values: ["name": .string("Rome"), "days": .int(1)])
            ]))

        #expect(first.changes.count == 3)
        #expect(first.changes[trips[0]]??["name"] == .string("Kyoto"))
        #expect(first.changes[trips[2]]??["name"] == .string("Lima"))
        #expect(first.changes[id("Trip", "4")] == nil)
        #expect(document.snapshot(for: trips[0])?["name"] == .string("Nara"))
        #expect(document.snapshot(for: trips[2]) == nil)
        #expect(document.identifiers(of: "Trip") == [trips[0], trips[1], id("Trip", "4")])
        #expect(document.document == IndexedDocument(document.document).document)
    }

    /// Hundreds of random saves (inserts, upserts, renames, moves, deletes with cascades, saves
    /// that are refused), applied to one document kept across them and to a document rebuilt
    /// from the previous result for each save: the two agree after every save, and refuse the
    /// same saves.
    @Test(arguments: [1, 2, 3]) func keptAcrossSavesEqualsRebuiltForEachSave(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        var kept = IndexedDocument(fixture.emptyDocument())
        var rebuilt = fixture.emptyDocument()
        for round in 0..<400 {
            var request = randomRequest(in: kept, random: &random, round: round)
            // Now and then a save keeps the identifiers it brings (as a patch does): keys that
            // are not numbers sort after the minted ones, so the order takes them out of turn.
            let keeping = random.below(5) == 0
            if keeping {
                request.inserted.append(
                    DefaultSnapshot(persistentIdentifier: id("Trip", "k\(round)"), values: ["name": .string("kept \(round)"), "days": .int(1)]))
            }
            var keptError: SaveChangesError?
            var rebuiltError: SaveChangesError?
            do { try kept.applySaveChanges(request, timestamp: time, keepingInsertedIdentifiers: keeping) } catch let error as SaveChangesError {
                keptError = error
            }
            do { try rebuilt.applySaveChanges(request, timestamp: time, keepingInsertedIdentifiers: keeping) } catch let error as SaveChangesError {
                rebuiltError = error
            }
            #expect(keptError == rebuiltError, "round \(round)")
            #expect(kept.document == rebuilt, "round \(round)")
            if kept.document != rebuilt { return }
        }
        #expect(kept.count > 50)
    }

    func randomRequest(in document: IndexedDocument, random: inout SplitMix, round: Int) -> DataStoreSaveChangesRequest<DefaultSnapshot> {
        let trips = document.snapshots(of: "Trip")
        let items = document.snapshots(of: "Item")
        var inserted: [DefaultSnapshot] = []
        var updated: [DefaultSnapshot] = []
        var deleted: [DefaultSnapshot] = []
        // Names from a small pool, so inserts often upsert and renames often collide.
        func name() -> SnapshotValue { .string("trip \(random.below(60))") }
        for n in 0..<random.below(4) {
            let trip = temp("Trip", "r\(round)-\(n)")
            let item = temp("Item", "r\(round)-\(n)")
            inserted.append(DefaultSnapshot(persistentIdentifier: trip, values: ["name": name(), "days": .int(Int64(n))]))
            if random.below(2) == 0 {
                inserted.append(DefaultSnapshot(persistentIdentifier: item, values: ["title": .string("i\(round)"), "trip": .reference(trip)]))
            }
        }
        if !trips.isEmpty, random.below(2) == 0 {
            var trip = trips[random.below(trips.count)]
            trip["name"] = name()
            updated.append(trip)
        }
        if !items.isEmpty, !trips.isEmpty, random.below(3) == 0 {
            var item = items[random.below(items.count)]
            item["trip"] = random.below(4) == 0 ? .null : .reference(trips[random.below(trips.count)].persistentIdentifier)
            updated.append(item)
        }
        if !trips.isEmpty, random.below(3) == 0 {
            let trip = trips[random.below(trips.count)]
            if !updated.contains(where: { $0.persistentIdentifier == trip.persistentIdentifier }) { deleted.append(trip) }
        }
        if !items.isEmpty, random.below(4) == 0 {
            let item = items[random.below(items.count)]
            if !updated.contains(where: { $0.persistentIdentifier == item.persistentIdentifier }) { deleted.append(item) }
        }
        return DataStoreSaveChangesRequest(inserted: inserted, updated: updated, deleted: deleted)
    }
}
