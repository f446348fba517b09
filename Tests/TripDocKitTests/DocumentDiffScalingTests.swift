import Foundation
import Testing
import TripDoc
import TripDocKit

/// `diff` costs in proportion to what it compares: a wide entity's attributes, and a schema's
/// entities, are each looked up once, not searched for, and no entity's matching copies the
/// tables of the others (40,000 attributes took 15 s, 20,000 entities 18 s, in a release
/// build). The sizes below take a quadratic comparison minutes in a debug build and a linear
/// one seconds; the bounds are generous.
@Suite struct DocumentDiffScalingTests {
    static let storeA = "C15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"
    static let storeB = "D15C0289-EC2D-4A91-A7EC-8E65A18DEBBE"

    static func file(_ schema: Schema, _ snapshots: [DefaultSnapshot], store: String, path: String) -> DocumentFile {
        let header = DocumentHeader(storeIdentifier: store, schemaVersion: schema.version)
        let document = Document(header: header, schema: schema, snapshots: snapshots)
        return DocumentFile(path: path, format: JSONFormat(), size: 0, document: document)
    }

    /// One object of an entity of 40,000 attributes, every other one changed.
    @Test func aWideEntityIsComparedInLinearTime() throws {
        let names = (0..<40_000).map { String(format: "a%06d", $0) }
        let schema = Schema([Schema.Entity(name: "Wide", attributes: names.map { Schema.Attribute($0, .int) })])
        func snapshot(changed: Bool) -> DefaultSnapshot {
            var values: [String: SnapshotValue] = [:]
            for (index, name) in names.enumerated() { values[name] = .int(Int64(index + (changed && index % 2 == 1 ? 1 : 0))) }
            return DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: Self.storeA, entityName: "Wide", primaryKey: "1"),
                values: values)
        }
        let a = Self.file(schema, [snapshot(changed: false)], store: Self.storeA, path: "a.json")
        let b = Self.file(schema, [snapshot(changed: true)], store: Self.storeA, path: "b.json")
        let clock = ContinuousClock()
        let start = clock.now
        let diff = try DocumentDiff(a, b)
        let elapsed = clock.now - start
        let changes = try #require(diff.entities.first?.changed.first?.attributes)
        #expect(changes.count == 20_000)
        #expect(changes.first?.property == "a000001")
        #expect(diff.schemaDifferences.isEmpty)
        #expect(elapsed < .seconds(30))
    }

    /// 50,000 entities of one object each, in two stores (matched by content), half changed;
    /// and two schemas of 50,000 entities that differ in every other one.
    @Test func manyEntitiesAreComparedInLinearTime() throws {
        let count = 50_000
        let names = (0..<count).map { String(format: "E%06d", $0) }
        func schema(widened: Bool) -> Schema {
            Schema(
                names.enumerated().map { index, name in
                    Schema.Entity(
                        name: name,
                        attributes: [Schema.Attribute("v", .int)] + (widened && index % 2 == 0 ? [Schema.Attribute("w", .int)] : []))
                })
        }
        func snapshots(store: String, changed: Bool) -> [DefaultSnapshot] {
            names.enumerated().map { index, name in
                DefaultSnapshot(
                    persistentIdentifier: PersistentIdentifier(storeIdentifier: store, entityName: name, primaryKey: "1"),
                    values: ["v": .int(Int64(index + (changed && index % 2 == 1 ? 1 : 0)))])
            }
        }
        let a = Self.file(schema(widened: false), snapshots(store: Self.storeA, changed: false), store: Self.storeA, path: "a.json")
        let b = Self.file(schema(widened: true), snapshots(store: Self.storeB, changed: true), store: Self.storeB, path: "b.json")
        let clock = ContinuousClock()
        let start = clock.now
        let diff = try DocumentDiff(a, b)
        let elapsed = clock.now - start
        #expect(diff.entities.count == count)
        #expect(diff.entities.filter { !$0.added.isEmpty && !$0.removed.isEmpty }.count == count / 2)
        #expect(diff.schemaDifferences.count == count / 2)
        #expect(diff.schemaDifferences.first == "E000000.w added (Int)")
        #expect(elapsed < .seconds(40))
    }
}
