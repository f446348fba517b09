import Foundation
import Testing
import TripDocCore

/// The save path every archive store shares, specified on a small trips schema.
@Suite struct SaveChangesTests {
    static let store = "STORE"
    static let schema = Schema([
        Schema.Entity(
            name: "Trip",
            attributes: [.init("name", .string), .init("days", .int16), .init("note", .string, isOptional: true)],
            relationships: [
                .init("items", destination: "Item", isToMany: true, inverse: "trip", deleteRule: .cascade),
                .init("stay", destination: "Stay", inverse: "trip", deleteRule: .deny),
            ],
            uniquenessConstraints: [["name"]]),
        Schema.Entity(
            name: "Item", attributes: [.init("title", .string)],
            relationships: [.init("trip", destination: "Trip", inverse: "items")]),
        Schema.Entity(
            name: "Stay", attributes: [.init("place", .string)],
            relationships: [.init("trip", destination: "Trip", inverse: "stay")]),
    ])

    func emptyDocument() -> Document { Document.empty(schema: Self.schema, storeIdentifier: Self.store) }
    func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: Self.store, entityName: entity, primaryKey: key)
    }
    func temp(_ entity: String, _ key: String) -> PersistentIdentifier {
        .temporary(entityName: entity, primaryKey: key)
    }
    func snapshot(_ id: PersistentIdentifier, _ values: [String: SnapshotValue]) -> DefaultSnapshot {
        DefaultSnapshot(persistentIdentifier: id, values: values)
    }

    /// A trip with two items inserted in one save, referencing each other by temporary identifiers.
    func documentWithTokyoTrip() throws -> (Document, DataStoreSaveChangesResult<DefaultSnapshot>) {
        var document = emptyDocument()
        let trip = temp("Trip", "t1")
        let first = temp("Item", "t2")
        let second = temp("Item", "t3")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(trip, ["name": .string("Tokyo"), "days": .int(5), "items": .references([first, second])]),
                snapshot(first, ["title": .string("Sushi"), "trip": .reference(trip)]),
                snapshot(second, ["title": .string("Temple"), "trip": .reference(trip)]),
            ]))
        return (document, result)
    }

    @Test func insertsGetPermanentIdentifiersAndReferencesAreRewritten() throws {
        let (document, result) = try documentWithTokyoTrip()
        #expect(result.storeIdentifier == Self.store)
        #expect(result.remappedIdentifiers[temp("Trip", "t1")] == id("Trip", "1"))
        #expect(result.remappedIdentifiers[temp("Item", "t2")] == id("Item", "1"))
        #expect(result.remappedIdentifiers[temp("Item", "t3")] == id("Item", "2"))
        let trip = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "1") })
        #expect(trip["items"] == .references([id("Item", "1"), id("Item", "2")]))
        #expect(trip["note"] == .null)
        #expect(trip["stay"] == .null)
        #expect(document.snapshots.first { $0.persistentIdentifier == id("Item", "2") }?["trip"] == .reference(id("Trip", "1")))
        #expect(document.header.nextPrimaryKeys == ["Trip": 2, "Item": 3])
        #expect(IntegrityChecker().problems(in: document).isEmpty)
    }

    @Test func primaryKeysAreNeverReusedAfterADeletion() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [snapshot(id("Trip", "1"), [:])]))
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [snapshot(temp("Trip", "t"), ["name": .string("Oslo"), "days": .int(2)])]))
        #expect(result.remappedIdentifiers[temp("Trip", "t")] == id("Trip", "2"))
    }

    @Test func updatesReplaceAllValues() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(updated: [
                snapshot(
                    id("Trip", "1"),
                    ["name": .string("Tokyo in spring"), "days": .int(6), "note": .string("cherry blossoms"),
                     "items": .references([id("Item", "1"), id("Item", "2")])])
            ]))
        let trip = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "1") })
        #expect(trip["name"] == .string("Tokyo in spring"))
        #expect(trip["note"] == .string("cherry blossoms"))
    }

    @Test func updatingOrDeletingAnUnknownIdentifierFailsAndChangesNothing() throws {
        var (document, _) = try documentWithTokyoTrip()
        let before = document
        #expect(throws: SaveChangesError.unknownIdentifier(id("Trip", "99"), operation: "update")) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(
                    inserted: [snapshot(temp("Trip", "x"), ["name": .string("Rome"), "days": .int(1)])],
                    updated: [snapshot(id("Trip", "99"), ["name": .string("?"), "days": .int(1)])]))
        }
        #expect(throws: SaveChangesError.unknownIdentifier(id("Item", "99"), operation: "delete")) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [snapshot(id("Item", "99"), [:])]))
        }
        #expect(document == before)
    }

    @Test func insertingADuplicateOnAUniquenessConstraintUpdatesTheExistingModel() throws {
        var (document, _) = try documentWithTokyoTrip()
        let duplicate = temp("Trip", "dup")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(duplicate, ["name": .string("Tokyo"), "days": .int(9), "items": .references([id("Item", "1"), id("Item", "2")])])
            ]))
        #expect(result.remappedIdentifiers[duplicate] == id("Trip", "1"))
        #expect(result.snapshotsToReregister[id("Trip", "1")]?["days"] == .int(9))
        #expect(document.countsByEntity["Trip"] == 1)
    }

    /// An upsert's nil attribute is a value the inserted object holds, and wins like any other;
    /// only a relationship it holds nothing in keeps the existing model's.
    @Test func anUpsertClearsAnAttributeItHoldsNilFor() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(updated: [
                snapshot(id("Trip", "1"), ["name": .string("Tokyo"), "days": .int(7), "note": .string("window seat"),
                    "items": .references([id("Item", "1"), id("Item", "2")])])
            ]))
        let duplicate = temp("Trip", "dup")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(duplicate, ["name": .string("Tokyo"), "days": .int(7), "note": .null, "items": .references([])])
            ]))
        let upserted = try #require(result.snapshotsToReregister[id("Trip", "1")])
        #expect(upserted["note"] == .null, "the nil the insert holds replaces the note")
        #expect(upserted["items"] == .references([id("Item", "1"), id("Item", "2")]), "the empty list keeps the items")
    }

    @Test func updateThatCollidesOnAUniquenessConstraintIsRefused() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [snapshot(temp("Trip", "x"), ["name": .string("Rome"), "days": .int(1)])]))
        #expect(throws: SaveChangesError.self) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(updated: [snapshot(id("Trip", "2"), ["name": .string("Tokyo"), "days": .int(1)])]))
        }
    }

    @Test func cascadeDeletesTheDestinations() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [snapshot(id("Trip", "1"), [:])]))
        #expect(document.snapshots.isEmpty)
    }

    @Test func nullifyRemovesTheInverseReference() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [snapshot(id("Item", "1"), [:])]))
        let trip = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "1") })
        #expect(trip["items"] == .references([id("Item", "2")]))
        #expect(IntegrityChecker().problems(in: document).isEmpty)
    }

    @Test func denyStopsTheDeletionWhileADestinationRemains() throws {
        var (document, _) = try documentWithTokyoTrip()
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                inserted: [snapshot(temp("Stay", "s"), ["place": .string("Ryokan"), "trip": .reference(id("Trip", "1"))])],
                updated: [
                    snapshot(
                        id("Trip", "1"),
                        ["name": .string("Tokyo"), "days": .int(5), "items": .references([id("Item", "1"), id("Item", "2")]),
                         "stay": .reference(temp("Stay", "s"))])
                ]))
        #expect(throws: SaveChangesError.deleteDenied(id("Trip", "1"), relationship: "stay", related: id("Stay", "1"))) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [snapshot(id("Trip", "1"), [:])]))
        }
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(deleted: [snapshot(id("Trip", "1"), [:]), snapshot(id("Stay", "1"), [:])]))
        #expect(document.snapshots.isEmpty)
    }

    @Test func valuesMustFitTheSchema() {
        var document = emptyDocument()
        let trip = temp("Trip", "t")
        #expect(throws: SaveChangesError.valueDoesNotFit(trip, property: "days", expected: "Int16", found: "a signed integer")) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [snapshot(trip, ["name": .string("x"), "days": .int(70_000)])]))
        }
        #expect(throws: SaveChangesError.missingValue(trip, property: "days")) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [snapshot(trip, ["name": .string("x")])]))
        }
        #expect(throws: SaveChangesError.unknownProperty(trip, property: "colour")) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [
                    snapshot(trip, ["name": .string("x"), "days": .int(1), "colour": .string("red")])
                ]))
        }
        #expect(throws: SaveChangesError.unknownEntity(temp("Boat", "b"))) {
            try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: [snapshot(temp("Boat", "b"), [:])]))
        }
        #expect(document.snapshots.isEmpty)
    }

    @Test func referencesMustPointAtModelsTheStoreHolds() {
        var document = emptyDocument()
        let item = temp("Item", "i")
        #expect(throws: SaveChangesError.danglingReference(item, property: "trip", target: id("Trip", "7"))) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [snapshot(item, ["title": .string("x"), "trip": .reference(id("Trip", "7"))])]))
        }
    }
}

extension SaveChangesTests {
    @Test func aStaleSequenceNeverHandsOutAKeyInUse() throws {
        var (document, _) = try documentWithTokyoTrip()
        document.header.nextPrimaryKeys["Trip"] = 1  // as if edited by hand
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [snapshot(temp("Trip", "n"), ["name": .string("Oslo"), "days": .int(2)])]))
        #expect(result.remappedIdentifiers[temp("Trip", "n")] == id("Trip", "2"))
        #expect(document.countsByEntity["Trip"] == 2)
        #expect(document.header.nextPrimaryKeys["Trip"] == 3)
    }
}

extension SaveChangesTests {
    @Test func deletingAndInsertingTheSameUniqueKeyInOneSaveReplacesTheModel() throws {
        var (document, _) = try documentWithTokyoTrip()
        let replacement = temp("Trip", "new")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(
                inserted: [snapshot(replacement, ["name": .string("Tokyo"), "days": .int(3)])],
                deleted: [snapshot(id("Trip", "1"), [:])]))
        #expect(result.remappedIdentifiers[replacement] == id("Trip", "2"))
        #expect(document.snapshots.map(\.persistentIdentifier) == [id("Trip", "2")])
        #expect(IntegrityChecker().problems(in: document).isEmpty)
    }

    @Test func anUpsertMayNotBreakAnotherUniquenessConstraint() throws {
        let schema = Schema([
            Schema.Entity(
                name: "User", attributes: [.init("email", .string), .init("handle", .string)],
                uniquenessConstraints: [["email"], ["handle"]])
        ])
        var document = Document.empty(schema: schema, storeIdentifier: Self.store)
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(temp("User", "x"), ["email": .string("a"), "handle": .string("h1")]),
                snapshot(temp("User", "y"), ["email": .string("b"), "handle": .string("h2")]),
            ]))
        #expect(throws: SaveChangesError.self) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [snapshot(temp("User", "z"), ["email": .string("a"), "handle": .string("h2")])]))
        }
        #expect(IntegrityChecker().problems(in: document).isEmpty)
    }

    @Test func keysNearTheLargestIntegerAreRefusedNotWrapped() throws {
        var document = emptyDocument()
        document.header.nextPrimaryKeys["Trip"] = Int64.max - 2
        #expect(throws: SaveChangesError.primaryKeysExhausted(entity: "Trip")) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [snapshot(temp("Trip", "t"), ["name": .string("x"), "days": .int(1)])]))
        }
    }
}

extension SaveChangesTests {
    @Test func anInsertReferringToOtherInsertsAndToAMissingModelIsRefused() throws {
        var document = emptyDocument()
        let trip = temp("Trip", "t")
        let item = temp("Item", "i")
        let neverInserted = temp("Item", "lost")
        #expect(throws: SaveChangesError.danglingReference(trip, property: "items", target: neverInserted)) {
            try document.applySaveChanges(
                DataStoreSaveChangesRequest(inserted: [
                    snapshot(trip, ["name": .string("Tokyo"), "days": .int(5), "items": .references([item, neverInserted])]),
                    snapshot(item, ["title": .string("Sushi"), "trip": .reference(trip)]),
                ]))
        }
        #expect(document.snapshots.isEmpty)
    }

    @Test func insertsReferringToSavedModelsAndToEachOtherAreSaved() throws {
        var (document, _) = try documentWithTokyoTrip()
        let stay = temp("Stay", "s")
        let item = temp("Item", "i")
        let oslo = temp("Trip", "o")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(stay, ["place": .string("Ryokan"), "trip": .reference(id("Trip", "1"))]),
                snapshot(item, ["title": .string("Fjord"), "trip": .reference(oslo)]),
                snapshot(oslo, ["name": .string("Oslo"), "days": .int(2), "items": .references([item])]),
            ]))
        let tokyo = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "1") })
        #expect(tokyo["stay"] == .reference(result.remappedIdentifiers[stay]!))
        let savedOslo = try #require(result.remappedIdentifiers[oslo])
        let savedItem = try #require(result.remappedIdentifiers[item])
        #expect(document.snapshots.first { $0.persistentIdentifier == savedItem }?["trip"] == .reference(savedOslo))
        #expect(IntegrityChecker().problems(in: document).isEmpty)
    }

    @Test func twoInsertsWithOneUniqueKeyInOneSaveAreOneModel() throws {
        var (document, _) = try documentWithTokyoTrip()
        let first = temp("Trip", "a")
        let second = temp("Trip", "b")
        let result = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                snapshot(first, ["name": .string("Oslo"), "days": .int(2)]),
                snapshot(second, ["name": .string("Oslo"), "days": .int(4), "note": .string("again")]),
            ]))
        let oslo = try #require(result.remappedIdentifiers[first])
        #expect(result.remappedIdentifiers[second] == oslo, "the second insert is an upsert of the first")
        let saved = try #require(document.snapshots.first { $0.persistentIdentifier == oslo })
        #expect(saved["days"] == .int(4))
        #expect(saved["note"] == .string("again"))
        #expect(document.countsByEntity["Trip"] == 2)
    }
}
