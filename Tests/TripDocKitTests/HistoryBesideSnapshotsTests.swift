import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// Reading a whole JSON document reads its history on one core while it reads the snapshots on
/// the other: the document is the same as read in one pass, and an error in the history, which
/// comes first in the file, is the one reported, whatever else is wrong after it.
@Suite struct HistoryBesideSnapshotsTests {
    @Test func aDocumentReadsTheSameWithItsHistoryReadBeside() throws {
        let document = try SampleTrips.documentWithHistory(trips: 40)
        let data = try JSONFormat().writeDocument(document)
        let read = try JSONFormat().readDocument(from: data, file: "story.json")
        #expect(read == document)
        #expect(read.history.transactions.count == document.history.transactions.count)
        // The streaming read, which hands the history over first, agrees.
        var collector = CollectingInOrder()
        try JSONFormat().readDocument(from: data, file: "story.json", limits: .standard, into: &collector)
        #expect(collector.historyCameFirst)
        #expect(collector.document == document)
    }

    @Test func anErrorInTheHistoryIsReportedBeforeOneInTheSnapshots() throws {
        let document = try SampleTrips.documentWithHistory(trips: 5)
        var text = String(decoding: try JSONFormat().writeDocument(document), as: UTF8.self)
        let change = try #require(text.range(of: "\"kind\":\"insert\""))
        text.replaceSubrange(change, with: "\"kind\":\"inserted\"")
        let value = try #require(text.range(of: "\"hasReservation\":true"))
        text.replaceSubrange(value, with: "\"hasReservation\":3")
        let error = try #require(throws: DocumentReadError.self) {
            try JSONFormat().readDocument(from: Data(text.utf8), file: "story.json")
        }
        #expect(error.keyPath?.hasPrefix("history.") ?? false, "\(error)")
        #expect("\(error)".contains("inserted"), "\(error)")

        // With the history intact, the snapshot's error is reported.
        let intact = text.replacingOccurrences(of: "\"kind\":\"inserted\"", with: "\"kind\":\"insert\"")
        let second = try #require(throws: DocumentReadError.self) {
            try JSONFormat().readDocument(from: Data(intact.utf8), file: "story.json")
        }
        #expect(second.keyPath?.hasPrefix("snapshots.BucketListItem") ?? false, "\(second)")
    }

    /// A sink that keeps the document and notes whether the history came with `begin`.
    struct CollectingInOrder: DocumentDecodingSink {
        var document: Document?
        var historyCameFirst = false

        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            historyCameFirst = history != nil
            document = Document(header: header, schema: schema, history: history ?? DocumentHistory())
        }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws { document!.snapshots.append(snapshot) }
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
        mutating func lateHistory(_ history: DocumentHistory) throws { document!.history = history }
    }
}
