import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore
import TripDocTestSupport

/// A bundle's snapshot entries are decoded while they inflate on another thread. What a reader
/// gets must not depend on that: the same document, and damage reported as damage.
@Suite struct BundleInflatingReadTests {
    let bundle = BundleFormat()

    /// A document of several entities, each with snapshots.
    static func document() throws -> Document {
        for seed in UInt64(1)... {
            var random = RandomDocuments(seed: seed)
            let document = random.document()
            let entities = Set(document.snapshots.map(\.persistentIdentifier.entityName))
            if entities.count >= 2, document.schema.entities.count == entities.count { return document }
        }
        fatalError("unreachable")
    }

    @Test func entriesStoredInAnyOrderRead() throws {
        let document = try Self.document()
        let original = try bundle.writeDocument(document)
        let expected = try bundle.readDocument(from: original, file: "a.tripbundle")
        let entries = try ZipArchive.entries(of: original, limits: .standard)
        let snapshots = entries.filter { $0.name.hasPrefix("snapshots/") }
        #expect(snapshots.count >= 2)
        // The entities' entries last, in reverse order of their names, which is the order they
        // are decoded in: each is inflated before the one decoded first.
        let reordered = entries.filter { !$0.name.hasPrefix("snapshots/") } + snapshots.reversed()
        let read = try bundle.readDocument(from: try ZipArchive.archive(reordered), file: "b.tripbundle")
        #expect(read == expected)
    }

    /// An entity's entry missing from both the archive and the manifest is named as missing.
    @Test func anEntityWithoutAnEntryIsNamed() throws {
        let original = try bundle.writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        entries.removeAll { $0.name == "snapshots/Everything.json" }
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        manifest.entries.removeAll { $0.name == "snapshots/Everything.json" }
        entries[0].data = try manifest.encoded()
        let error = try #require(throws: DocumentReadError.self) {
            try bundle.readDocument(from: try ZipArchive.archive(entries), file: "m.tripbundle")
        }
        #expect(error.location?.entry == "snapshots/Everything.json")
        #expect(error.message == "the bundle has no entry snapshots/Everything.json")
        #expect(error.hint == "The file is damaged or is not a tripdoc bundle")
    }

    /// Bytes of an entry changed in place (so its size still matches) into JSON the decoder
    /// refuses: the error is the damage, named by the manifest's digest, not the JSON's syntax.
    @Test func anEntryThatDiffersFromTheManifestIsReportedAsSuchWhateverItsJSON() throws {
        let original = try bundle.writeDocument(EdgeCaseDocuments.document())
        var entries = try ZipArchive.entries(of: original, limits: .standard)
        let index = try #require(entries.firstIndex { $0.name == "snapshots/Everything.json" })
        var data = entries[index].data
        let brace = try #require(data.lastIndex(of: UInt8(ascii: "{")))
        data[brace] = UInt8(ascii: "x")
        entries[index].data = data
        let damaged = try ZipArchive.archive(entries)
        let error = try #require(throws: DocumentReadError.self) { try bundle.readDocument(from: damaged, file: "d.tripbundle") }
        #expect(error.location?.entry == "snapshots/Everything.json")
        #expect(error.message == "the entry's contents do not match the SHA-256 digest in the manifest")
    }

    /// A value of the wrong type in the first snapshot of an entry over 16 MiB stops reading
    /// there, with that error, while the entry is still inflating; reading again is unaffected.
    @Test func aDecodingErrorStopsTheInflation() throws {
        var document = BundleRoundTripTests.largeDocument(seed: 3)
        var entities = document.schema.entities
        let index = try #require(entities[0].attributes.firstIndex { $0.name == "int8" })
        entities[0].attributes[index].type = .string
        let schema = Schema(entities, version: document.schema.version)
        let good = try bundle.writeDocument(document)
        // The same bytes with the schema saying `int8` holds strings: every snapshot is refused.
        var entries = try ZipArchive.entries(of: good, limits: .standard)
        let schemaIndex = try #require(entries.firstIndex { $0.name == "schema.json" })
        document.schema = schema
        let rewritten = try ZipArchive.entries(of: try bundle.writeDocument(Document.empty(schema: schema, storeIdentifier: document.storeIdentifier)), limits: .standard)
        entries[schemaIndex].data = try #require(rewritten.first { $0.name == "schema.json" }).data
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[0].data)
        for (position, entry) in manifest.entries.enumerated() where entry.name == "schema.json" {
            manifest.entries[position].size = entries[schemaIndex].data.count
            manifest.entries[position].sha256 = BundleFormat.sha256(entries[schemaIndex].data)
        }
        entries[0].data = try manifest.encoded()
        let refused = try ZipArchive.archive(entries)
        for _ in 0..<5 {
            let error = try #require(throws: DocumentReadError.self) { try bundle.readDocument(from: refused, file: "r.tripbundle") }
            #expect(error.location?.entry == "snapshots/Everything.json")
            #expect(error.keyPath == "snapshots.Everything[0].int8", "\(error)")
        }
        #expect(try bundle.readDocument(from: good, file: "g.tripbundle").snapshots.count == document.snapshots.count)
    }
}
