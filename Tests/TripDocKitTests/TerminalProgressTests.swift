import Foundation
import Testing
import TripDoc
@testable import TripDocKit

/// The progress line of long conversions, fed by the shared coding.
@Suite struct TerminalProgressTests {
    final class Lines: @unchecked Sendable {
        var text = ""
    }

    @Test func writingADocumentReportsEveryEntityAndSnapshot() throws {
        let lines = Lines()
        let progress = TerminalProgress { lines.text += $0 }
        let document = SampleTrips.document(trips: 2000)
        progress.begin("writing big.json", total: document.snapshots.count)
        _ = try CodingProgress.$observer.withValue(progress) { try JSONFormat().writeDocument(document) }
        progress.begin("reading big.json")
        let bytes = try JSONFormat().writeDocument(document)
        _ = try CodingProgress.$observer.withValue(progress) { try JSONFormat().readDocument(from: bytes, file: "big.json") }
        progress.finish()
        #expect(lines.text.contains("tripdoc: writing big.json: 0 entities, 0 of \(document.snapshots.count) snapshots (0%"))
        #expect(lines.text.hasSuffix("\r\u{1B}[K"))
        #expect(TerminalProgress.forStandardError(environment: ["TRIPDOC_PROGRESS": "0"]) == nil)
        #expect(TerminalProgress.forStandardError(environment: ["TRIPDOC_PROGRESS": "1"]) != nil)
    }

    @Test func theCountsAddUpToTheDocument() throws {
        final class Counter: CodingProgressObserver, @unchecked Sendable {
            var snapshots = 0
            var entities = 0
            func advance(snapshots: Int, finishedEntity: Bool) {
                self.snapshots += snapshots
                if finishedEntity { entities += 1 }
            }
        }
        let document = SampleTrips.document(trips: 3000)
        for format in [JSONFormat(), PlistFormat(), BundleFormat()] as [any DocumentFormat] {
            let writing = Counter()
            let bytes = try CodingProgress.$observer.withValue(writing) { try format.writeDocument(document) }
            let reading = Counter()
            _ = try CodingProgress.$observer.withValue(reading) { try format.readDocument(from: bytes, file: "x") }
            #expect(writing.snapshots == document.snapshots.count, "\(format.name)")
            #expect(reading.snapshots == document.snapshots.count, "\(format.name)")
            #expect(writing.entities == document.schema.entities.count && reading.entities == writing.entities)
        }
    }

    @Test func readersReportTheBytesTheyReadAMegabyteAtATime() throws {
        final class Bytes: CodingProgressObserver, @unchecked Sendable {
            var reports: [Int] = []
            func advance(snapshots: Int, finishedEntity: Bool) {}
            func advance(inputBytes bytes: Int) { reports.append(bytes) }
        }
        let document = SampleTrips.document(trips: 5000)
        for format in [JSONFormat(), PlistFormat()] as [any DocumentFormat] {
            let data = try format.writeDocument(document)
            let bytes = Bytes()
            _ = try CodingProgress.$observer.withValue(bytes) { try format.readDocument(from: data, file: "x") }
            let read = bytes.reports.reduce(0, +)
            #expect(bytes.reports.allSatisfy { $0 >= 1 << 20 }, "\(format.name)")
            #expect(read <= data.count && read > data.count - (1 << 20), "\(format.name): \(read) of \(data.count)")
        }
    }

    @Test func theLineOfAnInputOfKnownSizeGivesTheBytesTheRateAndTheTimeLeft() {
        let lines = Lines()
        let progress = TerminalProgress { lines.text = $0 }
        progress.begin("reading trips.json", inputBytes: 100_000_000)
        progress.advance(inputBytes: 25_000_000)
        progress.advance(snapshots: 4096, finishedEntity: true)
        let line = progress.line(now: Date().addingTimeInterval(0.5))
        #expect(line.hasPrefix("tripdoc: reading trips.json: 25.0 of 100.0 MB (25%, "))
        #expect(line.hasSuffix(" s left), 1 entity, 4096 snapshots"))
    }
}
