import Foundation
import Testing

@testable import TripDocCore

/// A snapshot keeps its values in an array laid out by property name; these pin down that it
/// still behaves exactly as the dictionary of values its public API presents.
@Suite struct DefaultSnapshotTests {
    let trip = PersistentIdentifier(storeIdentifier: "S", entityName: "Trip", primaryKey: "1")

    @Test func valuesReadBackAsGivenWhateverTheOrderTheyWereSetIn() {
        let values: [String: SnapshotValue] = ["name": .string("Kyoto"), "destination": .null, "ëté": .int(3)]
        var built = DefaultSnapshot(persistentIdentifier: trip, values: [:])
        for (name, value) in values.sorted(by: { $0.key > $1.key }) { built[name] = value }
        let given = DefaultSnapshot(persistentIdentifier: trip, values: values)
        #expect(built.values == values)
        #expect(given.values == values)
        #expect(built == given)
        #expect(built.hashValue == given.hashValue)
        #expect(built.count == 3)
        #expect(built["destination"] == .null)
        #expect(built["missing"] == nil)
    }

    @Test func anAbsentValueDiffersFromANullOne() {
        let absent = DefaultSnapshot(persistentIdentifier: trip, values: ["name": .string("a")])
        let null = DefaultSnapshot(persistentIdentifier: trip, values: ["name": .string("a"), "destination": .null])
        #expect(absent != null)
        var removed = null
        removed["destination"] = nil
        #expect(removed == absent)
        #expect(removed.values == ["name": .string("a")])
    }

    @Test func settingTheValuesDictionaryReplacesEveryValue() {
        var snapshot = DefaultSnapshot(persistentIdentifier: trip, values: ["name": .string("a"), "x": .int(1)])
        snapshot.values = ["y": .bool(true)]
        #expect(snapshot.values == ["y": .bool(true)])
        snapshot.values["z"] = .int(2)
        #expect(snapshot.values == ["y": .bool(true), "z": .int(2)])
    }

    @Test func valuesAreVisitedInTheOrderADocumentListsThem() {
        let snapshot = DefaultSnapshot(
            persistentIdentifier: trip, values: ["b": .int(2), "a": .int(1), "Z": .int(0), "é": .int(3)])
        var names: [String] = []
        snapshot.forEachValue { name, _ in names.append(name) }
        #expect(names == ["Z", "a", "b", "é"])
    }

    @Test func snapshotsOfTheSameNamesShareOneLayout() {
        let a = DefaultSnapshot(persistentIdentifier: trip, values: ["name": .string("a"), "destination": .null])
        var b = DefaultSnapshot(persistentIdentifier: trip, values: [:])
        b["destination"] = .string("x")
        b["name"] = .string("b")
        #expect(a.layout === b.layout)
    }

    @Test func snapshotsBuiltFromDictionariesOfTheSameKeysShareOneLayoutAndKeepEachValueInPlace() {
        let first = DefaultSnapshot(persistentIdentifier: trip, values: ["b": .int(2), "a": .int(1), "c": .int(3)])
        // The same keys, in a dictionary of another capacity (another iteration order), then
        // as many keys but one of them different: recognised as the same layout only when
        // every key is in it.
        var roomy = [String: SnapshotValue](minimumCapacity: 64)
        roomy["c"] = .int(30)
        roomy["a"] = .int(10)
        roomy["b"] = .int(20)
        let second = DefaultSnapshot(persistentIdentifier: trip, values: roomy)
        let other = DefaultSnapshot(persistentIdentifier: trip, values: ["a": .int(1), "b": .int(2), "d": .int(4)])
        let fewer = DefaultSnapshot(persistentIdentifier: trip, values: ["a": .int(1), "b": .int(2)])
        #expect(second.layout === first.layout)
        #expect(second.values == roomy)
        #expect(other.layout !== first.layout)
        #expect(other.layout.names == ["a", "b", "d"])
        #expect(other.values == ["a": .int(1), "b": .int(2), "d": .int(4)])
        #expect(fewer.layout.names == ["a", "b"])
        #expect(fewer["c"] == nil)
        // Many other layouts in between do not change what a dictionary's snapshot holds.
        for count in 0..<20 {
            let names = (0...count).map { "p\($0)" }
            let values = Dictionary(uniqueKeysWithValues: names.map { ($0, SnapshotValue.string($0)) })
            #expect(DefaultSnapshot(persistentIdentifier: trip, values: values).values == values)
        }
        let again = DefaultSnapshot(persistentIdentifier: trip, values: ["c": .int(3), "a": .int(1), "b": .int(2)])
        #expect(again.layout === first.layout)
        #expect(again == first)
    }

    @Test func mappingValuesKeepsEveryPropertyIncludingNullOnes() {
        let snapshot = DefaultSnapshot(persistentIdentifier: trip, values: ["n": .int(1), "x": .null, "s": .string("a")])
        let mapped = snapshot.mapValues { value in
            if case .int(let number) = value { return .int(number + 1) }
            return value
        }
        #expect(mapped.values == ["n": .int(2), "x": .null, "s": .string("a")])
        #expect(mapped.persistentIdentifier == trip)
    }

    @Test func remappingRewritesReferencesAndKeepsTheRest() {
        let old = PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: "t1")
        let new = PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: "7")
        var snapshot = DefaultSnapshot(
            persistentIdentifier: trip, values: ["items": .references([old]), "first": .reference(old), "n": .int(1)])
        let copy = snapshot.copy(persistentIdentifier: trip, remappedIdentifiers: [old: new])
        let everyOneRewritten = snapshot.remapReferences([old: new])
        #expect(everyOneRewritten)
        #expect(snapshot == copy)
        #expect(snapshot.values == ["items": .references([new]), "first": .reference(new), "n": .int(1)])
    }

    @Test func remappingAListRewritesOnlyTheMappedReferencesInTheirPlaces() {
        let item = { (key: String) in PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: key) }
        var snapshot = DefaultSnapshot(
            persistentIdentifier: trip, values: ["items": .references([item("1"), item("t1"), item("2"), item("t2")])])
        let everyOneRewritten = snapshot.remapReferences([item("t1"): item("8"), item("t2"): item("9")])
        #expect(!everyOneRewritten)
        #expect(snapshot["items"] == .references([item("1"), item("8"), item("2"), item("9")]))

        var untouched = DefaultSnapshot(persistentIdentifier: trip, values: ["items": .references([item("1")])])
        let untouchedRewritten = untouched.remapReferences([item("t1"): item("8")])
        #expect(!untouchedRewritten)
        #expect(untouched["items"] == .references([item("1")]))
    }

    @Test func remappingRewritesAListNothingElseHoldsInPlace() throws {
        let item = { (key: String) in PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: key) }
        var snapshot = DefaultSnapshot(
            persistentIdentifier: trip, values: ["items": .references((1...5).map { item("t\($0)") })])
        func listStorage(_ snapshot: DefaultSnapshot) throws -> UnsafeRawPointer? {
            guard case .references(let list) = try #require(snapshot["items"]) else { return nil }
            return list.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let before = try listStorage(snapshot)
        snapshot.remapReferences(Dictionary(uniqueKeysWithValues: (1...5).map { (item("t\($0)"), item("\($0)")) }))
        #expect(snapshot["items"] == .references((1...5).map { item("\($0)") }))
        #expect(try listStorage(snapshot) == before)
    }

    @Test func remappingLeavesASharedSnapshotThatHoldsNothingToRewriteUncopied() {
        let item = PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: "1")
        let shared = DefaultSnapshot(persistentIdentifier: trip, values: ["items": .references([item]), "n": .int(1)])
        var snapshot = shared
        snapshot.remapReferences([PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: "t9"): item])
        let storage = { (snapshot: DefaultSnapshot) in snapshot.slots.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(storage(snapshot) == storage(shared))
    }
}
