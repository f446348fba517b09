import Foundation
import Testing
import TripDoc
import TripDocKit

/// A document read on a thread of its own and taken record by record (`DocumentRecordStream`,
/// what `diff` merges): entity by entity in document order, only the entities chosen, an
/// error after the records before it, and a reading that can be stopped.
@Suite struct DocumentRecordStreamTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    func stream(_ data: Data, in format: any DocumentFormat) -> DocumentRecordStream {
        DocumentRecordStream.start { feeder in
            try format.readDocument(from: data, file: "document", limits: .standard, into: &feeder)
        }
    }

    @Test(arguments: formats)
    func recordsComeEntityByEntityInDocumentOrder(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 1_500)
        let stream = stream(try format.writeDocument(document), in: format)
        defer { stream.cancel() }
        let begun = try stream.begin()
        #expect(begun.header.storeIdentifier == document.storeIdentifier)
        #expect(begun.schema.entities.map(\.name) == document.schema.entities.map(\.name))
        stream.choose(entities: nil)
        var names: [String] = []
        while let entity = try stream.nextEntity() {
            names.append(entity.name)
            var records: [SnapshotRecord] = []
            while let record = try stream.nextRecord() { records.append(record) }
            #expect(records.map(\.snapshot) == document.snapshots(of: entity.name), "\(entity.name)")
            let first = try #require(records.first)
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                #expect(records.allSatisfy { $0.position(of: name) == first.position(of: name) })
            }
        }
        #expect(names == ["BucketListItem", "LivingAccommodation", "Trip"])
        #expect(try stream.nextEntity() == nil)
    }

    @Test(arguments: formats)
    func onlyTheChosenEntitiesAreHandedOver(format: any DocumentFormat) throws {
        let document = SampleTrips.document(trips: 200)
        let stream = stream(try format.writeDocument(document), in: format)
        defer { stream.cancel() }
        _ = try stream.begin()
        stream.choose(entities: ["Trip"])
        let entity = try #require(try stream.nextEntity())
        #expect(entity.name == "Trip")
        var count = 0
        while try stream.nextRecord() != nil { count += 1 }
        #expect(count == 200)
        #expect(try stream.nextEntity() == nil)
    }

    @Test func anErrorComesAfterTheRecordsReadBeforeIt() throws {
        let data = try JSONFormat().writeDocument(SampleTrips.document(trips: 2_000))
        let stream = stream(data.prefix(data.count * 3 / 4), in: JSONFormat())
        defer { stream.cancel() }
        _ = try stream.begin()
        stream.choose(entities: nil)
        var count = 0
        let error = #expect(throws: DocumentReadError.self) {
            while try stream.nextEntity() != nil {
                while try stream.nextRecord() != nil { count += 1 }
            }
        }
        #expect(count > 2_000)
        // The error stays: every later call, and the reading to the end, give it again.
        #expect(throws: DocumentReadError.self) { try stream.nextEntity() }
        #expect(stream.errorAtTheEnd().map { "\($0)" } == error.map { "\($0)" })
    }

    @Test func cancellingStopsTheReaderWhereverItWaits() throws {
        let data = try JSONFormat().writeDocument(SampleTrips.document(trips: 3_000))
        // Before the choice of entities.
        let waitingForChoice = stream(data, in: JSONFormat())
        _ = try waitingForChoice.begin()
        waitingForChoice.cancel()
        // With the queue full.
        let full = stream(data, in: JSONFormat())
        _ = try full.begin()
        full.choose(entities: nil)
        _ = try full.nextEntity()
        _ = try full.nextRecord()
        full.cancel()
        // An error found without a choice reads on to the end.
        let unchosen = stream(data, in: JSONFormat())
        #expect(unchosen.errorAtTheEnd() == nil)
        unchosen.cancel()
    }
}
