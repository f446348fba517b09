// Prints how fast each format reads and writes a document, in MB/s of the document's bytes.
//   tripdoc-benchmark FILE [--repeat N]
// Build it optimised: swift build -c release --product tripdoc-benchmark
import Foundation
import TripDoc
import TripDocKit

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: tripdoc-benchmark FILE [--repeat N]\n".utf8))
    exit(2)
}
let repeats = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[$0 + 1]) } ?? 3

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

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
