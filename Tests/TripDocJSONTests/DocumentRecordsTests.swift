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

    /// Keys in numeric order first, then the others by their bytes, as documents list them.
    @Test func recordsAreInPrimaryKeyOrderWhateverTheOrderGiven() {
        var document = EdgeCaseDocuments.document()
        let template = document.snapshots[0]
        document.snapshots = ["b", "10", "9", "a", "100"].map { key in
            var snapshot = template
            snapshot.persistentIdentifier = EdgeCaseDocuments.identifier(key)
            return snapshot
        }
        #expect(DocumentRecords(document).records(of: "Everything").map(\.primaryKey) == ["9", "10", "100", "a", "b"])
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
