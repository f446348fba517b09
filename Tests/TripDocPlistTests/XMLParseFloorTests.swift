import Foundation
import Testing
import TripDocCore
@_spi(Benchmark) import TripDocPlist

/// The benchmark's floor for reading a property list (`tripdoc-benchmark xml-parse`): libxml2's
/// parse alone, configured and fed as tripdoc's reader has it, timed.
@Suite struct XMLParseFloorTests {
    @Test func libxml2AloneParsesWhatTripdocWritesAndTellsWhatIsNotWellFormed() throws {
        var bytes = try PlistFormat().writeDocument(PlistReadAheadTests.largeDocument())
        #expect(bytes.count > 12 * (1 << 18))
        let measured = XMLParseFloor.measure(parsing: bytes)
        #expect(measured.isWellFormed)
        #expect(measured.cpuSeconds > 0)
        // A broken end tag three quarters in, past the first chunks.
        let target = try #require(bytes.range(of: Data("</string>".utf8), in: (bytes.count * 3 / 4)..<bytes.count))
        bytes.replaceSubrange(target, with: Data("</strin>!".utf8))
        #expect(!XMLParseFloor.measure(parsing: bytes).isWellFormed)
        #expect(!XMLParseFloor.measure(parsing: Data("<plist><dict></plist>".utf8)).isWellFormed)
    }
}
