import Foundation
import Testing
import TripDocBundle
import TripDocCore

/// What the bundle writer writes, the reader reads back under the standard limits: an archive
/// that would hold more entries than the reader's `entry-count` accepts is refused when written.
@Suite struct BundleEntryCountTests {
    /// A document with `count` distinct `.externalStorage` values (an entry each).
    func document(externalValues count: Int) throws -> Document {
        let schema = Schema([
            Schema.Entity(name: "Photo", attributes: [.init("image", .data, options: [.externalStorage])])
        ])
        var document = Document.empty(schema: schema, storeIdentifier: "STORE")
        let photos = (0..<count).map { index in
            DefaultSnapshot(
                persistentIdentifier: .temporary(entityName: "Photo"),
                values: ["image": .data(Data(repeating: UInt8(index % 251), count: 64) + Data("\(index)".utf8))])
        }
        try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: photos))
        return document
    }

    @Test func theWriterAcceptsAsManyEntriesAsTheReaderAndNoMore() throws {
        let document = try document(externalValues: 12)
        let written = try BundleFormat(maximumEntryCount: 1000).writeDocument(document)
        let entryCount = try BundleFormat().entryReports(of: written, file: "photos.tripbundle", limits: .standard).count
        // Exactly as many as the reader will accept: written, and read back.
        let atTheLimit = try BundleFormat(maximumEntryCount: entryCount).writeDocument(document)
        let limits = DocumentLimits(maximumEntryCount: entryCount)
        #expect(try BundleFormat().readDocument(from: atTheLimit, file: "photos.tripbundle", limits: limits).snapshots.count == 12)
        // One fewer: refused when written, saying why and what to do.
        let error = #expect(throws: BundleWriteError.self) {
            try BundleFormat(maximumEntryCount: entryCount - 1).writeDocument(document)
        }
        #expect(error == .tooManyEntries(count: entryCount, externalValues: 12, limit: entryCount - 1))
        #expect(error?.description.contains("JSON") == true)
    }

    @Test func byDefaultTheWriterKeepsToTheReadersStandardLimit() {
        #expect(BundleFormat().maximumEntryCount == DocumentLimits.standard.maximumEntryCount)
    }
}
