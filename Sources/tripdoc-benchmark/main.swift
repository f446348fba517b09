// Prints how fast each format reads and writes a document, in MB/s of the document's bytes.
//   tripdoc-benchmark FILE [--repeat N]
//   tripdoc-benchmark --history N    history cost: N saves through the engine (each renaming one
//                                    trip of a 100-trip sample), bytes per transaction and read time
//   tripdoc-benchmark xml-parse FILE libxml2's parse of a property list alone (no callback doing
//                                    anything, as tripdoc feeds it): its CPU seconds, for the floor
//                                    scripts/compare-peers prints
//   tripdoc-benchmark suite [--trips 1430,14300,143000] [--repeat N]
//                                    read, write, one-pass convert and streamed sample per
//                                    format, diff and one engine save, at several sizes (about
//                                    10k, 100k and 1M snapshots), in microseconds per snapshot,
//                                    and how far the per-snapshot cost drifts from the smallest
//                                    size to the largest
// Build it optimised: swift build -c release --product tripdoc-benchmark
// It runs on jemalloc, as the tool does (Sources/CJemalloc).
import CJemalloc
import Foundation
import TripDoc
import TripDocKit
@_spi(Benchmark) import TripDocPlist

let arguments = CommandLine.arguments.dropFirst()

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

if arguments.first == "suite" {
    let sizes = arguments.firstIndex(of: "--trips").map { arguments[$0 + 1].split(separator: ",").compactMap { Int($0) } }
        ?? [1430, 14300, 143000]
    let repeats = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[$0 + 1]) } ?? 3
    do {
        try BenchmarkSuite(sizes: sizes, repeats: repeats).run()
    } catch {
        FileHandle.standardError.write(Data("tripdoc-benchmark: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}
if arguments.first == "xml-parse" {
    guard let path = arguments.dropFirst().first, let data = try? DocumentFileReader.contents(of: path) else {
        FileHandle.standardError.write(Data("usage: tripdoc-benchmark xml-parse FILE (a readable file)\n".utf8))
        exit(2)
    }
    let measurement = XMLParseFloor.measure(parsing: data)
    guard measurement.isWellFormed else {
        FileHandle.standardError.write(Data("tripdoc-benchmark: \(path) is not well-formed XML\n".utf8))
        exit(2)
    }
    print(String(format: "%.3f", measurement.cpuSeconds))
    exit(0)
}
if arguments.first == "--history", let count = arguments.dropFirst().first.flatMap({ Int($0) }) {
    do {
        var document = SampleTrips.document(trips: 100)
        let before = try JSONFormat().writeDocument(document).count
        let trips = document.snapshots.filter { $0.entityName == "Trip" }
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            var trip = trips[index % trips.count]
            trip["destination"] = .string("Destination \(index)")
            _ = try document.applySaveChanges(
                DataStoreSaveChangesRequest(editingState: EditingState(author: "benchmark"), updated: [trip]),
                timestamp: Date(timeIntervalSinceReferenceDate: 757_382_400 + Double(index)))
        }
        let applied = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print("\(count) saves applied in memory in \(String(format: "%.2f", applied)) s")
        for format in DocumentFormats.all {
            let bytes = try format.writeDocument(document)
            let empty = format.name == "json" ? before : try format.writeDocument(SampleTrips.document(trips: 100)).count
            let read = try (0..<3).map { _ in try seconds { _ = try format.readDocument(from: bytes, file: "history") } }.min()!
            print(
                "\(format.name): \(bytes.count) bytes, \(String(format: "%.1f", Double(bytes.count - empty) / Double(count))) "
                    + "bytes per transaction, read in \(String(format: "%.2f", read)) s")
        }
    } catch {
        FileHandle.standardError.write(Data("tripdoc-benchmark: \(error)\n".utf8))
        exit(2)
    }
    exit(0)
}
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: tripdoc-benchmark FILE [--repeat N] | suite [--trips N,N,…] [--repeat N] | --history N | xml-parse FILE\n".utf8))
    exit(2)
}
let repeats = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[$0 + 1]) } ?? 3

do {
    let data = try DocumentFileReader.contents(of: path)
    let megabytes = Double(data.count) / 1_000_000
    guard let format = DocumentFormats.recognizing(data) else { throw TripDocError.unrecognizedFormat(path: path, start: "?") }
    var document = try format.readDocument(from: data, file: path)
    print("file: \(path), \(String(format: "%.1f", megabytes)) MB, \(document.snapshots.count) snapshots")
    for target in DocumentFormats.all {
        var written = Data()
        let write = try (0..<repeats).map { _ in try seconds { written = try target.writeDocument(document) } }.min()!
        let read = try (0..<repeats).map { _ in try seconds { document = try target.readDocument(from: written, file: path) } }.min()!
        let size = Double(written.count) / 1_000_000
        print(
            "\(target.name): read \(String(format: "%.1f", size / read)) MB/s (\(String(format: "%.2f", read)) s), "
                + "write \(String(format: "%.1f", size / write)) MB/s (\(String(format: "%.2f", write)) s), "
                + "\(String(format: "%.1f", size)) MB")
    }
} catch {
    FileHandle.standardError.write(Data("tripdoc-benchmark: \(error)\n".utf8))
    exit(2)
}
