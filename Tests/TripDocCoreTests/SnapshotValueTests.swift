import Foundation
import Testing
import TripDocCore
import TripDocTestSupport

@Suite struct SnapshotValueTests {
    @Test func equalityIsExactForFloatingPoint() {
        #expect(SnapshotValue.double(.nan) == .double(.nan))
        #expect(SnapshotValue.double(0.0) != .double(-0.0))
        #expect(SnapshotValue.float(.nan) == .float(.nan))
        #expect(SnapshotValue.date(Date(timeIntervalSinceReferenceDate: 0)) != .date(Date(timeIntervalSinceReferenceDate: -0.0)))
    }

    @Test func dataValuesAreHashedOverAllTheirBytes() {
        // Foundation's own hash of Data reads its first 80 bytes only.
        let prefix = Data(repeating: 7, count: 80)
        let values = (0..<64).map { SnapshotValue.data(prefix + Data([UInt8($0)])) }
        #expect(Set(values.map(\.hashValue)).count == values.count)
        #expect(SnapshotValue.data(prefix + Data([1])).hashValue == SnapshotValue.data(prefix + Data([1])).hashValue)
    }

    @Test func aUniquenessCheckOverDataSharingLongPrefixesStaysFast() throws {
        // 20,000 values that differ only after their first 80 bytes: all in one hash bucket
        // with Foundation's hash, which made the check quadratic (17 s).
        let schema = Schema([
            Schema.Entity(name: "Blob", attributes: [.init("bytes", .data)], uniquenessConstraints: [["bytes"]])
        ])
        let snapshots = (0..<20_000).map { index in
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: "Blob", primaryKey: "\(index + 1)"),
                values: ["bytes": .data(Data(repeating: 0, count: 100) + withUnsafeBytes(of: index) { Data($0) })])
        }
        let document = Document(header: DocumentHeader(storeIdentifier: "S", schemaVersion: schema.version), schema: schema, snapshots: snapshots)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(IntegrityChecker().problems(in: document) == []) }
        #expect(elapsed < .seconds(3))
    }

    @Test func integersFitTheirTypesRange() {
        #expect(SnapshotValue.int(127).fits(.int8))
        #expect(!SnapshotValue.int(128).fits(.int8))
        #expect(!SnapshotValue.int(-1).fits(.uint8))
        #expect(SnapshotValue.uint(UInt64.max).fits(.uint64))
        #expect(!SnapshotValue.uint(256).fits(.uint8))
        #expect(!SnapshotValue.string("1").fits(.int))
    }

    @Test func compositesFitOnlyTheirDeclaredFields() {
        let type = AttributeType.composite([
            CompositeField(name: "a", type: .string), CompositeField(name: "b", type: .int, isOptional: true),
        ])
        #expect(SnapshotValue.composite(["a": .string("x")]).fits(type))
        #expect(!SnapshotValue.composite(["b": .int(1)]).fits(type))
        #expect(!SnapshotValue.composite(["a": .string("x"), "c": .int(1)]).fits(type))
    }
}

@Suite struct DefaultSnapshotCodableTests {
    /// The WWDC24 talk's store encodes `[DefaultSnapshot]` with a plain JSONEncoder and decodes
    /// with a plain JSONDecoder: values must come back typed.
    @Test func roundTripsThroughPlainJSONEncoderAndDecoder() throws {
        let snapshots = EdgeCaseDocuments.document().snapshots
        let data = try JSONEncoder().encode(snapshots)
        let decoded = try JSONDecoder().decode([DefaultSnapshot].self, from: data)
        #expect(decoded == snapshots)
    }

    @Test func roundTripsThroughPropertyListCoders() throws {
        let snapshots = EdgeCaseDocuments.document().snapshots
        let data = try PropertyListEncoder().encode(snapshots)
        #expect(try PropertyListDecoder().decode([DefaultSnapshot].self, from: data) == snapshots)
    }

    @Test func copyRewritesRemappedReferences() {
        let temporary = PersistentIdentifier.temporary(entityName: "Everything", primaryKey: "t1")
        let permanent = EdgeCaseDocuments.identifier("9")
        let snapshot = DefaultSnapshot(
            persistentIdentifier: EdgeCaseDocuments.identifier("1"),
            values: ["parent": .reference(temporary), "children": .references([temporary, permanent])])
        let copy = snapshot.copy(persistentIdentifier: permanent, remappedIdentifiers: [temporary: permanent])
        #expect(copy.persistentIdentifier == permanent)
        #expect(copy["parent"] == .reference(permanent))
        #expect(copy["children"] == .references([permanent, permanent]))
        #expect(snapshot.copy(persistentIdentifier: permanent)["parent"] == .reference(temporary))
    }

    @Test func identifierPartsArePublic() throws {
        let id = try PersistentIdentifier.identifier(for: "store", entityName: "Trip", primaryKey: 5)
        #expect(id.storeIdentifier == "store")
        #expect(id.entityName == "Trip")
        #expect(id.primaryKey == "5")
        #expect(!id.isTemporary)
        #expect(throws: PersistentIdentifierError.self) {
            try PersistentIdentifier.identifier(for: "", entityName: "Trip", primaryKey: 1)
        }
    }

    @Test func primaryKeysOrderNumbersNumericallyThenText() {
        let keys = ["b", "10", "2", "a", "01", "1"].sorted(by: PrimaryKeyOrder.precedes)
        #expect(keys == ["1", "2", "10", "01", "a", "b"])
    }

    @Test func aPrimaryKeyHasANumericValueOnlyInCanonicalFormBelowTenToTheEighteenth() {
        #expect(PrimaryKeyOrder.canonicalNumber("0") == 0)
        #expect(PrimaryKeyOrder.canonicalNumber("17") == 17)
        #expect(PrimaryKeyOrder.canonicalNumber("999999999999999999") == 999_999_999_999_999_999)
        // Not canonical, not below 10^18, or not ASCII digits: ordered as text.
        for key in ["", "017", "00", "-1", "+1", "1a", "1 ", "1000000000000000000", "\u{661}", "\u{FF11}", "1\u{0}"] {
            #expect(PrimaryKeyOrder.canonicalNumber(key) == nil, "\(key.debugDescription)")
        }
        // A key long enough to be kept out of line reads the same as a short one.
        let long = String(repeating: "x", count: 40)
        #expect(PrimaryKeyOrder.canonicalNumber(long) == nil)
        #expect(PrimaryKeyOrder.canonicalNumber(String(long.dropFirst(40)) + "123456789012345678") == 123_456_789_012_345_678)
    }
}
