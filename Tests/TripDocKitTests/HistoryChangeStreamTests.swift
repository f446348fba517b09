import Foundation
import Testing
import TripDoc
import TripDocKit

/// A stream writer takes a history too long to hold with its changes handed over one at a time
/// (`HistoryChangeStream`): the bytes are those of the history holding them, in every format,
/// and a writer that does not stream them gets them collected into the history.
@Suite struct HistoryChangeStreamTests {
    /// `history` with each transaction's changes cut in two: the first part held, the rest
    /// handed over by the stream.
    func split(_ history: DocumentHistory, holding held: @escaping (Int) -> Int) -> (DocumentHistory, HistoryChangeStream) {
        var kept = history
        for index in kept.transactions.indices {
            kept.transactions[index].changes = Array(history.transactions[index].changes.prefix(held(index)))
        }
        let stream: HistoryChangeStream = { index, add in
            for change in history.transactions[index].changes.dropFirst(held(index)) { try add(change) }
        }
        return (kept, stream)
    }

    /// What the sink collects.
    final class Bytes {
        var data = Data()
    }

    func written(_ document: Document, as format: any DocumentFormat, holding held: @escaping (Int) -> Int) throws -> Data {
        let bytes = Bytes()
        var writer = format.makeStreamWriter { bytes.data.append(contentsOf: $0) }
        let (history, changes) = split(document.history, holding: held)
        try writer.begin(header: document.header, schema: document.schema, history: history, changes: changes)
        for entity in document.schema.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            try writer.beginEntity(entity)
            for snapshot in document.orderedSnapshots where snapshot.entityName == entity.name { try writer.add(snapshot) }
            try writer.endEntity()
        }
        try writer.finish()
        return bytes.data
    }

    @Test(arguments: DocumentFormats.names)
    func streamedChangesGiveTheBytesOfTheHistoryHoldingThem(format: String) throws {
        let format = try #require(DocumentFormats.named(format))
        let document = try SampleTrips.documentWithHistory(trips: 700, seed: 3)
        let whole = try format.writeDocument(document)
        #expect(try written(document, as: format, holding: { _ in 0 }) == whole)
        #expect(try written(document, as: format, holding: { $0 == 0 ? 100 : 1 }) == whole)
        #expect(try written(document, as: format, holding: { _ in .max }) == whole)
    }

    /// A history the document holds whole is handed to the sink a piece at a time as it is
    /// written, as the snapshots are: a bulk insert's transaction, a change per object, is not
    /// gathered in memory first (the JSON store's save of 700,000 new objects held 100 MB of it).
    @Test(arguments: ["json", "plist"])
    func aLongHistoryIsHandedToTheSinkInPieces(format: String) throws {
        let format = try #require(DocumentFormats.named(format))
        let document = try SampleTrips.documentWithHistory(trips: 3000, seed: 3)
        final class Pieces {
            var sizes: [Int] = []
            var data = Data()
        }
        let pieces = Pieces()
        var writer = format.makeStreamWriter { bytes in
            pieces.sizes.append(bytes.count)
            pieces.data.append(contentsOf: bytes)
        }
        try writer.begin(header: document.header, schema: document.schema, history: document.history)
        let afterHistory = pieces.sizes.count
        for entity in document.schema.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            try writer.beginEntity(entity)
            for snapshot in document.orderedSnapshots where snapshot.entityName == entity.name { try writer.add(snapshot) }
            try writer.endEntity()
        }
        try writer.finish()
        let pieceSize = StructuredDocumentStreamWriter<JSONWriter>.pieceSize
        #expect(afterHistory >= 4, "the history went to the sink in \(afterHistory) pieces")
        #expect(pieces.sizes.max()! < 2 * pieceSize)
        #expect(pieces.data == (try format.writeDocument(document)))
    }

    /// A writer implementing only `begin(header:schema:history:)`, which records the history it got.
    struct RecordingWriter: DocumentStreamWriter {
        final class Seen {
            var history: DocumentHistory?
        }
        let seen = Seen()
        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws { seen.history = history }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws {}
        mutating func endEntity() throws {}
        mutating func finish() throws {}
    }

    @Test func aWriterThatDoesNotStreamGetsTheChangesInTheHistory() throws {
        let document = try SampleTrips.documentWithHistory(trips: 5, seed: 3)
        var writer = RecordingWriter()
        let (history, changes) = split(document.history, holding: { $0 + 1 })
        try writer.begin(header: document.header, schema: document.schema, history: history, changes: changes)
        #expect(writer.seen.history == document.history)
    }

    /// The property list's limit on the length of one element holds for a streamed change as
    /// for a held one.
    @Test func aStreamedChangeTooLongForAPropertyListIsRefusedAsAHeldOne() throws {
        var document = SampleTrips.document(trips: 1, seed: 3)
        let trip = document.identifier(entityName: "Trip", primaryKey: "1")
        document.history = DocumentHistory(transactions: [
            HistoryTransactionRecord(
                transactionIdentifier: 1, timestamp: Date(timeIntervalSinceReferenceDate: 0),
                changes: [.delete(trip, tombstone: ["name": .string(String(repeating: "a", count: PlistFormat.maximumValueLength + 1))])])
        ])
        let held = #expect(throws: DocumentWriteError.self) { try PlistFormat().writeDocument(document) }
        let streamed = #expect(throws: DocumentWriteError.self) { try written(document, as: PlistFormat(), holding: { _ in 0 }) }
        #expect(held?.description.contains("history transaction 1") == true)
        #expect(streamed?.description == held?.description)
    }
}
