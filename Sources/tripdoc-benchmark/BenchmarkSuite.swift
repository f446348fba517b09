import Foundation
import TripDoc
import TripDocKit

/// `tripdoc-benchmark suite`: the cost of each operation per snapshot at several document sizes,
/// best of `repeats` runs, so that growth that is not linear shows as drift between the sizes.
struct BenchmarkSuite {
    let sizes: [Int]
    let repeats: Int

    /// One measured operation: its name and, per size, microseconds per snapshot.
    private struct Row {
        var name: String
        var costs: [Double] = []
    }

    func run() throws {
        var rows: [String: Row] = [:]
        var order: [String] = []
        var counts: [Int] = []
        func record(_ name: String, _ microseconds: Double) {
            if rows[name] == nil {
                rows[name] = Row(name: name)
                order.append(name)
            }
            rows[name]!.costs.append(microseconds)
        }
        for trips in sizes {
            let document = SampleTrips.document(trips: trips)
            let count = Double(document.snapshots.count)
            counts.append(document.snapshots.count)
            var encoded: [String: Data] = [:]
            for format in DocumentFormats.all {
                var bytes = Data()
                record("write \(format.name)", try best { bytes = try format.writeDocument(document) } / count * 1e6)
                encoded[format.name] = bytes
                record("read \(format.name)", try best { _ = try format.readDocument(from: bytes, file: "bench") } / count * 1e6)
            }
            // The sample made and written as it is made (`tripdoc sample`), against "write" of
            // the same document already in memory.
            for format in DocumentFormats.all {
                let time = try best {
                    var written = 0
                    var writer = format.makeStreamWriter { written += $0.count }
                    try SampleTrips.write(trips: trips, to: &writer)
                }
                record("sample \(format.name) (streamed)", time / count * 1e6)
            }
            for (from, to) in [("json", "plist"), ("plist", "bundle"), ("bundle", "json")] {
                let source = encoded[from]!
                let input = DocumentFormats.named(from)!
                let output = DocumentFormats.named(to)!
                let time = try best {
                    var written = 0
                    _ = try DocumentStreamConversion.convert(
                        source, path: "bench.\(from)", format: input, limits: .standard, to: output,
                        storeIdentifier: "BENCH", wantsRemapTable: false, sink: { written += $0.count })
                }
                record("convert \(from) -> \(to) (one pass)", time / count * 1e6)
            }
            var changed = document
            for index in stride(from: 0, to: changed.snapshots.count, by: 100) where changed.snapshots[index].entityName == "Trip" {
                changed.snapshots[index]["destination"] = .string("Elsewhere")
            }
            // As `tripdoc diff` holds them: records (reading is measured above).
            let a = DocumentRecords(document)
            let b = DocumentRecords(changed)
            record("diff (records in memory)", try best { _ = try DocumentDiff(a, at: "a.json", b, at: "b.json") } / count * 1e6)
            var trip = document.snapshots.first { $0.entityName == "Trip" }!
            trip["destination"] = .string("Saved")
            let request = DataStoreSaveChangesRequest(editingState: EditingState(author: "benchmark"), updated: [trip])
            record(
                "engine save of one update",
                try best {
                    var copy = document
                    try copy.applySaveChanges(request, timestamp: Date(timeIntervalSinceReferenceDate: 0))
                } / count * 1e6)
        }
        print("microseconds per snapshot (best of \(repeats)), by document size in snapshots; drift = largest size / smallest")
        let header = ["operation".padding(toLength: 36, withPad: " ", startingAt: 0)]
            + counts.map { String(repeating: " ", count: max(0, 12 - "\($0)".count)) + "\($0)" } + ["   drift"]
        print(header.joined())
        for name in order {
            let row = rows[name]!
            let drift = (row.costs.last ?? 0) / max(row.costs.first ?? 1, 1e-9)
            print(
                name.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + row.costs.map { String(format: "%12.3f", $0) }.joined() + String(format: "%8.2fx", drift))
        }
    }

    private func best(_ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }
}
