import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// Reading documents as records, what `tripdoc diff` compares: the same snapshots as reading
/// them whole, and the same differences.
@Suite struct DocumentRecordsReadingTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("records") }

    func write(_ document: Document, as name: String, in format: any DocumentFormat) throws -> String {
        let path = scratch.file(name).path
        try format.writeDocument(document).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [JSONFormat() as any DocumentFormat, PlistFormat(), BundleFormat()])
    func aFileReadAsRecordsHoldsItsSnapshots(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 30)
        let path = try write(document, as: "trips.\(format.fileExtensions[0])", in: format)
        let records = try DocumentFile.readRecords(path)
        #expect(records.storeIdentifier == document.storeIdentifier)
        for entity in document.schema.entities {
            #expect(records.records(of: entity.name).map(\.snapshot) == document.snapshots(of: entity.name))
        }
    }

    @Test func theFirstDocumentsErrorIsThrownWhenBothFail() throws {
        let good = try write(SampleTrips.document(trips: 3), as: "good.json", in: JSONFormat())
        let broken = scratch.file("broken.json").path
        try Data("{\"header\": ".utf8).write(to: URL(fileURLWithPath: broken))
        let missing = scratch.file("missing.json").path
        #expect(throws: DocumentReadError.self) { try DocumentFile.readRecordsOfBoth(broken, good) }
        let error = #expect(throws: (any Error).self) { try DocumentFile.readRecordsOfBoth(missing, broken) }
        #expect("\(error!)".contains("missing.json"), "\(error!)")
    }

    /// A diff of records read from files is the diff of the documents in memory.
    @Test func recordsAndDocumentsGiveTheSameDifferences() throws {
        let before = SampleTrips.document(trips: 40)
        var after = before
        after.snapshots.removeAll { $0.entityName == "BucketListItem" && $0.persistentIdentifier.primaryKey == "3" }
        for index in after.snapshots.indices where after.snapshots[index].entityName == "Trip" {
            if case .references(let items) = after.snapshots[index]["bucketList"] {
                after.snapshots[index]["bucketList"] = .references(items.filter { $0.primaryKey != "3" })
            }
        }
        let trip = try #require(after.snapshots.firstIndex { $0.entityName == "Trip" })
        after.snapshots[trip]["destination"] = .string("Elsewhere")
        #expect(IntegrityChecker().problems(in: after) == [])
        let a = try write(before, as: "a.json", in: JSONFormat())
        let b = try write(after, as: "b.plist", in: PlistFormat())
        let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(a, b)
        let fromRecords = try DocumentDiff(recordsA, at: a, recordsB, at: b)
        let fromDocuments = try DocumentDiff(try DocumentFile.read(a), try DocumentFile.read(b))
        #expect(!fromRecords.isIdentical)
        #expect(fromRecords.text(colour: false) == fromDocuments.text(colour: false))
        #expect(fromRecords.text(colour: false).contains("Elsewhere"))
    }
}
