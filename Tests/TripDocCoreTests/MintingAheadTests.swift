import Foundation
import Testing
import TripDocCore

/// A save whose inserts are given their permanent identifiers before their snapshots are made
/// (`IndexedDocument.applySaveChanges(makingRequestWith:)`, what a context does): the inserts
/// keep them, references among them are kept as they were made, an insert matching a saved
/// model on a uniqueness constraint still merges into it, and a refused save changes nothing.
@Suite struct MintingAheadTests {
    static let store = "STORE"
    let base = SaveChangesTests()

    func id(_ entity: String, _ key: String) -> PersistentIdentifier { base.id(entity, key) }

    func emptyDocument() -> IndexedDocument { IndexedDocument(base.emptyDocument()) }

    /// A request inserting a trip named `name` with `itemCount` items, made with identifiers
    /// minted by `mint`.
    func tripRequest(
        _ name: String, itemCount: Int, mint: (String) throws -> PersistentIdentifier
    ) throws -> DataStoreSaveChangesRequest<DefaultSnapshot> {
        let trip = try mint("Trip")
        let items = try (0..<itemCount).map { _ in try mint("Item") }
        return DataStoreSaveChangesRequest(
            inserted: [base.snapshot(trip, ["name": .string(name), "days": .int(3), "items": .references(items)])]
                + items.enumerated().map { index, item in
                    base.snapshot(item, ["title": .string("\(name) \(index)"), "trip": .reference(trip)])
                })
    }

    @Test func insertsKeepTheIdentifiersMintedForThemAndNothingIsRemapped() throws {
        var document = emptyDocument()
        var minted: [PersistentIdentifier] = []
        let applied = try document.applySaveChanges { mint in
            try tripRequest("Tokyo", itemCount: 2) { entity in
                let identifier = try mint(entity)
                minted.append(identifier)
                return identifier
            }
        }
        #expect(minted == [id("Trip", "1"), id("Item", "1"), id("Item", "2")])
        #expect(applied.result.remappedIdentifiers.isEmpty)
        let trip = try #require(document.snapshot(for: id("Trip", "1")))
        #expect(trip["items"] == .references([id("Item", "1"), id("Item", "2")]))
        #expect(document.snapshot(for: id("Item", "2"))?["trip"] == .reference(id("Trip", "1")))
        #expect(applied.transaction?.changes.map(\.changedPersistentIdentifier) == minted)
        #expect(IntegrityChecker().problems(in: document.document).isEmpty)

        // The sequence moved past them: a later save, either way, mints the next keys.
        let later = try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                base.snapshot(base.temp("Item", "t"), ["title": .string("Later"), "trip": .reference(id("Trip", "1"))])
            ]))
        #expect(later.result.remappedIdentifiers[base.temp("Item", "t")] == id("Item", "3"))
    }

    @Test func anInsertMatchingASavedModelStillMergesIntoIt() throws {
        var document = emptyDocument()
        try document.applySaveChanges { mint in try tripRequest("Tokyo", itemCount: 1, mint: mint) }
        let applied = try document.applySaveChanges { mint in try tripRequest("Tokyo", itemCount: 1, mint: mint) }
        // The second trip's minted identifier maps to the saved trip, and its item refers to it.
        #expect(applied.result.remappedIdentifiers == [id("Trip", "2"): id("Trip", "1")])
        #expect(document.snapshot(for: id("Trip", "2")) == nil)
        #expect(document.snapshot(for: id("Item", "2"))?["trip"] == .reference(id("Trip", "1")))
        #expect(document.snapshot(for: id("Trip", "1"))?["items"] == .references([id("Item", "2")]))
    }

    @Test func anIdentifierMintedOnceIsTakenByOneInsertOnly() throws {
        var document = emptyDocument()
        #expect(throws: SaveChangesError.duplicateIdentifier(id("Item", "1"))) {
            try document.applySaveChanges { mint in
                let item = try mint("Item")
                return DataStoreSaveChangesRequest(inserted: [
                    base.snapshot(item, ["title": .string("One")]), base.snapshot(item, ["title": .string("Two")]),
                ])
            }
        }
        #expect(document.count == 0)
    }

    @Test func aReferenceToAnIdentifierMintedForNoInsertIsRefused() throws {
        var document = emptyDocument()
        #expect(throws: SaveChangesError.danglingReference(id("Trip", "1"), property: "items", target: id("Item", "1"))) {
            try document.applySaveChanges { mint in
                let trip = try mint("Trip")
                let unsent = try mint("Item")
                return DataStoreSaveChangesRequest(inserted: [
                    base.snapshot(trip, ["name": .string("Oslo"), "days": .int(1), "items": .references([unsent])])
                ])
            }
        }
        #expect(document.count == 0)
    }

    @Test func aRefusedSaveLeavesTheDocumentAsItWasSequencesIncluded() throws {
        var document = emptyDocument()
        try document.applySaveChanges { mint in try tripRequest("Tokyo", itemCount: 1, mint: mint) }
        let before = document.document
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try document.applySaveChanges { mint in
                _ = try tripRequest("Oslo", itemCount: 4, mint: mint)
                throw Refused()
            }
        }
        #expect(throws: SaveChangesError.self) {
            // A value that does not fit refuses the save after its identifiers were minted.
            try document.applySaveChanges { mint in
                DataStoreSaveChangesRequest(inserted: [base.snapshot(try mint("Trip"), ["name": .int(1)])])
            }
        }
        #expect(document.document == before)
        let again = try document.applySaveChanges { mint in try tripRequest("Oslo", itemCount: 1, mint: mint) }
        #expect(again.transaction?.changes.map(\.changedPersistentIdentifier) == [id("Trip", "2"), id("Item", "2")])
    }
}
