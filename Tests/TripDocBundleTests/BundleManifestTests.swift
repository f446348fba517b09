import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore
import TripDocTestSupport

@Suite struct BundleManifestTests {
    /// The entries of a bundle of the edge-case document, with `change` applied to its manifest
    /// (digests stay right, so only the manifest's own fields are wrong).
    func bundle(changingManifest change: (inout BundleManifest) -> Void) throws -> Data {
        let original = try BundleFormat().writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        change(&manifest)
        entries[0].data = try manifest.encoded()
        return try ZipArchive.archive(entries)
    }

    func readError(_ data: Data) -> DocumentReadError? {
        do {
            _ = try BundleFormat().readDocument(from: data, file: "b.tripbundle")
            return nil
        } catch {
            return error as? DocumentReadError
        }
    }

    @Test func aManifestNamingAnotherStoreIsRefused() throws {
        let error = try #require(readError(try bundle { $0.storeIdentifier = "ELSEWHERE" }))
        #expect(error.location?.entry == "manifest.json")
        #expect(error.message.contains("the manifest names store ELSEWHERE"))
    }

    @Test func aNewerBundleVersionAsksForANewerTripdoc() throws {
        let error = try #require(readError(try bundle { $0.formatVersion = 2 }))
        #expect(error.message.contains("bundle format version 2 is not one this tripdoc reads"))
    }

    @Test func aListedEntryThatIsMissingIsNamed() throws {
        let error = try #require(readError(try bundle { $0.entries.append(.init(name: "snapshots/Ghost.json", size: 2, sha256: "00")) }))
        #expect(error.location?.entry == "snapshots/Ghost.json")
        #expect(error.message == "the manifest lists the entry, but the archive does not hold it")
    }

    @Test(arguments: ["../x", "/x", "a\\b", "a//b", "./a", "C:x", ""])
    func unsafeEntryNamesAreRefused(name: String) {
        #expect(throws: ZipArchiveError.self) { try ZipArchive.checkName(name) }
    }

    @Test(arguments: ["manifest.json", "snapshots/Trip.json", "external/ab12", "folder/"])
    func ordinaryEntryNamesPass(name: String) throws {
        try ZipArchive.checkName(name)
    }
}
