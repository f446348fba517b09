import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// The manifest records where the history stands (docs/FORMATS.md, 8.5), so that a save
/// appended to the journal of a bundle reads it without inflating `history.json`, which is as
/// large as the saves it keeps; a bundle without the record, or with one for another history
/// entry, is read as before, and a record a whole read contradicts is refused.
@Suite struct BundleHistoryPositionTests {
    static let schema = Schema([Schema.Entity(name: "Trip", attributes: [.init("name", .string), .init("destination", .string)])])

    /// Three saves: three trips inserted, then two renamed; transactions 1 to 3.
    static func documentWithHistory() throws -> Document {
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        let trips = (0..<3).map { PersistentIdentifier.temporary(entityName: "Trip", primaryKey: "t\($0)") }
        let inserted = try document.applySaveChanges(DataStoreSaveChangesRequest(inserted: trips.map {
            DefaultSnapshot(persistentIdentifier: $0, values: ["name": .string($0.primaryKey), "destination": .string("Kyoto")])
        })).remappedIdentifiers
        for (index, destination) in ["Oslo", "Lima"].enumerated() {
            var trip = try #require(document.snapshots.first { $0.persistentIdentifier == inserted[trips[index]] })
            trip["destination"] = .string(destination)
            try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        }
        return document
    }

    /// Keeps the history it is handed; wants no snapshots.
    struct HistorySink: DocumentDecodingSink {
        var wantsHistory = true
        var wantsHistoryPositionOnly = true
        var takesHistoryPositionWhenKnown = false
        var history: DocumentHistory?
        func wantsSnapshots(of entity: Schema.Entity) -> Bool { false }
        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws { self.history = history }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws {}
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
        mutating func lateHistory(_ history: DocumentHistory) throws { self.history = history }
    }

    func read(_ data: Data, into sink: HistorySink) throws -> DocumentHistory? {
        var sink = sink
        try BundleFormat().readDocument(from: data, file: "b.tripbundle", limits: .standard, into: &sink)
        return sink.history
    }

    /// The position a sink that wants only the position is handed.
    func position(of data: Data) throws -> DocumentHistory? { try read(data, into: HistorySink()) }

    func manifest(of data: Data) throws -> BundleManifest {
        let entries = try ZipArchive.entries(of: data, limits: .standard)
        return try JSONDecoder().decode(BundleManifest.self, from: try #require(entries.first { $0.name == "manifest.json" }).data)
    }

    /// The bundle of `document` with `change` applied to its entries (the manifest first).
    func bundle(of document: Document, changing change: (inout BundleManifest, inout [ZipArchive.Entry]) throws -> Void) throws -> Data {
        var entries = try ZipArchive.entries(of: try BundleFormat().writeDocument(document), limits: .standard)
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        try change(&manifest, &entries)
        entries[0].data = try manifest.encoded()
        return try ZipArchive.archive(entries)
    }

    /// The history entry replaced by as many other bytes: listed as before, so that only
    /// inflating and verifying it notices.
    static func damageHistory(_ manifest: inout BundleManifest, _ entries: inout [ZipArchive.Entry]) throws {
        let index = try #require(entries.firstIndex { $0.name == "history.json" })
        entries[index].data = Data(repeating: UInt8(ascii: "x"), count: entries[index].data.count)
    }

    @Test func theManifestRecordsTheLastTransactionWithTheDigestOfTheHistoryEntry() throws {
        var document = try Self.documentWithHistory()
        let data = try BundleFormat().writeDocument(document)
        let history = try #require(try ZipArchive.entries(of: data, limits: .standard).first { $0.name == "history.json" })
        #expect(try manifest(of: data).historyPosition == .init(lastTransactionIdentifier: 3, sha256: BundleFormat.sha256(history.data)))
        let text = String(decoding: try ZipArchive.entries(of: data, limits: .standard)[0].data, as: UTF8.self)
        #expect(text.contains("""
              "historyPosition" : {
                "lastTransactionIdentifier" : 3,
                "sha256" : "\(BundleFormat.sha256(history.data))"
              },
            """))

        // Deleted through a later transaction than any kept: the deleted ones count.
        document.history = DocumentHistory(deletedThrough: 9)
        #expect(try manifest(of: BundleFormat().writeDocument(document)).historyPosition?.lastTransactionIdentifier == 9)
        // No history, no history.json: nothing to record.
        document.history = DocumentHistory()
        #expect(try manifest(of: BundleFormat().writeDocument(document)).historyPosition == nil)
    }

    /// A history whose identifiers a reader refuses is written as it is, without a record, so
    /// that a read of where it stands finds what a whole read finds.
    @Test func aHistoryAReaderRefusesGetsNoRecord() throws {
        var document = try Self.documentWithHistory()
        document.history.transactions.swapAt(0, 1)
        let data = try BundleFormat().writeDocument(document)
        #expect(try manifest(of: data).historyPosition == nil)
        #expect(throws: DocumentReadError.self) { try position(of: data) }
    }

    /// The manifest as tripdoc read it before the record (every member but `historyPosition`,
    /// unknown members ignored, as docs/FORMATS.md 8.5 and 8.11 tell every reader to).
    struct ManifestBeforeTheRecord: Decodable, Equatable {
        var format: String
        var formatVersion: Int
        var storeIdentifier: String
        var schemaVersion: String
        var entries: [BundleManifest.Entry]
    }

    @Test func aReaderThatDoesNotKnowTheRecordReadsTheManifestAsBefore() throws {
        let data = try BundleFormat().writeDocument(try Self.documentWithHistory())
        let text = try #require(try ZipArchive.entries(of: data, limits: .standard).first { $0.name == "manifest.json" }).data
        let recorded = try manifest(of: data)
        #expect(recorded.historyPosition != nil)
        let older = try JSONDecoder().decode(ManifestBeforeTheRecord.self, from: text)
        #expect(older == ManifestBeforeTheRecord(
            format: recorded.format, formatVersion: recorded.formatVersion, storeIdentifier: recorded.storeIdentifier,
            schemaVersion: recorded.schemaVersion, entries: recorded.entries))
        #expect(older.formatVersion == 1)
    }

    @Test func writingTheSameDocumentGivesTheSameBytesThroughEveryRoundTrip() throws {
        let document = try Self.documentWithHistory()
        let bundle = try BundleFormat().writeDocument(document)
        #expect(try BundleFormat().writeDocument(document) == bundle)
        let viaJSON = try JSONFormat().readDocument(from: JSONFormat().writeDocument(document), file: "d.json")
        #expect(try BundleFormat().writeDocument(viaJSON) == bundle)
        let reread = try BundleFormat().readDocument(from: bundle, file: "b.tripbundle")
        #expect(try BundleFormat().writeDocument(reread) == bundle)
    }

    @Test func aPositionOnlyReadTakesTheRecordedPositionAndLeavesTheHistoryEntryUninflated() throws {
        let damaged = try bundle(of: try Self.documentWithHistory(), changing: Self.damageHistory)
        #expect(try position(of: damaged) == DocumentHistory(deletedThrough: 3))
        // A sink that wants no history gets the position only when it takes it.
        #expect(try read(damaged, into: HistorySink(wantsHistory: false)) == nil)
        #expect(try read(damaged, into: HistorySink(wantsHistory: false, takesHistoryPositionWhenKnown: true)) == DocumentHistory(deletedThrough: 3))
        // Reading the history inflates the entry, and finds the damage.
        let error = try #require(bundleReadError(damaged))
        #expect(error.location?.entry == "history.json")
        #expect(error.message == "the entry's contents do not match the SHA-256 digest in the manifest")
    }

    /// A bundle of a tripdoc that did not record the position reads as it always has.
    @Test func withoutTheRecordTheHistoryEntryTells() throws {
        let document = try Self.documentWithHistory()
        let unrecorded = try bundle(of: document) { manifest, _ in manifest.historyPosition = nil }
        #expect(try position(of: unrecorded) == DocumentHistory(deletedThrough: 3))
        #expect(try read(unrecorded, into: HistorySink(wantsHistory: false, takesHistoryPositionWhenKnown: true)) == nil)
        #expect(try BundleFormat().readDocument(from: unrecorded, file: "b.tripbundle") == document)
        let damaged = try bundle(of: document) { manifest, entries in
            manifest.historyPosition = nil
            try Self.damageHistory(&manifest, &entries)
        }
        #expect(throws: DocumentReadError.self) { try position(of: damaged) }
    }

    /// A bundle without history needs no record: its position is known from the manifest's
    /// entries alone.
    @Test func withoutHistoryThePositionIsKnownFromTheEntries() throws {
        var document = try Self.documentWithHistory()
        document.history = DocumentHistory()
        let data = try BundleFormat().writeDocument(document)
        #expect(try read(data, into: HistorySink(wantsHistory: false, takesHistoryPositionWhenKnown: true))?.nextTransactionIdentifier == 1)
        #expect(try #require(try position(of: data)).nextTransactionIdentifier == 1)
    }

    /// `history.json` written again (by hand, its listing updated) and the record left as it
    /// was: the record is of another entry, and is passed over.
    @Test func aRecordOfAnotherHistoryEntryIsPassedOver() throws {
        var document = try Self.documentWithHistory()
        let recorded = try manifest(of: BundleFormat().writeDocument(document)).historyPosition
        document.history = DocumentHistory(deletedThrough: 7)
        let edited = try bundle(of: document) { manifest, _ in manifest.historyPosition = recorded }
        #expect(try manifest(of: edited).historyPosition?.lastTransactionIdentifier == 3)
        #expect(try position(of: edited) == DocumentHistory(deletedThrough: 7))
        #expect(try read(edited, into: HistorySink(wantsHistory: false, takesHistoryPositionWhenKnown: true)) == nil)
        #expect(try BundleFormat().readDocument(from: edited, file: "b.tripbundle") == document)
    }

    /// A record for this history entry that names another transaction (a hand-edited
    /// manifest): every read of the history refuses the bundle, naming the manifest.
    @Test(arguments: [2, 4] as [Int64])
    func aRecordTheHistoryEntryContradictsIsRefused(recorded: Int64) throws {
        let data = try bundle(of: try Self.documentWithHistory()) { manifest, _ in
            manifest.historyPosition?.lastTransactionIdentifier = recorded
        }
        let error = try #require(bundleReadError(data))
        #expect(error.location?.entry == "manifest.json")
        #expect(error.message == "the manifest records \(recorded) as the history's last transaction identifier, but history.json's is 3")
        #expect(error.hint?.contains("restore the document from a copy") == true)
        #expect(error.hint?.contains("journal") == true, "the hint warns that the journal's saves depend on the record")
        // A sink that reads the history, as a save over the whole document does, too.
        #expect(throws: DocumentReadError.self) { try read(data, into: HistorySink(wantsHistoryPositionOnly: false)) }
    }

    @Test(arguments: [-1, Int64.max] as [Int64])
    func aRecordOutOfRangeIsRefused(recorded: Int64) throws {
        let data = try bundle(of: try Self.documentWithHistory()) { manifest, _ in
            manifest.historyPosition?.lastTransactionIdentifier = recorded
        }
        let error = try #require(bundleReadError(data))
        #expect(error.location?.entry == "manifest.json")
        #expect(error.message.contains("historyPosition.lastTransactionIdentifier must be from 0 to 2^63-2"))
    }
}
