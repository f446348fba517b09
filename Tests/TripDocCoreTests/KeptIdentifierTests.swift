import Foundation
import Testing
import TripDocCore

/// `applySaveChanges(_:keepingInsertedIdentifiers:)`: what applying a patch of one store and
/// merging need from the engine.
@Suite struct KeptIdentifierTests {
    let base = SaveChangesTests()

    @Test func aFreePermanentIdentifierOfTheStoreIsKeptAndTheSequenceMovesPastIt() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let kept = base.id("Item", "7")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                base.snapshot(kept, ["title": .string("Onsen"), "trip": .reference(base.id("Trip", "1"))])
            ]), keepingInsertedIdentifiers: true)
        #expect(result.remappedIdentifiers[kept] == kept)
        #expect(document.header.nextPrimaryKeys["Item"] == 8)
        let trip = try #require(document.snapshots.first { $0.persistentIdentifier == base.id("Trip", "1") })
        #expect(trip["items"]?.referencedIdentifiers.contains(kept) == true)
        // A new insert after it is minted past it.
        let next = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [base.snapshot(base.temp("Item", "n"), ["title": .string("Ramen")])]))
        #expect(next.remappedIdentifiers[base.temp("Item", "n")] == base.id("Item", "8"))
    }

    @Test func aHeldIdentifierGetsANewKeyWithReferencesRewritten() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let held = base.id("Item", "1")
        let trip = base.temp("Trip", "osaka")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                base.snapshot(trip, ["name": .string("Osaka"), "days": .int(2), "items": .references([held])]),
                base.snapshot(held, ["title": .string("Castle"), "trip": .reference(trip)]),
            ]), keepingInsertedIdentifiers: true)
        let fresh = try #require(result.remappedIdentifiers[held])
        #expect(fresh == base.id("Item", "3"))
        let osaka = try #require(document.snapshots.first { $0["name"] == .string("Osaka") })
        #expect(osaka["items"] == .references([fresh]))
        #expect(document.snapshots.first { $0.persistentIdentifier == held }?["title"] == .string("Sushi"))
    }

    @Test func withoutTheOptionAHeldIdentifierIsRefused() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        #expect(throws: SaveChangesError.duplicateIdentifier(base.id("Item", "1"))) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [base.snapshot(base.id("Item", "1"), ["title": .string("Castle")])]))
        }
    }

    @Test func insertsAreNeverUpsertsAndCollideOnlyWithTheSaveInPlace() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let before = document
        let insert = base.snapshot(base.temp("Trip", "again"), ["name": .string("Tokyo"), "days": .int(1)])
        #expect(throws: SaveChangesError.uniquenessViolated(base.temp("Trip", "again"), constraint: ["name"], existing: base.id("Trip", "1"))) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [insert]), keepingInsertedIdentifiers: true)
        }
        #expect(document == before)
        // Renamed in the same save, the old name is free for the insert.
        var renamed = try #require(document.snapshots.first { $0.persistentIdentifier == base.id("Trip", "1") })
        renamed.values["name"] = .string("Kyoto")
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [insert], updated: [renamed]), keepingInsertedIdentifiers: true)
        #expect(Set(document.snapshots(of: "Trip").compactMap { $0["name"] }) == [.string("Tokyo"), .string("Kyoto")])
    }

    @Test func twoInsertsOfOneSaveWithTheSameValuesAreRefusedNamingTheLaterInIdentifierOrder() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let before = document
        let first = base.snapshot(base.temp("Trip", "a"), ["name": .string("Osaka"), "days": .int(1)])
        let second = base.snapshot(base.temp("Trip", "b"), ["name": .string("Osaka"), "days": .int(2)])
        // The inserts get Trip/2 and Trip/3 in the order of the request.
        #expect(throws: SaveChangesError.uniquenessViolated(base.temp("Trip", "b"), constraint: ["name"], existing: base.id("Trip", "2"))) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [first, second]), keepingInsertedIdentifiers: true)
        }
        #expect(document == before)
    }

    @Test func anInsertCollidesWithTheValuesAnUpdateOfTheSameSaveGivesAModel() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let before = document
        var renamed = try #require(document.snapshots.first { $0.persistentIdentifier == base.id("Trip", "1") })
        renamed.values["name"] = .string("Kyoto")
        let insert = base.snapshot(base.temp("Trip", "k"), ["name": .string("Kyoto"), "days": .int(1)])
        #expect(throws: SaveChangesError.uniquenessViolated(base.temp("Trip", "k"), constraint: ["name"], existing: base.id("Trip", "1"))) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [insert], updated: [renamed]), keepingInsertedIdentifiers: true)
        }
        #expect(document == before)
    }

    @Test func anInsertMayTakeTheValuesOfAModelTheSameSaveDeletes() throws {
        var (document, _) = try base.documentWithTokyoTrip()
        let tokyo = try #require(document.snapshots.first { $0.persistentIdentifier == base.id("Trip", "1") })
        let insert = base.snapshot(base.temp("Trip", "again"), ["name": .string("Tokyo"), "days": .int(1)])
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [insert], deleted: [tokyo]), keepingInsertedIdentifiers: true)
        #expect(document.snapshots(of: "Trip").map(\.persistentIdentifier) == [base.id("Trip", "2")])
        #expect(document.snapshots(of: "Trip").first?["name"] == .string("Tokyo"))
    }
}
