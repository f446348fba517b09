import Foundation
import Testing
import TripDocCore

/// The integrity check costs in proportion to the document, whatever it holds: the references
/// of repeated snapshots are kept by relationship, not in one list that each relationship's
/// pass went through whole (40,000 relationships × 40,000 repeated references: 1.6×10^9 steps,
/// minutes in a debug build). The bound is generous.
@Suite struct IntegrityCheckerScalingTests {
    @Test func repeatedSnapshotsOfManyEntitiesAreCheckedInLinearTime() {
        let count = 40_000
        let store = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"
        let names = (0..<count).map { String(format: "E%06d", $0) }
        let schema = Schema(
            names.map {
                Schema.Entity(name: $0, attributes: [.init("v", .int)], relationships: [.init("r", destination: $0)])
            })
        var snapshots: [DefaultSnapshot] = []
        for name in names {
            let identifier = PersistentIdentifier(storeIdentifier: store, entityName: name, primaryKey: "1")
            for value in [1, 2] as [Int64] {
                snapshots.append(DefaultSnapshot(persistentIdentifier: identifier, values: ["v": .int(value), "r": .reference(identifier)]))
            }
        }
        let document = Document(
            header: DocumentHeader(storeIdentifier: store, schemaVersion: schema.version), schema: schema, snapshots: snapshots)
        var problems: [IntegrityProblem] = []
        let elapsed = ContinuousClock().measure { problems = IntegrityChecker().problems(in: document) }
        #expect(problems.count == count)
        #expect(problems.allSatisfy { $0.kind == .duplicateIdentifier })
        #expect(elapsed < .seconds(60))
    }
}
