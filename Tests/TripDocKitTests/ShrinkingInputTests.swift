import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A document file that shrinks while it is mapped and read (rewritten in place, truncated by a
/// log rotation) is reported as such, never a SIGBUS that stops the process, and nothing made
/// from the zeros that replace its lost pages is handed on.
@Suite struct ShrinkingInputTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("shrinking") }

    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// A document of several hundred kilobytes, mapped, then cut to `length` bytes.
    func mappedThenCut(in format: any DocumentFormat, to length: off_t) throws -> (Data, String) {
        let path = scratch.file("trips.\(format.fileExtensions[0])").path
        try format.writeDocument(SampleTrips.document(trips: 2000)).write(to: URL(fileURLWithPath: path))
        let data = try DocumentFileReader.contents(of: path, mapped: true)
        #expect(data.count > 100_000)
        #expect(truncate(path, length) == 0)
        return (data, path)
    }

    @Test(arguments: formats, [0, 4096, 60_000] as [off_t])
    func readingAFileCutShortIsAnErrorNamingIt(format: any DocumentFormat, length: off_t) throws {
        let (data, path) = try mappedThenCut(in: format, to: length)
        #expect(throws: FileReadError.shrankWhileRead(path: path)) { try DocumentFile.read(data, path: path) }
    }

    @Test(arguments: formats)
    func everyWayOfReadingReportsIt(format: any DocumentFormat) throws {
        let (data, path) = try mappedThenCut(in: format, to: 8192)
        #expect(throws: FileReadError.shrankWhileRead(path: path)) {
            try DocumentFileReader.reading(data, path: path) {
                var records = DocumentRecordCollector()
                try format.readDocument(from: data, file: path, limits: .standard, into: &records)
            }
        }
        #expect(throws: FileReadError.shrankWhileRead(path: path)) {
            try DocumentFileReader.reading(data, path: path) { try DocumentFile.format(of: data, path: path) }
        }
    }

    @Test func aFileThatKeepsItsSizeReadsAsUsual() throws {
        let path = scratch.file("trips.json").path
        let document = SampleTrips.document(trips: 200)
        try JSONFormat().writeDocument(document).write(to: URL(fileURLWithPath: path))
        let data = try DocumentFileReader.contents(of: path, mapped: true)
        #expect(try DocumentFile.read(data, path: path).document == document)
    }
}
