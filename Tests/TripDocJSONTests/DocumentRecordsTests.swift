import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// A document kept as records (what `tripdoc diff` holds): the same snapshots as the document,
/// entity by entity, in primary-key order.
@Suite struct DocumentRecordsTests {
    @Test func aReadDocumentsRecordsAreItsSnapshots() throws {
        let document = EdgeCaseDocuments.document()
        let bytes = try JSONFormat().writeDocument(document)
        var collector = DocumentRecordCollector()
        try JSONFormat().readDocument(from: bytes, file: "doc.json", limits: .standard, into: &collector)
        let records = collector.finish()
        #expect(records.storeIdentifier == document.storeIdentifier)
        #expect(records.schema == document.schema)
        #expect(records.records(of: "Everything").map(\.snapshot) == document.orderedSnapshots)
        #expect(records.records(of: "Nothing").isEmpty)
    }

    /// The edge-case document with five snapshots whose keys are given out of order.
    static func documentWithKeysOutOfOrder() -> Document {
        var document = EdgeCaseDocuments.document()
        let template = document.snapshots[0]
        document.snapshots = ["b", "10", "9", "a", "100"].map { key in
            var snapshot = template
            snapshot.persistentIdentifier = EdgeCaseDocuments.identifier(key)
            return snapshot
        }
        return document
    }

    /// Keys in numeric order first, then the others by their bytes, as documents list them.
    @Test func recordsAreInPrimaryKeyOrderWhateverTheOrderGiven() {
        let document = Self.documentWithKeysOutOfOrder()
        #expect(DocumentRecords(document).records(of: "Everything").map(\.primaryKey) == ["9", "10", "100", "a", "b"])
    }

    /// A record is found by its identifier among keys in document order; an identifier of
    /// another store, entity or key finds none.
    @Test func aRecordIsFoundByItsIdentifier() {
        let document = Self.documentWithKeysOutOfOrder()
        let records = DocumentRecords(document)
        for key in ["9", "10", "100", "a", "b"] {
            #expect(records.record(for: EdgeCaseDocuments.identifier(key))?.primaryKey == key)
        }
        #expect(records.record(for: EdgeCaseDocuments.identifier("11")) == nil)
        let elsewhere = PersistentIdentifier(storeIdentifier: "OTHER", entityName: "Everything", primaryKey: "9")
        #expect(records.record(for: elsewhere) == nil)
        #expect(records.record(for: PersistentIdentifier(storeIdentifier: document.storeIdentifier, entityName: "Nothing", primaryKey: "9")) == nil)
    }

    @Test func snapshotsOfEntitiesTheSchemaLacksAreLeftOut() {
        var document = EdgeCaseDocuments.document()
        document.snapshots.append(
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: document.storeIdentifier, entityName: "Stranger", primaryKey: "1"),
                values: [:]))
        let records = DocumentRecords(document)
        #expect(records.records(of: "Stranger").isEmpty)
        #expect(records.records(of: "Everything").count == document.snapshots.count - 1)
    }
}

/// Values by position, and records of another layout than the schema's.
@Suite struct DocumentRecordLayoutTests {
    @Test func aPositionFromOneRecordReadsEveryRecordOfItsEntity() {
        let document = EdgeCaseDocuments.document()
        let records = DocumentRecords(document).records(of: "Everything")
        let position = records[0].position(of: "string")
        #expect(position != nil)
        #expect(records[0].position(of: "nothing") == nil)
        for (record, snapshot) in zip(records, document.orderedSnapshots) {
            #expect(record.value(at: position!) == snapshot["string"])
        }
    }

    /// The collector is told a schema whose entity lacks two attributes; the reader decodes by
    /// the document's own. The kept records are laid out by the collector's schema.
    @Test func recordsOfAnotherLayoutAreLaidOutByTheSchema() throws {
        let document = EdgeCaseDocuments.document()
        let bytes = try JSONFormat().writeDocument(document)
        let full = EdgeCaseDocuments.schema.entities[0]
        let narrower = Schema(
            [
                Schema.Entity(
                    name: full.name, attributes: full.attributes.filter { $0.name != "int8" && $0.name != "uuid" },
                    relationships: full.relationships, uniquenessConstraints: full.uniquenessConstraints)
            ], version: EdgeCaseDocuments.schema.version)
        struct Narrowing: DocumentDecodingSink {
            var inner = DocumentRecordCollector()
            let schema: Schema
            mutating func begin(header: DocumentHeader, schema _: Schema, history: DocumentHistory?) throws {
                try inner.begin(header: header, schema: schema, history: history)
            }
            mutating func beginEntity(_ entity: Schema.Entity) throws {}
            mutating func add(_ snapshot: DefaultSnapshot) throws { try inner.add(snapshot) }
            mutating func add(record: consuming SnapshotRecord) throws { try inner.add(record: record) }
            mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
            mutating func lateHistory(_ history: DocumentHistory) throws { try inner.lateHistory(history) }
        }
        var sink = Narrowing(schema: narrower)
        try JSONFormat().readDocument(from: bytes, file: "doc.json", limits: .standard, into: &sink)
        let records = sink.inner.finish().records(of: "Everything")
        #expect(records.count == document.snapshots.count)
        #expect(records[0].position(of: "int8") == nil)
        #expect(records[0].position(of: "uuid") == nil)
        for (record, snapshot) in zip(records, document.orderedSnapshots) {
            #expect(record.value(at: records[0].position(of: "string")!) == snapshot["string"])
            #expect(record.value(at: records[0].position(of: "int16")!) == snapshot["int16"])
        }
    }
}
