import Testing
import TripDocTestSupport

@testable import TripDocCore

/// A table keyed by identifier keeps most identifiers in runs by number, and answers exactly as
/// a dictionary of the same identifiers does, whatever mix of keys it is given.
@Suite struct IdentifierTableTests {
    static let stores: [String?] = ["S", "T", nil]
    static let entities = ["Trip", "Item", "Stay"]

    /// An identifier drawn from a mix that reaches every place the table keeps values: runs of
    /// numbered keys near each other, keys far from them, keys below a run's first, keys that
    /// are not canonical numbers, temporary identifiers.
    static func identifier(_ random: inout SplitMix) -> PersistentIdentifier {
        let entity = entities[Int(random.next() % UInt64(entities.count))]
        let store = stores[Int(random.next() % UInt64(stores.count))]
        let key: String
        switch random.next() % 10 {
        case 0: key = String(random.next() % 1_000_000)
        case 1: key = "0\(random.next() % 100)"
        case 2: key = "k\(random.next() % 100)"
        default: key = String(50 + random.next() % 300)
        }
        return PersistentIdentifier(
            storeIdentifier: store, entityName: entity, primaryKey: key, isTemporary: random.next() % 13 == 0)
    }

    @Test(arguments: [1, 2, 3, 4])
    func answersAsADictionaryDoesThroughAnyMixOfChanges(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var table = IdentifierTable<Int>()
        var expected: [PersistentIdentifier: Int] = [:]
        for step in 0..<20_000 {
            let identifier = Self.identifier(&random)
            if random.next() % 4 == 0 {
                #expect(table.removeValue(forKey: identifier) == expected.removeValue(forKey: identifier))
            } else {
                #expect(table.updateValue(step, forKey: identifier) == expected.updateValue(step, forKey: identifier))
            }
            if step % 997 == 0 {
                table.prepareRuns(for: (0..<50).map { _ in Self.identifier(&random) })
            }
            let probe = Self.identifier(&random)
            #expect(table[probe] == expected[probe])
        }
        #expect(table.count == expected.count)
        var listed: [PersistentIdentifier: Int] = [:]
        table.forEach { identifier, value in
            #expect(listed.updateValue(value, forKey: identifier) == nil, "each identifier is listed once")
        }
        #expect(listed == expected)
    }

    @Test func numberedKeysSetInAnyOrderAfterPreparingGoToRuns() {
        var random = SplitMix(seed: 7)
        let trips = (1...5_000).map { PersistentIdentifier(storeIdentifier: "S", entityName: "Trip", primaryKey: String($0)) }
        let items = (20_001...30_000).map { PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: String($0)) }
        var table = IdentifierTable<Int>()
        let all = (trips + items).shuffled(using: &random)
        table.prepareRuns(for: all)
        for (value, identifier) in all.enumerated() { table.updateValue(value, forKey: identifier) }
        #expect(table.countOutsideRuns == 0)
        #expect(table.count == all.count)
        // Widened below and above a run already holding keys.
        let more = (Array(19_001...20_000) + Array(30_001...31_000)).map {
            PersistentIdentifier(storeIdentifier: "S", entityName: "Item", primaryKey: String($0))
        }.shuffled(using: &random)
        table.prepareRuns(for: more)
        for identifier in more { table.updateValue(-1, forKey: identifier) }
        #expect(table.countOutsideRuns == 0)
        for (value, identifier) in all.enumerated() { #expect(table[identifier] == value) }
        for identifier in more { #expect(table[identifier] == -1) }
        // Keys too far apart to keep a run half full are kept, just not in a run.
        let sparse = [PersistentIdentifier(storeIdentifier: "S", entityName: "Stay", primaryKey: "1"),
                      PersistentIdentifier(storeIdentifier: "S", entityName: "Stay", primaryKey: "1000000")]
        table.prepareRuns(for: sparse)
        for identifier in sparse { table.updateValue(9, forKey: identifier) }
        #expect(table.countOutsideRuns == 1)
        for identifier in sparse { #expect(table[identifier] == 9) }
    }

    @Test func keepsRunsOfManyEntitiesApart() {
        // More (entity, store) pairs than the table looks through one by one.
        var table = IdentifierTable<String>()
        let identifiers = (0..<20).flatMap { entity in
            (1...5).map { PersistentIdentifier(storeIdentifier: "S", entityName: "E\(entity)", primaryKey: String($0)) }
        }
        for identifier in identifiers { table.updateValue(identifier.description, forKey: identifier) }
        #expect(table.count == identifiers.count)
        for identifier in identifiers { #expect(table[identifier] == identifier.description) }
        #expect(table[PersistentIdentifier(storeIdentifier: "S", entityName: "E3", primaryKey: "6")] == nil)
        #expect(table[PersistentIdentifier(storeIdentifier: "T", entityName: "E3", primaryKey: "1")] == nil)
    }

    @Test func aTemporaryIdentifierIsNotThePermanentOneOfTheSameKey() {
        var table = IdentifierTable<Int>()
        let permanent = PersistentIdentifier(storeIdentifier: nil, entityName: "Trip", primaryKey: "1")
        let temporary = PersistentIdentifier(storeIdentifier: nil, entityName: "Trip", primaryKey: "1", isTemporary: true)
        table.updateValue(1, forKey: permanent)
        #expect(table[temporary] == nil)
        table.updateValue(2, forKey: temporary)
        #expect(table[permanent] == 1)
        #expect(table[temporary] == 2)
        #expect(table.count == 2)
    }
}
