import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// Journaled saves (docs/FORMATS.md, section 7): a save appends what it changed to NAME.journal
/// and leaves the document as it was; every read folds the journal in; folding it into the
/// document (compaction) gives the document a whole-document save would have written.
@Suite struct JournalTests {
    static let schema = HistoryTests.schema
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("journal") }

    func path(_ format: any DocumentFormat) -> String { scratch.file("trips.\(format.fileExtensions[0])").path }
    func temp(_ key: String) -> PersistentIdentifier { .temporary(entityName: "Trip", primaryKey: key) }
    func trip(_ key: String, _ name: String) -> DefaultSnapshot {
        DefaultSnapshot(
            persistentIdentifier: temp(key),
            values: ["name": .string(name), "destination": .string("somewhere"), "startDate": .date(Date(timeIntervalSinceReferenceDate: 0))])
    }

    /// Saves a few changes through a journaling store and the same through one that writes the
    /// whole document; returns the two paths.
    func saveTheSameTwice(_ format: any DocumentFormat) throws -> (journaled: String, whole: String) {
        let journaled = scratch.file("journaled.\(format.fileExtensions[0])").path
        let whole = scratch.file("whole.\(format.fileExtensions[0])").path
        for (path, savesToJournal) in [(journaled, true), (whole, false)] {
            let store = try ArchiveStore(path: path, format: format, schema: Self.schema, savesToJournal: savesToJournal)
            try store.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo"), trip("b", "Oslo"), trip("c", "Lima")]))
            var oslo = try #require(try store.fetchSnapshots(entityName: "Trip").first { $0["name"] == .string("Oslo") })
            oslo["destination"] = .string("Norway")
            try store.save(DataStoreSaveChangesRequest(updated: [oslo]))
            let lima = try #require(try store.fetchSnapshots(entityName: "Trip").first { $0["name"] == .string("Lima") })
            try store.save(DataStoreSaveChangesRequest(deleted: [lima]))
        }
        return (journaled, whole)
    }

    /// A whole-document save streams the document to the file, entity by entity from the
    /// store's table: the bytes are those the format writes for the document they hold, over
    /// entities and keys saved out of order (keys past 9 sort after 2 as numbers, not text).
    @Test(arguments: formats.indices)
    func aWholeDocumentSaveWritesTheBytesTheFormatWritesForItsDocument(formatIndex: Int) throws {
        let format = Self.formats[formatIndex]
        let path = path(format)
        let store = try ArchiveStore(path: path, format: format, schema: Self.schema)
        func stay(_ key: String, _ trip: String) -> DefaultSnapshot {
            DefaultSnapshot(
                persistentIdentifier: .temporary(entityName: "Stay", primaryKey: key),
                values: ["place": .string("inn \(key)"), "trip": .reference(temp(trip))])
        }
        let trips = (1...12).map { trip("t\($0)", "trip \($0)") }
        try store.save(DataStoreSaveChangesRequest(inserted: [stay("s1", "t3"), stay("s2", "t11")] + trips.reversed()))
        var renamed = try #require(try store.fetchSnapshots(entityName: "Trip").first { $0["name"] == .string("trip 10") })
        renamed["name"] = .string("ten")
        try store.save(DataStoreSaveChangesRequest(updated: [renamed]))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try format.readDocument(from: bytes, file: path)
        #expect(document.snapshots.count == 14)
        #expect(try format.writeDocument(document) == bytes)
    }

    /// File calls whose writes fail as on a full disk.
    struct DiskFullCalls: FileSystemCalls {
        let real = SystemFileSystemCalls()
        func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { real.open(path, flags, mode) }
        func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
            errno = ENOSPC
            return -1
        }
        func fsync(_ fd: Int32) -> Int32 { real.fsync(fd) }
        func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { real.fchmod(fd, mode) }
        func close(_ fd: Int32) -> Int32 { real.close(fd) }
        func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
        func unlink(_ path: String) -> Int32 { real.unlink(path) }
        func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 { real.renameWithoutReplacing(from, to) }
        func startWriteback(_ fd: Int32, offset: Int, count: Int) -> Int32 { real.startWriteback(fd, offset: offset, count: count) }
    }

    /// A whole-document save streamed to a disk that is full fails naming the file, and leaves
    /// the document as it was, with no temporary file beside it.
    @Test(arguments: formats.indices)
    func aWholeDocumentSaveThatCannotBeWrittenLeavesTheDocumentAsItWas(formatIndex: Int) throws {
        let format = Self.formats[formatIndex]
        let path = path(format)
        try ArchiveStore(path: path, format: format, schema: Self.schema)
            .save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo")]))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try ArchiveStore(path: path, format: format, fileWriter: AtomicFileWriter(calls: DiskFullCalls()))
        #expect(throws: FileWriteError(path: path, operation: .write, code: ENOSPC)) {
            try store.save(DataStoreSaveChangesRequest(inserted: [trip("b", "Oslo")]))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".lock") } == [(path as NSString).lastPathComponent])
        #expect(try ArchiveStore(path: path, format: format).fetchSnapshots(entityName: "Trip").map { $0["name"] } == [.string("Tokyo")])
    }

    @Test(arguments: formats.indices)
    func aJournaledSaveAppendsAndEveryReadFoldsItIn(formatIndex: Int) throws {
        let format = Self.formats[formatIndex]
        let (journaled, whole) = try saveTheSameTwice(format)
        let journal = DocumentJournal(documentPath: journaled)
        #expect(journal.exists)
        // The document still holds only what it was created with.
        let created = try format.readDocument(from: Data(contentsOf: URL(fileURLWithPath: journaled)), file: journaled)
        #expect(created.snapshots.isEmpty)
        // A store opened on it (in another process, say) reads the saves.
        let reader = try ArchiveStore(path: journaled, format: format)
        let expected = try ArchiveStore(path: whole, format: format).readDocument()
        func comparable(_ document: Document) -> Document {
            var document = document
            document.header.storeIdentifier = "S"
            document.snapshots = document.snapshots.map { $0.remapped { id in PersistentIdentifier(storeIdentifier: "S", entityName: id.entityName, primaryKey: id.primaryKey) } }
            document.history.transactions = document.history.transactions.map { transaction in
                var transaction = transaction
                transaction.timestamp = Date(timeIntervalSinceReferenceDate: 0)
                transaction.processIdentifier = nil
                transaction.changes = transaction.changes.map { $0.remapped { id in PersistentIdentifier(storeIdentifier: "S", entityName: id.entityName, primaryKey: id.primaryKey) } }
                return transaction
            }
            return document
        }
        #expect(comparable(try reader.readDocument()) == comparable(expected))
        // Folding it in writes what a whole-document save wrote, and removes the journal.
        try reader.compact()
        #expect(!journal.exists)
        let compacted = try format.readDocument(from: Data(contentsOf: URL(fileURLWithPath: journaled)), file: journaled)
        #expect(comparable(compacted) == comparable(expected))
    }

    @Test func aLineCutShortByACrashIsNotASaveAndTheNextSaveCutsItOff() throws {
        let path = path(JSONFormat())
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        try store.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo")]))
        let journal = DocumentJournal(documentPath: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"transaction":{"transactionIdentifier":2,"times"#.utf8))
        try handle.close()
        let reader = try ArchiveStore(path: path, format: JSONFormat(), savesToJournal: true)
        #expect(try reader.fetchSnapshots(entityName: "Trip").map(\.["name"]) == [.string("Tokyo")])
        try reader.save(DataStoreSaveChangesRequest(inserted: [trip("b", "Oslo")]))
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: journal.path)), as: UTF8.self)
        #expect(!text.contains("times\""), "the cut line is gone")
        #expect(text.split(separator: "\n").count == 3, "header and two saves")
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchSnapshots(entityName: "Trip").count == 2)
    }

    @Test func recordsTheDocumentAlreadyHoldsArePassedOver() throws {
        // A compaction that wrote the document but died before removing the journal.
        let path = path(JSONFormat())
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        try store.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo"), trip("b", "Oslo")]))
        let journal = DocumentJournal(documentPath: path)
        let kept = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        try store.compact()
        try kept.write(to: URL(fileURLWithPath: journal.path))
        let reader = try ArchiveStore(path: path, format: JSONFormat(), savesToJournal: true)
        #expect(try reader.fetchSnapshots(entityName: "Trip").count == 2)
        #expect(try reader.fetchHistory().count == 1)
        // The next save folds the stale journal away rather than appending after it.
        try reader.save(DataStoreSaveChangesRequest(inserted: [trip("c", "Lima")]))
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchHistory().count == 2)
    }

    @Test func aJournalOfAnotherStoreIsLeftOut() throws {
        let path = path(JSONFormat())
        let first = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        try first.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo")]))
        let journal = try Data(contentsOf: URL(fileURLWithPath: DocumentJournal(documentPath: path).path))
        // The document is replaced by another store's; the old journal is still there.
        try FileManager.default.removeItem(atPath: path)
        let second = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        try journal.write(to: URL(fileURLWithPath: DocumentJournal(documentPath: path).path))
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchSnapshots().isEmpty)
        try second.save(DataStoreSaveChangesRequest(inserted: [trip("b", "Oslo")]))
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchSnapshots().map(\.["name"]) == [.string("Oslo")])
    }

    @Test func theJournalIsFoldedInWhenItPassesAFractionOfTheDocument() throws {
        let path = path(JSONFormat())
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        let journal = DocumentJournal(documentPath: path)
        var compactions = 0
        for index in 0..<400 {
            try store.save(DataStoreSaveChangesRequest(inserted: [trip("t\(index)", "Trip \(index)")]))
            if !journal.exists { compactions += 1 }
            if journal.exists {
                let journalSize = try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int ?? 0
                let documentSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                #expect(journalSize <= max(64 << 10, documentSize / 2) + 4096)
            }
        }
        #expect(compactions >= 1)
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchSnapshots().count == 400)
    }

    @Test func twoStoresOnOneJournaledDocumentConflictInsteadOfLosingASave() throws {
        let path = path(JSONFormat())
        let first = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        let second = try ArchiveStore(path: path, format: JSONFormat(), savesToJournal: true)
        try first.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo")]))
        #expect(throws: ArchiveStoreError.conflict(path: path)) {
            try second.save(DataStoreSaveChangesRequest(inserted: [trip("b", "Oslo")]))
        }
        _ = try second.fetchSnapshots()
        try second.save(DataStoreSaveChangesRequest(inserted: [trip("b", "Oslo")]))
        // A fold by one store is no conflict for the other: it saved nothing.
        try second.compact()
        _ = try first.fetchSnapshots()
        try first.compact()
        try second.save(DataStoreSaveChangesRequest(inserted: [trip("c", "Lima")]))
        #expect(try ArchiveStore(path: path, format: JSONFormat()).fetchSnapshots().count == 3)
    }

    /// A journal that is not one, or whose records do not fit the document: an error naming the
    /// journal and the line, and nothing folded in.
    @Test(arguments: [
        ("not json", #"this is not json"#, 1, "not a tripdoc journal"),
        ("newer", #"{"tripdocJournal":9,"storeIdentifier":"STORE"}"#, 1, "newer"),
        ("garbage record", "HEADER\n{\"transaction\":1}", 2, "not a save record"),
        ("gap", "HEADER\n" + record(transaction: 5, snapshot: #"{"persistentIdentifier":ID,"name":{"string":"X"},"destination":{"string":"Y"},"startDate":{"date":0},"stay":{"null":true}}"#), 2, "missing"),
        ("unknown entity", "HEADER\n" + record(transaction: 2, snapshot: #"{"persistentIdentifier":{"storeIdentifier":"STORE","entityName":"Ghost","primaryKey":"1","isTemporary":false}}"#), 2, "entity"),
        ("value does not fit", "HEADER\n" + record(transaction: 2, snapshot: #"{"persistentIdentifier":ID,"name":{"int":7},"destination":{"string":"Y"},"startDate":{"date":0},"stay":{"null":true}}"#), 2, "name"),
        ("dangling reference", "HEADER\n" + record(transaction: 2, snapshot: #"{"persistentIdentifier":ID,"name":{"string":"X"},"destination":{"string":"Y"},"startDate":{"date":0},"stay":{"reference":{"storeIdentifier":"STORE","entityName":"Stay","primaryKey":"99","isTemporary":false}}}"#), 2, "refers to"),
    ])
    func aJournalThatDoesNotFitIsAnErrorNamingItsLine(name: String, text: String, line: Int, message: String) throws {
        let path = path(JSONFormat())
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: Self.schema, savesToJournal: true)
        try store.save(DataStoreSaveChangesRequest(inserted: [trip("a", "Tokyo")]))
        try store.compact()
        let header = #"{"tripdocJournal":1,"storeIdentifier":"\#(store.identifier)"}"#
        let journal = DocumentJournal(documentPath: path)
        let contents = text.replacingOccurrences(of: "HEADER", with: header).replacingOccurrences(of: "STORE", with: store.identifier)
            .replacingOccurrences(of: "ID", with: #"{"storeIdentifier":"\#(store.identifier)","entityName":"Trip","primaryKey":"1","isTemporary":false}"#)
        try Data((contents + "\n").utf8).write(to: URL(fileURLWithPath: journal.path))
        // Opening reads the journal; a reference is checked once the entities of both its ends
        // are read (here, by the whole read).
        let error = #expect(throws: JournalReadError.self, "\(name)") {
            try ArchiveStore(path: path, format: JSONFormat()).readDocument()
        }
        #expect(error?.line == line, "\(name)")
        #expect(error?.path == journal.path)
        #expect(error?.description.contains(message) == true, "\(name): \(error?.description ?? "")")
    }

    static func record(transaction: Int, snapshot: String) -> String {
        #"{"transaction":{"transactionIdentifier":\#(transaction),"timestamp":0,"changes":[]},"nextPrimaryKeys":{"Trip":2},"snapshots":[\#(snapshot)],"deleted":[]}"#
    }
}
