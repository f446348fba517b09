import Foundation
import Testing
import TripDocCore

/// An identifier's parts, equality, order and coding: what a store, a history token and a user's
/// own code rely on, whatever the identifier keeps inside.
@Suite struct PersistentIdentifierTests {
    @Test func itsCodingIsItsFourParts() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let permanent = PersistentIdentifier(storeIdentifier: "S-1", entityName: "Trip", primaryKey: "12")
        #expect(
            String(decoding: try encoder.encode(permanent), as: UTF8.self)
                == #"{"entityName":"Trip","isTemporary":false,"primaryKey":"12","storeIdentifier":"S-1"}"#)
        let temporary = PersistentIdentifier.temporary(entityName: "Trip", primaryKey: "t1")
        #expect(
            String(decoding: try encoder.encode(temporary), as: UTF8.self)
                == #"{"entityName":"Trip","isTemporary":true,"primaryKey":"t1"}"#)
        for identifier in [permanent, temporary] {
            #expect(try JSONDecoder().decode(PersistentIdentifier.self, from: encoder.encode(identifier)) == identifier)
        }
    }

    @Test func identifiersOfTheSamePartsAreEqualAndHashAlike() {
        let a = PersistentIdentifier(storeIdentifier: "S-\(UUID())", entityName: "Entity\(UUID())", primaryKey: "7")
        let b = PersistentIdentifier(storeIdentifier: a.storeIdentifier, entityName: a.entityName, primaryKey: "7")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != PersistentIdentifier(storeIdentifier: "other", entityName: a.entityName, primaryKey: "7"))
        #expect(a != PersistentIdentifier(storeIdentifier: a.storeIdentifier, entityName: "Other", primaryKey: "7"))
        #expect(a != PersistentIdentifier(storeIdentifier: a.storeIdentifier, entityName: a.entityName, primaryKey: "8"))
        #expect(a != PersistentIdentifier(storeIdentifier: nil, entityName: a.entityName, primaryKey: "7", isTemporary: true))
    }

    /// Names compare as Swift strings do, as documents' referring names are matched: the composed
    /// and decomposed spellings of one name are one name.
    @Test func canonicallyEquivalentNamesAreOneName() {
        let composed = PersistentIdentifier(storeIdentifier: "S", entityName: "Caf\u{E9}-\(UUID())", primaryKey: "1")
        let decomposed = PersistentIdentifier(
            storeIdentifier: "S", entityName: composed.entityName.decomposedStringWithCanonicalMapping, primaryKey: "1")
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        #expect(decomposed.entityName == composed.entityName)
    }

    @Test func orderIsByEntityThenKeyThenStore() {
        func id(_ store: String, _ entity: String, _ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
        }
        let sorted = [id("B", "Trip", "10"), id("A", "Trip", "9"), id("A", "Item", "2"), id("A", "Trip", "10")].sorted()
        #expect(sorted == [id("A", "Item", "2"), id("A", "Trip", "9"), id("A", "Trip", "10"), id("B", "Trip", "10")])
    }

    /// Identifiers made with new names on many threads at once each keep their own names.
    @Test func namesMadeOnManyThreadsAtOnceStayApart() {
        let names = (0..<2_000).map { "Store-\($0)-\(UUID().uuidString)" }
        let identifiers = UnsafeMutableBufferPointer<PersistentIdentifier?>.allocate(capacity: names.count)
        identifiers.initialize(repeating: nil)
        defer { identifiers.deallocate() }
        let shared = UncheckedBox(identifiers)
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            shared.value[index] = PersistentIdentifier(storeIdentifier: names[index], entityName: "E\(index % 7)", primaryKey: "1")
        }
        for (index, name) in names.enumerated() {
            #expect(identifiers[index]?.storeIdentifier == name)
            #expect(identifiers[index]?.entityName == "E\(index % 7)")
        }
    }

    /// Temporary identifiers made without a key get keys no other one in the process has, even
    /// when made on many threads at once, and short enough to need no allocation (a bulk insert
    /// makes one per model).
    @Test func temporaryKeysAreUniqueInTheProcessAndShort() {
        let count = 20_000
        let identifiers = UnsafeMutableBufferPointer<PersistentIdentifier?>.allocate(capacity: count)
        identifiers.initialize(repeating: nil)
        defer { identifiers.deallocate() }
        let shared = UncheckedBox(identifiers)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            shared.value[index] = .temporary(entityName: index.isMultiple(of: 2) ? "Trip" : "BucketListItem")
        }
        let keys = identifiers.compactMap { $0?.primaryKey }
        #expect(Set(keys).count == count)
        #expect(keys.allSatisfy { !$0.isEmpty && $0.utf8.count <= 15 })
        #expect(identifiers.allSatisfy { $0?.isTemporary == true && $0?.storeIdentifier == nil })
    }

    private struct UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension PersistentIdentifierTests {
    /// A bulk insert holds several identifiers per model (tables keyed by them, references,
    /// history): each takes its primary key's 16 bytes and 16 for the rest.
    @Test func anIdentifierTakesThirtyTwoBytes() {
        #expect(MemoryLayout<PersistentIdentifier>.stride == 32)
        #expect(MemoryLayout<PersistentIdentifier?>.stride == 32)
    }
}
