import Foundation
import Testing
import TripDoc
import TripDocKit

/// `SampleTrips.write` (what `tripdoc sample` runs) makes the sample snapshot by snapshot and
/// hands it to the format's stream writer, never holding the document: its bytes are those the
/// whole-document generator gave (``LegacySampleTrips``, the generator as it was) written by the
/// format's whole-document writer, in every format, at every size, with and without history.
@Suite struct SampleStreamingTests {
    static let formats = DocumentFormats.names

    /// The bytes `SampleTrips.write` hands the stream writer of `format`.
    func streamed(_ format: String, trips: Int, seed: UInt64, history: Bool = false) throws -> Data {
        let format = try #require(DocumentFormats.named(format))
        let bytes = Bytes()
        var writer = format.makeStreamWriter { bytes.data.append(contentsOf: $0) }
        try SampleTrips.write(trips: trips, seed: seed, history: history, to: &writer)
        return bytes.data
    }

    /// What the sink collects.
    final class Bytes {
        var data = Data()
    }

    @Test(arguments: formats, [0, 1, 2, 7, 250, 3000])
    func theStreamedSampleIsTheWholeDocumentsBytes(format: String, trips: Int) throws {
        let writer = try #require(DocumentFormats.named(format))
        for seed: UInt64 in [1, 8] {
            let whole = try writer.writeDocument(LegacySampleTrips.document(trips: trips, seed: seed))
            #expect(try streamed(format, trips: trips, seed: seed) == whole, "\(trips) trips, seed \(seed)")
        }
    }

    @Test(arguments: formats, [0, 1, 2, 7, 250, 3000])
    func theStreamedStoryIsTheStoreEnginesBytes(format: String, trips: Int) throws {
        let writer = try #require(DocumentFormats.named(format))
        for seed: UInt64 in [1, 8] {
            let whole = try writer.writeDocument(LegacySampleTrips.documentWithHistory(trips: trips, seed: seed))
            #expect(try streamed(format, trips: trips, seed: seed, history: true) == whole, "\(trips) trips, seed \(seed)")
        }
    }

    /// The story adds a place to stay to the last trip; when that trip had none, no place to
    /// stay is left out of the first save, and with one trip the trip the app deletes is the
    /// one the widget changed.
    @Test(arguments: formats, [1, 2, 5])
    func theStoryIsTheSameWhenTheLastTripHadNoPlaceToStay(format: String, trips: Int) throws {
        let writer = try #require(DocumentFormats.named(format))
        let seed = try #require(
            (UInt64(1)...500).first { seed in
                let document = LegacySampleTrips.document(trips: trips, seed: seed)
                let last = document.identifier(entityName: "Trip", primaryKey: String(trips))
                return document.snapshots.first { $0.persistentIdentifier == last }?["livingAccommodation"] == .null
            })
        let whole = try writer.writeDocument(LegacySampleTrips.documentWithHistory(trips: trips, seed: seed))
        #expect(try streamed(format, trips: trips, seed: seed, history: true) == whole)
        #expect(try streamed(format, trips: trips, seed: seed) == writer.writeDocument(LegacySampleTrips.document(trips: trips, seed: seed)))
    }

    /// Enough trips that drawn names and dates collide and are drawn again (about 14 times
    /// at 20,000 trips): the taken combinations are the ones the old generator's set of names
    /// and dates held.
    @Test func tripsWhoseNameAndDatesAreTakenAreDrawnAgainAsBefore() throws {
        let whole = try JSONFormat().writeDocument(LegacySampleTrips.document(trips: 20_000, seed: 2))
        #expect(try streamed("json", trips: 20_000, seed: 2) == whole)
    }

    @Test func theWholeDocumentsAreTheOldGeneratorsDocuments() throws {
        #expect(SampleTrips.document(trips: 400, seed: 6) == LegacySampleTrips.document(trips: 400, seed: 6))
        #expect(try SampleTrips.documentWithHistory(trips: 40, seed: 6) == LegacySampleTrips.documentWithHistory(trips: 40, seed: 6))
    }
}
