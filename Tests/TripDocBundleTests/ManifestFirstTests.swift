import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore

/// A bundle's manifest is read, and the archive's entries checked against it, before any other
/// entry is inflated: entries it does not list are refused unread, so that a bomb of many small
/// entries (each under the compression-ratio check's threshold) costs nothing to refuse.
@Suite struct ManifestFirstTests {
    let bundle = BundleFormat()

    /// A valid bundle with `count` entries the manifest does not list, each 1 MiB of zeros, the
    /// deflated bytes of the last one damaged.
    func bundleWithUnlistedEntries(_ count: Int) throws -> Data {
        let schema = Schema([Schema.Entity(name: "Trip", attributes: [.init("name", .string)])])
        var entries = try ZipArchive.entries(
            of: try bundle.writeDocument(Document.empty(schema: schema, storeIdentifier: "S")), limits: .standard)
        for index in 0..<count {
            entries.append(.init(name: "external/" + String(repeating: "0", count: 60) + String(format: "%04x", index), data: Data(count: 1 << 20)))
        }
        var bytes = [UInt8](try ZipArchive.archive(entries))
        // Damage the last entry's deflated bytes, after its local header (30 bytes and the name).
        let name = Array(entries.last!.name.utf8)
        let nameStart = try #require(
            (0...(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        let header = nameStart - 30
        let extra = Int(bytes[header + 28]) | Int(bytes[header + 29]) << 8
        let contents = header + 30 + name.count + extra
        for offset in 0..<8 { bytes[contents + offset] ^= 0xFF }
        return Data(bytes)
    }

    @Test func entriesTheManifestDoesNotListAreRefusedBeforeTheyAreInflated() throws {
        let data = try bundleWithUnlistedEntries(64)
        let error = try #require(throws: DocumentReadError.self) { try bundle.readDocument(from: data, file: "bomb.tripbundle") }
        // Not the damage of the last entry, which inflating it would have met first.
        #expect(error.message == "the archive holds an entry the manifest does not list", "\(error)")
        #expect(error.location?.entry?.hasPrefix("external/") == true)
    }
}

/// A manifest that does not decode says where and what was expected, not Swift's debug text.
@Suite struct ManifestMessageTests {
    @Test func aManifestOfTheWrongShapeNamesTheMemberAndWhatWasExpected() throws {
        let bundle = BundleFormat()
        let schema = Schema([Schema.Entity(name: "Trip", attributes: [.init("name", .string)])])
        var entries = try ZipArchive.entries(
            of: try bundle.writeDocument(Document.empty(schema: schema, storeIdentifier: "S")), limits: .standard)
        let index = try #require(entries.firstIndex { $0.name == BundleManifest.entryName })
        var manifest = try #require(try JSONSerialization.jsonObject(with: entries[index].data) as? [String: Any])
        var listed = try #require(manifest["entries"] as? [[String: Any]])
        listed[0]["size"] = "large"
        manifest["entries"] = listed
        entries[index].data = try JSONSerialization.data(withJSONObject: manifest)
        let error = try #require(throws: DocumentReadError.self) {
            try bundle.readDocument(from: try ZipArchive.archive(entries), file: "m.tripbundle")
        }
        #expect(error.message.hasPrefix("the manifest is not valid: at entries[0].size: expected Int ("), "\(error.message)")
        #expect(!error.message.contains("DecodingError"))
    }
}
