import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore

/// The bundle writer deflates its entries as it makes them and writes the zip container around
/// the deflated bytes itself (``ZipWriter``). What it writes is byte for byte what libarchive's
/// zip writer made of the same entries (``ZipArchive/archive(_:)``, docs/FORMATS.md 8.6): the
/// headers, flags, times, extra fields, data descriptors and end records, the deflate stream
/// whatever the pieces the bytes came in, the entries stored past the compression-ratio cap, and
/// the zip64 end records of an archive of more than 65,535 entries.
@Suite struct ZipWriterTests {
    /// The archive ZipWriter makes of `entries`, each deflated in pieces of `pieceSize` bytes
    /// through an ``EntryCompressor`` (on its thread once a piece is large), kept in a temporary
    /// file past `spillThreshold` deflated bytes.
    static func written(_ entries: [ZipArchive.Entry], pieceSize: Int, spillThreshold: Int = 1 << 16) throws -> Data {
        let compressor = EntryCompressor()
        var deflated: [DeflatedEntry] = []
        for entry in entries {
            let spool = try DeflatedEntry(name: entry.name, spillThreshold: spillThreshold)
            try entry.data.withUnsafeBytes { bytes in
                var offset = 0
                repeat {
                    let end = min(bytes.count, offset + pieceSize)
                    try compressor.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), to: spool)
                    offset = end
                } while offset < bytes.count
            }
            try compressor.finish(spool)
            deflated.append(spool)
        }
        try compressor.finishAll()
        var bytes: [UInt8] = []
        var writer = ZipWriter(sink: { bytes.append(contentsOf: $0) })
        for spool in deflated { try writer.add(spool) }
        try writer.close()
        return Data(bytes)
    }

    /// `count` bytes of JSON-like text that deflate about as snapshots do.
    static func text(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        let words = ["{\"id\":", "\"name\":\"", "Lisbon", "Kyoto", "\",\"start\":", "},", "true", "null", ",", "7"]
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes += Array(words[Int(state >> 33) % words.count].utf8)
            bytes += Array(String(state >> 50).utf8)
        }
        return Data(bytes.prefix(count))
    }

    static func entries(_ pairs: [(String, Data)]) -> [ZipArchive.Entry] {
        pairs.map { ZipArchive.Entry(name: $0.0, data: $0.1) }
    }

    static let cases: [(label: String, entries: [ZipArchive.Entry])] = [
        ("no entries", []),
        (
            "small entries, one empty, one named in UTF-8",
            entries([
                ("manifest.json", Data("{\"format\":\"tripdoc-bundle\"}".utf8)),
                ("header.json", Data()),
                ("snapshots/Caf\u{E9}.json", text(5_000, seed: 1)),
                ("snapshots/Trip.json", text(70_000, seed: 2)),
            ])
        ),
        (
            "entries past the ratio check's threshold, deflated and stored",
            entries([
                ("snapshots/A.json", text(3 << 20, seed: 3)),
                ("external/zeros", Data(count: 2 << 20)),
                ("external/mostly-zeros", Data(count: 3 << 20) + text(4_000, seed: 4)),
                ("snapshots/B.json", text(1 << 20 + 1, seed: 5)),
            ])
        ),
    ]

    @Test(arguments: cases.indices, [1 << 12, 1 << 18, 1 << 22])
    func theBytesAreLibarchives(_ index: Int, pieceSize: Int) throws {
        let entries = Self.cases[index].entries
        let ours = try Self.written(entries, pieceSize: pieceSize)
        let libarchives = try ZipArchive.archive(entries)
        #expect(ours == libarchives, "\(Self.cases[index].label): \(ours.count) bytes, libarchive's \(libarchives.count)")
    }

    /// An entry of 2 MiB of zeros deflates 1,000 times smaller: it is stored, so that the reader's
    /// default compression-ratio cap reads it; one with enough else in it is deflated.
    @Test func anEntryTooCompressibleIsStoredAndReadsBack() throws {
        let entries = Self.entries([("zeros", Data(count: 2 << 20)), ("text", Self.text(2 << 20, seed: 6))])
        let archive = try Self.written(entries, pieceSize: 1 << 18)
        let directory = try ZipCentralDirectory(archive)
        #expect(directory.records.map(\.compressedSize) == [2 << 20, directory.records[1].compressedSize])
        #expect(directory.records[1].compressedSize < 1 << 20)
        #expect(try ZipArchive.entries(of: archive, limits: .standard).map(\.data) == entries.map(\.data))
    }

    /// More than 65,535 entries need the zip64 end records, as libarchive wrote them.
    @Test func moreThan65535EntriesHaveZip64EndRecords() throws {
        let entries = (0..<65_537).map { ZipArchive.Entry(name: "external/\($0)", data: Data("\($0)".utf8)) }
        let ours = try Self.written(entries, pieceSize: 1 << 18)
        #expect(ours == (try ZipArchive.archive(entries)))
        #expect(try ZipArchive.entries(of: ours, limits: DocumentLimits(maximumEntryCount: 70_000)).count == 65_537)
    }
}
