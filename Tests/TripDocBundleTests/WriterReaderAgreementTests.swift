import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// What tripdoc writes, tripdoc reads back under the default limits: over every attribute
/// type's whole range, in every format and through `ArchiveStore`, a value is either written and
/// read back equal, or refused when it is written (``DocumentWriteError``, or the store's
/// ``SaveChangesError``: nothing written) — never written and then refused by the reader.
@Suite struct WriterReaderAgreementTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// Every scalar type, each as an attribute of its own, plus arrays and a composite.
    static let types: [AttributeType] = [
        .string, .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64, .double, .float,
        .decimal, .date, .data, .uuid, .url, .array(.decimal), .array(.int64),
        .composite([CompositeField(name: "d", type: .decimal), CompositeField(name: "f", type: .float, isOptional: true)]),
        .codable,
    ]

    /// One entity with an attribute per type (`a0`, `a1`, …), and a `.externalStorage` `Data`.
    static let schema = Schema([
        Schema.Entity(
            name: "Value",
            attributes: types.enumerated().map { Schema.Attribute("a\($0.offset)", $0.element) }
                + [Schema.Attribute("external", .data, options: [.externalStorage])])
    ])

    /// Values drawn from each type's whole range, reproducibly.
    struct FullRange {
        private var random: SplitMix

        init(seed: UInt64) { random = SplitMix(seed: seed) }

        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ bound: Int) -> Int { random.below(bound) }

        /// A `Decimal` with a mantissa of up to 128 bits (39 digits) and any exponent Foundation
        /// holds, so some have more digits than documents hold.
        mutating func decimal() -> Decimal {
            var mantissa = Decimal(0)
            for _ in 0..<(1 + below(8)) { mantissa = mantissa * 65536 + Decimal(below(65536)) }
            if below(4) == 0 { mantissa = Decimal(UInt64.max) * Decimal(UInt64.max) }  // 39 digits
            let sign: FloatingPointSign = below(2) == 0 ? .plus : .minus
            return Decimal(sign: sign, exponent: below(256) - 128, significand: mantissa)
        }

        /// Text of any length up to a few hundred scalars, any scalar (controls and U+0000
        /// included), sometimes a long run of one character.
        mutating func string() -> String {
            if below(20) == 0 { return String(repeating: "ab", count: 1_500_000) }  // 3 MB, deflates 1000:1
            var text = String.UnicodeScalarView()
            for _ in 0..<below(300) {
                let value = below(3) == 0 ? below(0x80) : below(0x11_0000)
                if let scalar = Unicode.Scalar(UInt32(value)) { text.append(scalar) }
            }
            return String(text)
        }

        /// Bytes of any length up to a few hundred, sometimes 2 MiB of zeros.
        mutating func data() -> Data {
            if below(10) == 0 { return Data(count: 2 << 20) }
            return Data((0..<below(400)).map { _ in UInt8(truncatingIfNeeded: next()) })
        }

        /// A self-describing `Codable` value over its whole range: `nil` inside objects and arrays,
        /// any string, every `Int64`, the `UInt64`s above it, every finite `Double`.
        mutating func codable(depth: Int) -> SnapshotValue {
            switch below(depth > 2 ? 6 : 8) {
            case 0 where depth > 0: return .null
            case 0: return .composite([:])
            case 1: return .bool(below(2) == 0)
            case 2: return .int(Int64(bitPattern: next()))
            case 3: return .uint(UInt64(Int64.max) + 1 + next() % UInt64(Int64.max))
            case 4:
                var number = Double(bitPattern: next())
                while !number.isFinite { number = Double(bitPattern: next()) }
                return .double(number)
            case 5: return .string(string())
            case 6: return .array((0..<below(4)).map { _ in codable(depth: depth + 1) })
            default:
                var members: [String: SnapshotValue] = [:]
                for _ in 0..<below(4) {
                    // Any key a Codable value may have (FORMATS 3.10), decomposed forms included.
                    let key = below(3) == 0 ? "Cafe\u{301}" : String(string().prefix(8))
                    if SnapshotValue.isCodableKey(key) { members[key] = codable(depth: depth + 1) }
                }
                return .composite(members)
            }
        }

        mutating func value(_ type: AttributeType) -> SnapshotValue {
            switch type {
            case .string: return .string(string())
            case .bool: return .bool(below(2) == 0)
            case .int, .int64: return .int(Int64(bitPattern: next()))
            case .int8: return .int(Int64(Int8(truncatingIfNeeded: next())))
            case .int16: return .int(Int64(Int16(truncatingIfNeeded: next())))
            case .int32: return .int(Int64(Int32(truncatingIfNeeded: next())))
            case .uint, .uint64: return .uint(next())
            case .uint8: return .uint(UInt64(UInt8(truncatingIfNeeded: next())))
            case .uint16: return .uint(UInt64(UInt16(truncatingIfNeeded: next())))
            case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: next())))
            case .double:
                // Every bit pattern; NaN is one value in documents (FORMATS 3.6 writes "NaN").
                let value = Double(bitPattern: next())
                return .double(value.isNaN ? .nan : value)
            case .float:
                let value = Float(bitPattern: UInt32(truncatingIfNeeded: next()))
                return .float(value.isNaN ? .nan : value)
            case .decimal: return .decimal(below(50) == 0 ? .nan : decimal())
            case .date:
                // Any finite time interval a date can hold.
                var interval = Double(bitPattern: next())
                while !interval.isFinite { interval = Double(bitPattern: next()) }
                return .date(Date(timeIntervalSinceReferenceDate: interval))
            case .data: return .data(data())
            case .uuid:
                return .uuid(UUID(uuid: (0..<16).map { _ in UInt8(truncatingIfNeeded: next()) }.withUnsafeBytes { $0.load(as: uuid_t.self) }))
            case .url:
                let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
                let host = (0..<(1 + below(12))).map { _ in letters[below(letters.count)] }
                return .url(URL(string: "https://\(String(host)).example/\(below(1 << 30))?q=\(next())#f")!)
            case .array(let element): return .array((0..<below(4)).map { _ in value(element) })
            case .codable: return codable(depth: 0)
            case .composite(let fields):
                var values: [String: SnapshotValue] = [:]
                for field in fields where !(field.isOptional && below(2) == 0) { values[field.name] = value(field.type) }
                return .composite(values)
            }
        }

        /// One snapshot's values: an attribute per type, and the external value.
        mutating func values() -> [String: SnapshotValue] {
            var values: [String: SnapshotValue] = [:]
            for (index, type) in WriterReaderAgreementTests.types.enumerated() { values["a\(index)"] = value(type) }
            values["external"] = .data(data())
            return values
        }
    }

    static func identifier(_ key: Int) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "S", entityName: "Value", primaryKey: "\(key)")
    }

    /// Whether the writer may refuse `values`: only when one holds a `Decimal` the reader's
    /// rule refuses.
    static func holdsAnUnstorableDecimal(_ value: SnapshotValue) -> Bool {
        switch value {
        case .decimal(let decimal): !DecimalCoding.isStorable(decimal)
        case .array(let elements): elements.contains(where: holdsAnUnstorableDecimal)
        case .composite(let fields): fields.values.contains(where: holdsAnUnstorableDecimal)
        default: false
        }
    }

    @Test(arguments: formats, 1...6)
    func aWrittenDocumentReadsBackEqual(format: any DocumentFormat, seed: Int) throws {
        var random = FullRange(seed: UInt64(seed))
        for round in 0..<8 {
            let values = random.values()
            var document = Document.empty(schema: Self.schema, storeIdentifier: "S")
            document.snapshots = [DefaultSnapshot(persistentIdentifier: Self.identifier(1), values: values)]
            document.header.nextPrimaryKeys = ["Value": 2]
            let unstorable = values.values.contains(where: Self.holdsAnUnstorableDecimal)
            let written: Data
            do {
                written = try format.writeDocument(document)
            } catch let error as DocumentWriteError {
                #expect(unstorable, "\(format.name), seed \(seed), round \(round): refused \(error)")
                continue
            }
            #expect(!unstorable, "\(format.name), seed \(seed), round \(round): written, though it holds an unstorable Decimal")
            let read = try format.readDocument(from: written, file: "agreement.\(format.name)")
            #expect(read.snapshots == document.snapshots, "\(format.name), seed \(seed), round \(round)")
        }
    }

    @Test(arguments: formats)
    func whatAStoreSavesItReadsAgain(format: any DocumentFormat) throws {
        let scratch = try ScratchFolder("agreement")
        let path = scratch.file("store.\(format.fileExtensions[0])").path
        let store = try ArchiveStore(path: path, format: format, schema: Self.schema)
        var random = FullRange(seed: 99)
        var saved: [[String: SnapshotValue]] = []
        for round in 0..<10 {
            let values = random.values()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            do {
                try store.save(
                    DataStoreSaveChangesRequest(inserted: [
                        DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Value"), values: values)
                    ]))
                saved.append(values)
            } catch let error as SaveChangesError {
                #expect(values.values.contains(where: Self.holdsAnUnstorableDecimal), "\(format.name), round \(round): \(error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused save leaves the file")
            }
            // The file reads, in a store of its own, with what was saved.
            let reopened = try ArchiveStore(path: path, format: format, schema: Self.schema)
            #expect(try reopened.fetchSnapshots(entityName: "Value").map(\.values) == saved, "\(format.name), round \(round)")
        }
    }

    /// A schema every reader refuses (here a Codable value as an array's element, FORMATS 2.3)
    /// is refused by every writer, before anything is written (found by fuzz-agreement).
    @Test(arguments: formats)
    func aSchemaTheReaderRefusesIsRefusedByTheWriter(format: any DocumentFormat) throws {
        let schema = Schema([Schema.Entity(name: "Value", attributes: [.init("tags", .array(.codable))])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [DefaultSnapshot(persistentIdentifier: Self.identifier(1), values: ["tags": .array([.string("a")])])]
        let error = #expect(throws: SchemaError.self) { try format.writeDocument(document) }
        #expect(error?.problems.first?.contains("Codable may only be an attribute's own type") == true)
    }

    @Test func aDecimalOf39DigitsIsRefusedWhenSavedAndTheStoreStaysReadable() throws {
        let scratch = try ScratchFolder("agreement")
        let path = scratch.file("store.json").path
        let schema = Schema([Schema.Entity(name: "Price", attributes: [.init("amount", .decimal)])])
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: schema)
        let max128 = Decimal(UInt64.max) * Decimal(UInt64.max)  // 39 significant digits
        let error = #expect(throws: SaveChangesError.self) {
            try store.save(
                DataStoreSaveChangesRequest(inserted: [
                    DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Price"), values: ["amount": .decimal(max128)])
                ]))
        }
        #expect("\(error!)".hasSuffix("amount expects Decimal, found a Decimal of more than 38 significant digits (340282366920938463426481119284349108225), which documents cannot hold (FORMATS 3.7)"))
        #expect(try ArchiveStore(path: path, format: JSONFormat(), schema: schema).fetchSnapshots() == [])
    }

    @Test(arguments: [
        SnapshotValue.data(Data(count: 2 << 20)), .data(Data(repeating: 0xAB, count: 5 << 20)),
    ])
    func aHighlyCompressibleExternalValueReadsBack(value: SnapshotValue) throws {
        var document = Document.empty(schema: Self.schema, storeIdentifier: "S")
        var random = FullRange(seed: 5)
        var values = random.values()
        while values.values.contains(where: Self.holdsAnUnstorableDecimal) { values = random.values() }
        values["external"] = value
        values["a0"] = .string(String(repeating: "ab", count: 1_500_000))
        document.snapshots = [DefaultSnapshot(persistentIdentifier: Self.identifier(1), values: values)]
        let bundle = BundleFormat()
        let written = try bundle.writeDocument(document)
        #expect(try bundle.readDocument(from: written, file: "zeros.tripbundle").snapshots == document.snapshots)
        // The stream writer, which a conversion uses, makes the same bytes.
        var streamed = Data()
        var writer = bundle.makeStreamWriter { streamed.append(contentsOf: $0) }
        try writer.begin(header: document.header, schema: document.schema, history: document.history)
        try writer.beginEntity(Self.schema.entities[0])
        try writer.add(document.snapshots[0])
        try writer.endEntity()
        try writer.finish()
        #expect(streamed == written)
    }
}
