import Foundation
import Testing
@testable import TripDocBundle
import TripDocCore

/// A bundle's entry names, in the archive and in its manifest, are in Unicode Normalization
/// Form C like every other name (FORMATS 1.2, 8.2): an entry named in another form is refused,
/// not matched to the entity under canonical equivalence by one check and missed by another.
@Suite struct BundleEntryNameTests {
    let bundle = BundleFormat()
    static let composed = "snapshots/Caf\u{E9}.json"
    static let decomposed = "snapshots/Cafe\u{301}.json"

    /// A bundle of one entity, `Café`, with one snapshot.
    func original() throws -> Data {
        let schema = Schema([Schema.Entity(name: "Caf\u{E9}", attributes: [.init("name", .string)])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: "Caf\u{E9}", primaryKey: "1"),
                values: ["name": .string("espresso")])
        ]
        document.header.nextPrimaryKeys = ["Caf\u{E9}": 2]
        return try bundle.writeDocument(document)
    }

    /// The entries of `data` with the entity's entry renamed in the archive (`inArchive`) and in
    /// the manifest (`inManifest`).
    func respelled(_ data: Data, inArchive: Bool, inManifest: Bool) throws -> Data {
        var entries = try ZipArchive.entries(of: data, limits: .standard)
        for index in entries.indices {
            if inArchive, entries[index].name == Self.composed { entries[index].name = Self.decomposed }
            if inManifest, entries[index].name == BundleManifest.entryName {
                let text = Array(entries[index].data)
                let pattern = Array(Self.composed.utf8)
                let start = try #require(
                    (0...(text.count - pattern.count)).first { text[$0..<$0 + pattern.count].elementsEqual(pattern) })
                entries[index].data = Data(text[..<start] + Array(Self.decomposed.utf8) + text[(start + pattern.count)...])
            }
        }
        return try ZipArchive.archive(entries)
    }

    @Test func theComposedBundleReads() throws {
        let read = try bundle.readDocument(from: try respelled(try original(), inArchive: false, inManifest: false), file: "a.tripbundle")
        #expect(read.snapshots.count == 1)
    }

    @Test(arguments: [(true, true), (true, false), (false, true)])
    func anEntryNamedInAnotherFormIsRefused(inArchive: Bool, inManifest: Bool) throws {
        let data = try respelled(try original(), inArchive: inArchive, inManifest: inManifest)
        let error = try #require(throws: DocumentReadError.self) {
            try bundle.readDocument(from: data, file: "b.tripbundle")
        }
        #expect("\(error)".contains("\"snapshots/Cafe\\u{301}.json\" is not in Unicode normalization form C (NFC)"), "\(error)")
    }

    /// A zip entry's name holds at most 65,535 bytes: an entity whose entry name would be longer
    /// is refused before anything is written (libarchive wrote a damaged archive, or crashed),
    /// and one just within the limit reads back.
    @Test(arguments: [65_520, 65_521, 200_000])
    func anEntityNameTooLongForAZipEntryIsRefused(length: Int) throws {
        let name = String(repeating: "N", count: length)
        let schema = Schema([Schema.Entity(name: name, attributes: [.init("v", .int)])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: name, primaryKey: "1"),
                values: ["v": .int(1)])
        ]
        document.header.nextPrimaryKeys = [name: 2]
        if length <= 65_520 {
            let read = try bundle.readDocument(from: try bundle.writeDocument(document), file: "long.tripbundle")
            #expect(read.snapshots == document.snapshots)
        } else {
            let error = #expect(throws: SchemaError.self) { try bundle.writeDocument(document) }
            #expect(error?.problems.first?.contains("has a name of \(length) bytes") == true)
            #expect(error?.problems.first?.contains("at most 65520") == true)
        }
    }
}
