import Foundation

/// The type of a persisted attribute's value.
///
/// The type decides how a value is held in a ``SnapshotValue`` and how every document format
/// writes it, so that a `Date` stays a date, an `Int64.max` stays exact and `Data` stays bytes.
public indirect enum AttributeType: Hashable, Sendable {
    case string
    case bool
    case int, int8, int16, int32, int64
    case uint, uint8, uint16, uint32, uint64
    case double
    case float
    case decimal
    case date
    case data
    case uuid
    case url
    /// An ordered list of values of one type; elements are never `nil`.
    case array(AttributeType)
    /// A nested `Codable` value (a struct or class), held as named fields.
    case composite([CompositeField])
    /// Any `Codable` value, held in the shape its `encode(to:)` gives it: objects (keyed
    /// containers) as ``SnapshotValue/composite(_:)``, arrays (unkeyed containers) as
    /// ``SnapshotValue/array(_:)``, and booleans, integers, finite doubles, strings and `nil`.
    /// The schema names no fields; each value describes itself (docs/FORMATS.md 2.3.3, 3.10).
    case codable

    /// The types a document spells with a name (the scalars, and `Codable`), by that name.
    public static let scalarsByName: [String: AttributeType] = [
        "Codable": .codable,
        "String": .string, "Bool": .bool,
        "Int": .int, "Int8": .int8, "Int16": .int16, "Int32": .int32, "Int64": .int64,
        "UInt": .uint, "UInt8": .uint8, "UInt16": .uint16, "UInt32": .uint32, "UInt64": .uint64,
        "Double": .double, "Float": .float, "Decimal": .decimal, "Date": .date, "Data": .data,
        "UUID": .uuid, "URL": .url,
    ]

    /// The Swift spelling of the type, as documents and messages write it (`Int64`, `[Date]`).
    public var name: String {
        switch self {
        case .string: "String"
        case .bool: "Bool"
        case .int: "Int"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint: "UInt"
        case .uint8: "UInt8"
        case .uint16: "UInt16"
        case .uint32: "UInt32"
        case .uint64: "UInt64"
        case .double: "Double"
        case .float: "Float"
        case .decimal: "Decimal"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        case .url: "URL"
        case .codable: "Codable"
        case .array(let element): "[\(element.name)]"
        case .composite(let fields):
            "{" + fields.map { "\($0.name): \($0.type.name)\($0.isOptional ? "?" : "")" }.joined(separator: ", ") + "}"
        }
    }

    /// The inclusive range of a signed integer type, or `nil` when the type is not one.
    public var signedRange: ClosedRange<Int64>? {
        switch self {
        case .int, .int64: Int64.min...Int64.max
        case .int8: Int64(Int8.min)...Int64(Int8.max)
        case .int16: Int64(Int16.min)...Int64(Int16.max)
        case .int32: Int64(Int32.min)...Int64(Int32.max)
        default: nil
        }
    }

    /// The inclusive upper bound of an unsigned integer type, or `nil` when the type is not one.
    public var unsignedMaximum: UInt64? {
        switch self {
        case .uint, .uint64: UInt64.max
        case .uint8: UInt64(UInt8.max)
        case .uint16: UInt64(UInt16.max)
        case .uint32: UInt64(UInt32.max)
        default: nil
        }
    }
}

/// One named field of a ``AttributeType/composite(_:)`` value.
public struct CompositeField: Hashable, Sendable, Codable {
    /// The field's name.
    public var name: String
    /// The field's type.
    public var type: AttributeType
    /// Whether the field may be absent (`nil`).
    public var isOptional: Bool

    /// Creates a field.
    public init(name: String, type: AttributeType, isOptional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }
}

extension AttributeType: Codable {
    private enum CodingKeys: String, CodingKey { case array, composite }

    /// Decodes a type written as its name (`"Date"`), `{"array": T}` or `{"composite": [fields]}`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let type = AttributeType.scalarsByName[name] else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "unknown attribute type '\(name)'")
            }
            self = type
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let element = try container.decodeIfPresent(AttributeType.self, forKey: .array) {
            self = .array(element)
        } else {
            self = .composite(try container.decode([CompositeField].self, forKey: .composite))
        }
    }

    /// Encodes the type in the shape ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let element):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(element, forKey: .array)
        case .composite(let fields):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(fields, forKey: .composite)
        default:
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }
}
