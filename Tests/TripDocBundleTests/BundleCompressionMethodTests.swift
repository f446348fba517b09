import Foundation
import Testing
import TripDocBundle
import TripDocCore

/// A bundle's entries are stored or deflated (FORMATS 8.7): an entry compressed with any other
/// method is refused, naming it, before anything is inflated, whatever libarchive could inflate.
@Suite struct BundleCompressionMethodTests {
    /// A small bundle whose central directory gives its first entry the method `method`.
    func bundle(withFirstEntryMethod method: UInt16) throws -> Data {
        let schema = Schema([Schema.Entity(name: "Note", attributes: [.init("text", .string)])])
        var document = Document.empty(schema: schema, storeIdentifier: "STORE")
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Note"), values: ["text": .string("hello")])
            ]))
        var bytes = [UInt8](try BundleFormat().writeDocument(document))
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let header = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == signature })
        bytes[header + 10] = UInt8(method & 0xFF)
        bytes[header + 11] = UInt8(method >> 8)
        return Data(bytes)
    }

    @Test(arguments: [12, 14, 93, 99] as [UInt16])
    func anEntryCompressedWithAnotherMethodIsRefused(method: UInt16) throws {
        let data = try bundle(withFirstEntryMethod: method)
        let error = #expect(throws: DocumentReadError.self) {
            try BundleFormat().readDocument(from: data, file: "notes.tripbundle", limits: .standard)
        }
        #expect(error?.description.contains("compressed with method \(method)") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("manifest.json") == true, "the entry is named: \(error?.description ?? "")")
    }

    @Test func storedAndDeflatedEntriesAreRead() throws {
        let data = try bundle(withFirstEntryMethod: 8)
        #expect(try BundleFormat().readDocument(from: data, file: "notes.tripbundle", limits: .standard).snapshots.count == 1)
    }
}
