import Foundation
import Testing
import TripDoc
import TripDocKit

/// `tripdoc show` reads only what it shows.
@Suite struct SnapshotSelectionTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    func select(_ data: Data, _ format: any DocumentFormat, entity: String?, limit: Int?) throws -> SnapshotSelection {
        var selection = SnapshotSelection(entityName: entity, limit: limit)
        try format.readDocument(from: data, file: "doc.\(format.name)", limits: .standard, into: &selection)
        return selection
    }

    @Test func keepsTheFirstSnapshotsOfEachEntityAndCountsTheRest() throws {
        let document = SampleTrips.document(trips: 50)
        for format in Self.formats {
            let data = try format.writeDocument(document)
            let selection = try select(data, format, entity: nil, limit: 3)
            for entity in document.schema.entities {
                let all = document.snapshots(of: entity.name)
                #expect(selection.snapshots[entity.name] == Array(all.prefix(3)), "\(format.name) \(entity.name)")
                #expect(selection.totals[entity.name] == all.count, "\(format.name) \(entity.name)")
            }
            let trips = try select(data, format, entity: "Trip", limit: nil)
            #expect(trips.snapshots.keys.sorted() == ["Trip"])
            #expect(trips.snapshots["Trip"] == document.snapshots(of: "Trip"))
        }
    }

    @Test func aBundleEntryOfAnotherEntityIsNotEvenInflated() throws {
        var data = try BundleFormat().writeDocument(SampleTrips.document(trips: 50))
        // Damage the deflated bytes of the bucket-list items' entry (its local header comes first).
        let name = Array("snapshots/BucketListItem.json".utf8)
        let bytes = [UInt8](data)
        let nameStart = try #require((0...(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name })
        let header = nameStart - 30
        let extra = Int(bytes[header + 28]) | Int(bytes[header + 29]) << 8
        let contents = header + 30 + name.count + extra
        data[contents + 10] ^= 0xFF
        #expect(throws: DocumentReadError.self) { _ = try select(data, BundleFormat(), entity: nil, limit: 1) }
        let trips = try select(data, BundleFormat(), entity: "Trip", limit: 2)
        #expect(trips.snapshots["Trip"]?.count == 2)
        #expect(trips.totals["Trip"] == 50)
    }

    /// A limit keeps the first snapshots by primary key; when a later one turns out smaller,
    /// the selection says so (and `show` reads the whole document instead).
    @Test func aSmallerKeyAmongTheSkippedOnesIsNoticed() throws {
        let document = SampleTrips.document(trips: 5)
        var object = try JSONSerialization.jsonObject(with: JSONFormat().writeDocument(document)) as! [String: Any]
        var snapshots = object["snapshots"] as! [String: [Any]]
        snapshots["Trip"]!.append(snapshots["Trip"]!.removeFirst())  // Trip/1 last
        object["snapshots"] = snapshots
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONFormat().readDocument(from: data, file: "moved.json").snapshots.count == document.snapshots.count)
        #expect(throws: SnapshotSelection.OutOfOrder.self) {
            _ = try select(data, JSONFormat(), entity: "Trip", limit: 2)
        }
    }
}

