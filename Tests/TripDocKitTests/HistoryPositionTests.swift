import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// A sink that wants only where the history stands gets it from every format without the
/// transactions: what a store needs to number the transaction of a save it appends to the
/// journal, without decoding a history that can be as large as the snapshots.
@Suite struct HistoryPositionTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// Keeps the history it is handed, whenever it comes, and no snapshots.
    struct PositionSink: DocumentDecodingSink {
        var history: DocumentHistory?
        var wantsHistoryPositionOnly: Bool { true }
        func wantsSnapshots(of entity: Schema.Entity) -> Bool { false }
        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            if let history { self.history = history }
        }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws {}
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
        mutating func lateHistory(_ history: DocumentHistory) throws { self.history = history }
    }

    func position(of data: Data, in format: any DocumentFormat) throws -> DocumentHistory? {
        var sink = PositionSink()
        try format.readDocument(from: data, file: "trips", limits: .standard, into: &sink)
        return sink.history
    }

    @Test(arguments: formats)
    func theHistoryComesWithoutItsTransactionsAndNumbersTheNextOne(format: any DocumentFormat) throws {
        var document = try SampleTrips.documentWithHistory(trips: 6)
        let newest = try #require(document.history.transactions.last?.transactionIdentifier)
        #expect(try position(of: format.writeDocument(document), in: format) == DocumentHistory(deletedThrough: newest))

        // deletedThrough past every transaction listed (a history deleted through a later one).
        document.history = DocumentHistory(transactions: [], deletedThrough: newest + 3)
        #expect(try position(of: format.writeDocument(document), in: format)?.nextTransactionIdentifier == newest + 4)

        // No history: none is handed over (the document lists none), or an empty one.
        document.history = DocumentHistory()
        #expect(try (position(of: format.writeDocument(document), in: format) ?? DocumentHistory()).nextTransactionIdentifier == 1)
    }

    @Test(arguments: [JSONFormat(), BundleFormat()] as [any DocumentFormat])
    func transactionIdentifiersOutOfOrderAreAnErrorAsInAWholeRead(format: any DocumentFormat) throws {
        var document = try SampleTrips.documentWithHistory(trips: 6)
        document.history.transactions.swapAt(0, 1)
        let data = try format.writeDocument(document)
        let whole = #expect(throws: DocumentReadError.self) { try format.readDocument(from: data, file: "trips") }
        let skimmed = #expect(throws: DocumentReadError.self) { try position(of: data, in: format) }
        #expect(skimmed?.description == whole?.description)
    }

    @Test(arguments: [JSONFormat(), BundleFormat()] as [any DocumentFormat], [(0, 0), (1, -1)] as [(Int64, Int64)])
    func anIdentifierOutOfRangeIsTheErrorAWholeReadReports(format: any DocumentFormat, identifiers: (Int64, Int64)) throws {
        var document = SampleTrips.document(trips: 2)
        let (transaction, deletedThrough) = identifiers
        document.history = DocumentHistory(
            transactions: [HistoryTransactionRecord(transactionIdentifier: transaction, timestamp: Date(timeIntervalSince1970: 0), changes: [])],
            deletedThrough: deletedThrough)
        let data = try format.writeDocument(document)
        let whole = #expect(throws: DocumentReadError.self) { try format.readDocument(from: data, file: "trips") }
        let skimmed = #expect(throws: DocumentReadError.self) { try position(of: data, in: format) }
        #expect(skimmed?.description == whole?.description)
        #expect(whole?.description.contains(transaction == 0 ? "transaction identifier" : "deletedThrough") == true)
    }

    @Test(arguments: formats)
    func openingReadsThePositionWhereItCostsNothingMore(format: any DocumentFormat) throws {
        let scratch = try ScratchFolder("history-position")
        let path = scratch.file("trips.\(format.fileExtensions[0])").path
        try format.writeDocument(try SampleTrips.documentWithHistory(trips: 6)).write(to: URL(fileURLWithPath: path))
        let store = try ArchiveStore(path: path, format: format, schema: SampleTrips.schema, savesToJournal: true)
        // JSON and plist pass over the history to reach the schema; a bundle's is an entry of
        // its own, which it need not inflate: its manifest records where the history stands.
        #expect(try store.readSnapshots(of: []).knowsHistoryPosition)
        #expect(try store.readSnapshots(of: ["Trip"]).knowsHistoryPosition)
        #expect(format.readsHistoryPositionCheaply == !(format is BundleFormat))
    }
}
