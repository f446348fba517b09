import Foundation
import Testing
import TripDocCore
import TripDocJSON

/// Reading a history costs in proportion to it: an entity's attribute and property names are
/// made into sets once for the whole history, not once per change, and values are typed through
/// the entity's table of attributes (40,000 updates of an entity of 4,000 attributes took 16 s
/// in a release build, now 0.2 s). 80,000 take the old reading minutes in a debug build and
/// the new one a second or two; the bound is generous.
@Suite struct HistoryScalingTests {
    @Test func manyChangesOfAWideEntityAreReadInLinearTime() throws {
        let store = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"
        let width = 4_000
        let names = (0..<width).map { String(format: "a%04d", $0) }
        let schema = Schema([Schema.Entity(name: "Item", attributes: names.map { Schema.Attribute($0, .int) })])
        let item = PersistentIdentifier(storeIdentifier: store, entityName: "Item", primaryKey: "1")
        let start = Date(timeIntervalSinceReferenceDate: 0)
        var transactions = [HistoryTransactionRecord(transactionIdentifier: 1, timestamp: start, changes: [.insert(item)])]
        for index in 0..<80_000 {
            let name = names[index % width]
            transactions.append(
                HistoryTransactionRecord(
                    transactionIdentifier: Int64(index + 2), timestamp: start,
                    changes: [.update(item, updatedAttributes: [name], values: [name: .int(Int64(index))])]))
        }
        let document = Document(
            header: DocumentHeader(storeIdentifier: store, schemaVersion: schema.version, nextPrimaryKeys: ["Item": 2]),
            schema: schema,
            snapshots: [DefaultSnapshot(persistentIdentifier: item, values: Dictionary(uniqueKeysWithValues: names.map { ($0, .int(0)) }))],
            history: DocumentHistory(transactions: transactions))
        let bytes = try JSONFormat().writeDocument(document)
        let clock = ContinuousClock()
        let begun = clock.now
        let read = try JSONFormat().readDocument(from: bytes, file: "history.json")
        let elapsed = clock.now - begun
        #expect(read.history == document.history)
        #expect(elapsed < .seconds(30))
    }
}
