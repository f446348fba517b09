import Foundation
import Testing
import TripDocCore

/// Inverses the check must get right besides a plain pair: a relationship that is its own
/// inverse, and an inverse the destination does not have.
@Suite struct IntegrityCheckerInverseTests {
    static let store = "STORE"

    static func person(_ key: String, friends: [String], spouse: String? = nil) -> DefaultSnapshot {
        func identifier(_ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: store, entityName: "Person", primaryKey: key)
        }
        return DefaultSnapshot(
            persistentIdentifier: identifier(key),
            values: [
                "name": .string("person \(key)"), "friends": .references(friends.map(identifier)),
                "spouse": spouse.map { .reference(identifier($0)) } ?? .null,
            ])
    }

    static func document(_ snapshots: [DefaultSnapshot], spouseInverse: String = "spouse") -> Document {
        let schema = Schema([
            Schema.Entity(
                name: "Person", attributes: [.init("name", .string)],
                relationships: [
                    .init("friends", destination: "Person", isToMany: true, inverse: "friends"),
                    .init("spouse", destination: "Person", inverse: spouseInverse),
                ])
        ])
        var document = Document.empty(schema: schema, storeIdentifier: store)
        document.snapshots = snapshots
        return document
    }

    @Test func aRelationshipThatIsItsOwnInverseMustPointBothWays() {
        let agreeing = Self.document([
            Self.person("1", friends: ["2", "3"], spouse: "2"), Self.person("2", friends: ["1"], spouse: "1"),
            Self.person("3", friends: ["1"]),
        ])
        #expect(IntegrityChecker().problems(in: agreeing) == [])
        let oneWay = Self.document([
            Self.person("1", friends: ["2", "3"], spouse: "2"), Self.person("2", friends: ["1"], spouse: "1"),
            Self.person("3", friends: []),
        ])
        #expect(
            IntegrityChecker().problems(in: oneWay).map(\.description) == [
                "Person/1.friends: points at Person/3, whose friends does not point back"
            ])
    }

    @Test func anInverseTheDestinationLacksNeverAgrees() {
        let document = Self.document(
            [Self.person("1", friends: [], spouse: "2"), Self.person("2", friends: [], spouse: "1")],
            spouseInverse: "partner")
        #expect(
            IntegrityChecker().problems(in: document).map(\.description) == [
                "Person/1.spouse: points at Person/2, whose partner does not point back",
                "Person/2.spouse: points at Person/1, whose partner does not point back",
            ])
    }

    /// Inverses that name each other are checked in both directions at once; one whose inverse
    /// names a third relationship back is checked on its own. Here `b` and `c` name each other,
    /// and `a` names `c`, which names `b`.
    @Test func inversesThatDoNotNameEachOtherBackAreCheckedEachOnItsOwn() {
        func identifier(_ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: Self.store, entityName: "Person", primaryKey: key)
        }
        func person(_ key: String, _ references: [String: String]) -> DefaultSnapshot {
            DefaultSnapshot(
                persistentIdentifier: identifier(key),
                values: ["a": .null, "b": .null, "c": .null].merging(references.mapValues { .reference(identifier($0)) }) { $1 })
        }
        let schema = Schema([
            Schema.Entity(
                name: "Person",
                relationships: [
                    .init("a", destination: "Person", inverse: "c"), .init("b", destination: "Person", inverse: "c"),
                    .init("c", destination: "Person", inverse: "b"),
                ])
        ])
        var document = Document.empty(schema: schema, storeIdentifier: Self.store)
        document.snapshots = [person("1", ["a": "2", "b": "2"]), person("2", ["c": "1"])]
        #expect(IntegrityChecker().problems(in: document) == [])
        document.snapshots += [person("3", ["a": "1", "c": "2"]), person("4", ["b": "1"])]
        #expect(
            IntegrityChecker().problems(in: document).map(\.description) == [
                "Person/3.a: points at Person/1, whose c does not point back",
                "Person/3.c: points at Person/2, whose b does not point back",
                "Person/4.b: points at Person/1, whose c does not point back",
            ])
    }

    /// Names are in NFC and compared by their bytes (FORMATS 1.2): a destination spelled
    /// decomposed is a schema problem, not a second spelling of the entity; an identifier made
    /// with the decomposed spelling names the entity in NFC, so its references resolve.
    @Test func aDestinationSpelledDecomposedIsRefusedAndAnIdentifierSoSpelledIsComposed() throws {
        let schema = Schema([
            Schema.Entity(name: "Caf\u{E9}", relationships: [.init("visits", destination: "Visit", isToMany: true, inverse: "cafe")]),
            Schema.Entity(name: "Visit", relationships: [.init("cafe", destination: "Cafe\u{301}", inverse: "visits")]),
        ])
        #expect(throws: SchemaError.self) { try schema.validate() }
        let composed = Schema([
            Schema.Entity(name: "Caf\u{E9}", relationships: [.init("visits", destination: "Visit", isToMany: true, inverse: "cafe")]),
            Schema.Entity(name: "Visit", relationships: [.init("cafe", destination: "Caf\u{E9}", inverse: "visits")]),
        ])
        try composed.validate()
        func identifier(_ entity: String, _ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: Self.store, entityName: entity, primaryKey: key)
        }
        #expect(identifier("Cafe\u{301}", "1").entityName.utf8.elementsEqual("Caf\u{E9}".utf8))
        var document = Document.empty(schema: composed, storeIdentifier: Self.store)
        document.snapshots = [
            DefaultSnapshot(persistentIdentifier: identifier("Caf\u{E9}", "1"), values: ["visits": .references([identifier("Visit", "1")])]),
            DefaultSnapshot(persistentIdentifier: identifier("Visit", "1"), values: ["cafe": .reference(identifier("Cafe\u{301}", "1"))]),
        ]
        #expect(IntegrityChecker().problems(in: document) == [])
    }
}
