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

    @Test func aManifestNamingAnotherStoreIsRefused() throws {
        let error = try #require(bundleReadError(try bundle { $0.storeIdentifier = "ELSEWHERE" }))
        #expect(error.location?.entry == "manifest.json")
        #expect(error.message.contains("the manifest names store ELSEWHERE"))
    }

    /// Of a member given twice, the first copy is read (FORMATS 8.5): the same manifest with
    /// another store's identifier after the right one reads, and before it is refused.
    @Test(arguments: [true, false])
    func ofARepeatedManifestMemberTheFirstCopyIsRead(rightOneFirst: Bool) throws {
        let original = try BundleFormat().writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        #expect(entries[0].name == "manifest.json")
        let text = String(decoding: entries[0].data, as: UTF8.self)
        let member = try #require(text.firstMatch(of: /"storeIdentifier" *: *"[^"]*"/)).output
        let other = #""storeIdentifier":"ELSEWHERE""#
        entries[0].data = Data(text.replacingOccurrences(of: member, with: rightOneFirst ? "\(member),\(other)" : "\(other),\(member)").utf8)
        let data = try ZipArchive.archive(entries)
        if rightOneFirst {
            #expect(bundleReadError(data) == nil)
        } else {
            #expect(bundleReadError(data)?.message.contains("the manifest names store ELSEWHERE") == true)
        }
    }

    @Test func aNewerBundleVersionAsksForANewerTripdoc() throws {
        let error = try #require(bundleReadError(try bundle { $0.formatVersion = 2 }))
        #expect(error.message.contains("bundle format version 2 is not one this tripdoc reads"))
    }

    /// Listed with the right size and digest, but of an entity the schema does not have: the
    /// bundle is refused, not read without it.
    @Test func snapshotsOfAnEntityTheSchemaLacksAreRefused() throws {
        let original = try BundleFormat().writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        let ghost = ZipArchive.Entry(name: "snapshots/Ghost.json", data: Data("[]".utf8))
        entries.append(ghost)
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        manifest.entries.append(.init(name: ghost.name, size: ghost.data.count, sha256: BundleFormat.sha256(ghost.data)))
        entries[0].data = try manifest.encoded()
        let error = try #require(bundleReadError(try ZipArchive.archive(entries)))
        #expect(error.location?.entry == "snapshots/Ghost.json")
        #expect(error.message == "the entry holds snapshots of an entity the schema does not have")
    }

    @Test func aListedEntryThatIsMissingIsNamed() throws {
        let error = try #require(bundleReadError(try bundle { $0.entries.append(.init(name: "snapshots/Ghost.json", size: 2, sha256: "00")) }))
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

@Suite struct BundleEntryRulesTests {
    @Test func nonASCIIEntityNamesRoundTrip() throws {
        let schema = Schema([Schema.Entity(name: "Café", attributes: [.init("name", .string)])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: document.identifier(entityName: "Café", primaryKey: "1"),
                values: ["name": .string("Flore")])
        ]
        let bytes = try BundleFormat().writeDocument(document)
        #expect(try BundleFormat().readDocument(from: bytes, file: "c.tripbundle") == document)
        #expect(try ZipArchive.entries(of: bytes, limits: .standard).map(\.name).contains("snapshots/Café.json"))
    }

    /// Rebuilds a bundle of the edge-case document with `extra` entries listed in a correct manifest.
    func bundle(adding extra: [ZipArchive.Entry]) throws -> Data {
        let original = try BundleFormat().writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        manifest.entries += extra.map { .init(name: $0.name, size: $0.data.count, sha256: BundleFormat.sha256($0.data)) }
        entries[0].data = try manifest.encoded()
        return try ZipArchive.archive(entries + extra)
    }

    @Test func anExternalEntryMustBeNamedByItsDigest() throws {
        let data = try bundle(adding: [.init(name: "external/" + String(repeating: "0", count: 64), data: Data("x".utf8))])
        #expect {
            try BundleFormat().readDocument(from: data, file: "b")
        } throws: { error in
            "\(error)".contains("an external entry's name must be the SHA-256 digest of its contents")
        }
    }

    @Test func entriesOfNoKnownKindAreRefused() throws {
        let data = try bundle(adding: [.init(name: "notes.txt", data: Data("hello".utf8))])
        #expect {
            try BundleFormat().readDocument(from: data, file: "b")
        } throws: { error in
            "\(error)".contains("entry notes.txt: a bundle of format version 1 has no such entry")
        }
    }
}

@Suite struct ZipCentralDirectoryTests {
    /// A zip64 locator pointing at the largest offset there is: refused, not an overflow.
    @Test func aLocatorBeyondTheFileIsRefused() {
        var bytes: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        bytes += [0x50, 0x4B, 0x06, 0x07, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] + [1, 0, 0, 0]
        bytes += [0x50, 0x4B, 0x05, 0x06, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF, 0xFF] + [0, 0]
        #expect(throws: ZipArchiveError.self) { try ZipCentralDirectory(Data(bytes)) }
        #expect(throws: DocumentReadError.self) { try BundleFormat().readDocument(from: Data(bytes), file: "x") }
    }
}
