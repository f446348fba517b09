import Foundation
import FuzzSupport
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// bytes → a document whose attribute types and values the bytes choose, over every type's whole
/// range (what the API can hand a writer, not only what a reader makes) → each format's writer →
/// its reader. The writer may refuse a value (a DocumentWriteError: a Decimal of 39 digits, a URL
/// that is not an RFC 3986 URI reference, a
/// plist value too long for libxml2) or a schema a reader would refuse (a SchemaError); what it writes must read back under the default limits,
/// equal. Anything else traps (fatalError), which libFuzzer reports as a crash: the writer and
/// the reader disagree.
@_cdecl("fuzz_agreement_main")
public func fuzzAgreementMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]
    return runFuzzer(argc, argv) { data in
        var source = ByteSource(data)
        let document = source.document()
        for format in formats {
            let written: Data
            do {
                written = try format.writeDocument(document)
            } catch is DocumentWriteError, is SchemaError {
                continue
            } catch {
                fatalError("agreement: the \(format.name) writer fails with \(error)")
            }
            let read: Document
            do {
                read = try format.readDocument(from: written, file: "agreement.\(format.name)")
            } catch {
                fatalError("agreement: the \(format.name) writer's output does not read back: \(error)")
            }
            // An optional attribute left out and one holding nil are the same value.
            func withNils(_ snapshots: [DefaultSnapshot]) -> [DefaultSnapshot] {
                snapshots.map { snapshot in
                    var values = snapshot.values
                    for attribute in document.schema.entities[0].attributes where values[attribute.name] == nil {
                        values[attribute.name] = .null
                    }
                    return DefaultSnapshot(persistentIdentifier: snapshot.persistentIdentifier, values: values)
                }
            }
            if withNils(read.snapshots) != withNils(document.snapshots) {
                fatalError(
                    "agreement: through \(format.name) the values come back different\n--- written\n"
                        + "\(document.snapshots)\n--- read\n\(read.snapshots)")
            }
        }
    }
}

/// The fuzz input, read as choices; zeros once it runs out.
struct ByteSource {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = Array(data) }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func word() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) } }

    mutating func below(_ bound: Int) -> Int { Int(byte()) % bound }

    static let scalarTypes: [AttributeType] = [
        .string, .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64, .double, .float,
        .decimal, .date, .data, .uuid, .url,
    ]

    mutating func type(depth: Int = 0) -> AttributeType {
        let choice = below(depth > 1 ? Self.scalarTypes.count + 1 : Self.scalarTypes.count + 3)
        switch choice - Self.scalarTypes.count {
        case 2: return .codable
        case 0: return .array(type(depth: depth + 1))
        case 1:
            return .composite(
                (0..<(1 + below(3))).map { CompositeField(name: "f\($0)", type: type(depth: depth + 1), isOptional: byte() & 1 == 0) })
        default: return Self.scalarTypes[choice]
        }
    }

    mutating func string() -> String {
        if byte() == 0xFF { return String(repeating: "ab", count: 1 << 20) }  // deflates far past 200:1
        var text = String.UnicodeScalarView()
        for _ in 0..<below(64) {
            let value = UInt32(byte()) << 16 | UInt32(byte()) << 8 | UInt32(byte())
            if let scalar = Unicode.Scalar(value % 0x11_0000) { text.append(scalar) }
        }
        return String(text)
    }

    mutating func value(_ type: AttributeType) -> SnapshotValue {
        switch type {
        case .string: return .string(string())
        case .bool: return .bool(byte() & 1 == 1)
        case .int, .int64: return .int(Int64(bitPattern: word()))
        case .int8: return .int(Int64(Int8(truncatingIfNeeded: byte())))
        case .int16: return .int(Int64(Int16(truncatingIfNeeded: word())))
        case .int32: return .int(Int64(Int32(truncatingIfNeeded: word())))
        case .uint, .uint64: return .uint(word())
        case .uint8: return .uint(UInt64(byte()))
        case .uint16: return .uint(UInt64(UInt16(truncatingIfNeeded: word())))
        case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: word())))
        case .double:
            // NaN is one value in documents (FORMATS 3.6): its payload is not kept.
            let value = Double(bitPattern: word())
            return .double(value.isNaN ? .nan : value)
        case .float:
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: word()))
            return .float(value.isNaN ? .nan : value)
        case .decimal:
            var mantissa = Decimal(0)
            for _ in 0..<below(9) { mantissa = mantissa * 65536 + Decimal(Int(byte()) << 8 | Int(byte())) }
            let sign: FloatingPointSign = byte() & 1 == 0 ? .plus : .minus
            return .decimal(byte() == 0xFF ? .nan : Decimal(sign: sign, exponent: Int(Int8(bitPattern: byte())), significand: mantissa))
        case .date:
            let interval = Double(bitPattern: word())
            return .date(Date(timeIntervalSinceReferenceDate: interval.isFinite ? interval : 0))
        case .data:
            if byte() == 0xFF { return .data(Data(count: 2 << 20)) }  // 2 MiB of zeros
            return .data(Data((0..<below(128)).map { _ in byte() }))
        case .uuid: return .uuid(UUID(uuid: (0..<16).map { _ in byte() }.withUnsafeBytes { $0.load(as: uuid_t.self) }))
        case .url: return .url(URL(string: string()) ?? URL(string: "https://example.com/")!)
        case .array(let element): return .array((0..<below(4)).map { _ in value(element) })
        case .composite(let fields):
            var values: [String: SnapshotValue] = [:]
            for field in fields where !(field.isOptional && byte() & 1 == 0) { values[field.name] = value(field.type) }
            return .composite(values)
        case .codable: return codable(depth: 0)
        }
    }

    /// A self-describing `Codable` value: `nil` inside objects and arrays, any string and key
    /// (keys an attribute refuses included: the writer must refuse them, not write them), every
    /// `Int64`, the `UInt64`s above it, every `Double` (non-finite ones to be refused).
    mutating func codable(depth: Int) -> SnapshotValue {
        switch below(depth > 2 ? 6 : 8) {
        case 0 where depth > 0: return .null
        case 0: return .composite([:])
        case 1: return .bool(byte() & 1 == 1)
        case 2: return .int(Int64(bitPattern: word()))
        case 3: return .uint(word() | 1 << 63)
        case 4: return .double(Double(bitPattern: word()))
        case 5: return .string(string())
        case 6: return .array((0..<below(4)).map { _ in codable(depth: depth + 1) })
        default:
            var members: [String: SnapshotValue] = [:]
            for _ in 0..<below(4) { members[String(string().prefix(8))] = codable(depth: depth + 1) }
            return .composite(members)
        }
    }

    /// A document of one entity with up to 8 attributes (the first `.externalStorage` when it is
    /// Data) and up to 3 snapshots.
    mutating func document() -> Document {
        let types = (0..<(1 + below(8))).map { _ in type() }
        let attributes = types.enumerated().map { index, type in
            Schema.Attribute(
                "a\(index)", type, isOptional: byte() & 1 == 0,
                options: index == 0 && type == .data ? [.externalStorage] : [])
        }
        let schema = Schema([Schema.Entity(name: "Value", attributes: attributes)])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        let count = 1 + below(3)
        document.snapshots = (1...count).map { key in
            var values: [String: SnapshotValue] = [:]
            for attribute in attributes where !(attribute.isOptional && byte() & 1 == 0) {
                values[attribute.name] = value(attribute.type)
            }
            return DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: "Value", primaryKey: "\(key)"),
                values: values)
        }
        document.header.nextPrimaryKeys = ["Value": Int64(count + 1)]
        return document
    }
}
