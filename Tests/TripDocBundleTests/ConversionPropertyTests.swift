import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// Conversion is exact over generated documents: A → B → C → A' gives A's content back, and
/// A' → B' gives B's bytes, for every order of the three formats.
@Suite struct ConversionPropertyTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// Reads `document` back after writing it in `format`, as a new store `store`.
    func convert(_ document: Document, to format: any DocumentFormat, store: String) throws -> (Data, Document) {
        let moved = document.remapped(toStore: store).document
        let bytes = try format.writeDocument(moved)
        return (bytes, try format.readDocument(from: bytes, file: "generated.\(format.name)"))
    }

    @Test(arguments: 1...40)
    func aRoundTripThroughEveryFormatKeepsContentAndBytes(seed: Int) throws {
        var generator = RandomDocuments(seed: UInt64(seed))
        let original = generator.document()
        #expect(IntegrityChecker().problems(in: original) == [])
        let a = Document(header: original.header, schema: original.schema, snapshots: original.orderedSnapshots)
        for first in Self.formats {
            for second in Self.formats where second.name != first.name {
                let third = Self.formats.first { $0.name != first.name && $0.name != second.name }!
                let (bBytes, b) = try convert(a, to: first, store: "B")
                let (_, c) = try convert(b, to: second, store: "C")
                let (_, aPrime) = try convert(c, to: third, store: a.storeIdentifier)
                #expect(aPrime == a, "seed \(seed): \(first.name) → \(second.name) → \(third.name)")
                let (bPrimeBytes, _) = try convert(aPrime, to: first, store: "B")
                #expect(bPrimeBytes == bBytes, "seed \(seed): \(first.name) bytes")
            }
        }
    }

    @Test func renumberingKeepsEveryRelationship() throws {
        for seed in 100..<110 {
            var generator = RandomDocuments(seed: UInt64(seed))
            let document = generator.document()
            let renumbered = document.remapped(toStore: "R", renumber: true).document
            #expect(IntegrityChecker().problems(in: renumbered) == [], "seed \(seed)")
            #expect(renumbered.snapshots.count == document.snapshots.count)
        }
    }
}
