import Foundation
import Testing
import TripDocBundle
import TripDocCore

/// Each entry's local header must name and size it as the central directory does, byte for
/// byte, whatever libarchive would report (FORMATS 8.7, step 2): a bundle whose local header
/// disagrees is refused before anything is inflated. A non-ASCII name with bit 11 set, which
/// libarchive does not report, was let through.
@Suite struct ZipLocalHeaderTests {
    let bundle = BundleFormat()

    /// A valid bundle of one entity, `Café`, whose snapshot entry `snapshots/Café.json` has a
    /// name that is not ASCII.
    func bytes() throws -> [UInt8] {
        let schema = Schema([Schema.Entity(name: "Café", attributes: [.init("name", .string)])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: "Café", primaryKey: "1"),
                values: ["name": .string("espresso")])
        ]
        document.header.nextPrimaryKeys = ["Café": 2]
        return [UInt8](try bundle.writeDocument(document))
    }

    /// Where the local header of the entry `name` starts.
    func localHeader(of name: String, in bytes: [UInt8]) throws -> Int {
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        let nameBytes = Array(name.utf8)
        func isHeader(_ at: Int) -> Bool {
            guard bytes[at..<at + 4].elementsEqual(signature) else { return false }
            let length = Int(bytes[at + 26]) | Int(bytes[at + 27]) << 8
            guard length == nameBytes.count, at + 30 + length <= bytes.count else { return false }
            return bytes[(at + 30)..<(at + 30 + length)].elementsEqual(nameBytes)
        }
        let found: Int? = (0..<(bytes.count - 30)).first(where: isHeader)
        return try #require(found)
    }

    func readError(_ bytes: [UInt8]) throws -> DocumentReadError {
        try #require(throws: DocumentReadError.self) { try bundle.readDocument(from: Data(bytes), file: "cafe.tripbundle") }
    }

    @Test func theUnchangedBundleReads() throws {
        #expect(try bundle.readDocument(from: Data(bytes()), file: "cafe.tripbundle").snapshots.count == 1)
    }

    /// `snapshots/Café.json` (bit 11 set) named `snapshots/Cafè.json` in its local header.
    @Test func aLocalHeaderThatNamesANonASCIIEntryOtherwiseIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "snapshots/Café.json", in: bytes)
        #expect(bytes[header + 7] & 0x08 != 0, "bit 11 is set for a name that is not ASCII")
        let accent = header + 30 + "snapshots/Caf".utf8.count + 1
        #expect(bytes[accent] == 0xA9)
        bytes[accent] = 0xA8
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its local header names it 'snapshots/Cafè.json', unlike the central directory", "\(error)")
        #expect(error.location?.entry == "snapshots/Café.json")
    }

    @Test func aLocalHeaderThatNamesAnASCIIEntryOtherwiseIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "manifest.json", in: bytes)
        bytes[header + 30] = UInt8(ascii: "n")
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its local header names it 'nanifest.json', unlike the central directory", "\(error)")
    }

    @Test func aLocalHeaderThatSizesTheEntryOtherwiseIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "snapshots/Café.json", in: bytes)
        bytes[header + 22] &+= 1
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its local header and the central directory disagree on its size", "\(error)")
    }

    @Test func aLocalHeaderWithAnotherCRCIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "snapshots/Café.json", in: bytes)
        bytes[header + 14] ^= 0x01
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its local header and the central directory disagree on its CRC-32", "\(error)")
    }

    /// tripdoc's writer (libarchive's) sets bit 3 and writes a data descriptor after each
    /// entry's data, as well as the sizes in the local header; the descriptor must agree too.
    @Test func aDataDescriptorThatSizesTheEntryOtherwiseIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "snapshots/Café.json", in: bytes)
        #expect(bytes[header + 6] & 0x08 != 0, "bit 3: a data descriptor follows the data")
        // The descriptor with its signature: CRC-32, then 4-byte compressed and uncompressed sizes.
        let signature: [UInt8] = [0x50, 0x4B, 0x07, 0x08]
        let descriptor = try #require((header..<(bytes.count - 16)).first { bytes[$0..<$0 + 4].elementsEqual(signature) })
        bytes[descriptor + 12] &+= 1
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its data descriptor and the central directory disagree on its CRC-32 or sizes", "\(error)")
    }

    @Test func anEntryWithoutALocalHeaderIsRefused() throws {
        var bytes = try bytes()
        let header = try localHeader(of: "snapshots/Café.json", in: bytes)
        bytes[header + 3] = 0x08
        let error = try readError(bytes)
        #expect(error.message == "the archive is damaged: its local header is missing", "\(error)")
    }
}
