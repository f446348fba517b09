import Foundation
import TripDocCore

/// How a model attribute's Swift value becomes a ``SnapshotValue`` and back, chosen once per
/// property from its declared type by ``ModelDescription``:
///
/// - a ``PersistableValue`` (the scalars SwiftData persists, arrays and optionals of them, and
///   types conformed by hand) is stored as its own ``AttributeType``, unless it nests optionals
///   (`[Int?]`), which is stored as a `Codable` value;
/// - a `RawRepresentable` type whose raw value is one (an `enum Status: String`) is stored as
///   its raw value, typed like it (`String`);
/// - any other `Codable` type (a struct, an enum with associated values, arrays and
///   dictionaries of them) is stored as a ``AttributeType/codable`` value through
///   ``CodableValueEncoder`` and ``CodableValueDecoder``;
/// - an optional of the last two is stored like its wrapped type, `nil` as ``SnapshotValue/null``.
enum AttributeCoding {
    case persistable(any PersistableValue.Type)
    case rawValue(any RawRepresentable.Type, raw: any PersistableValue.Type)
    case codable(any Codable.Type)
    indirect case optional(AttributeCoding, nilValue: Any)
    /// `@Attribute(.transformable(by:))`: stored as the `Data` the transformer makes; `isValue`
    /// says whether what it gives back is of the property's type.
    case transformed(ValueTransformer, name: String, isValue: (Any) -> Bool)

    /// The coding of `type`, or `nil` when tripdoc cannot store it.
    init?(_ type: Any.Type) {
        if let persistable = type as? any PersistableValue.Type, !persistable.nestsOptionals {
            self = .persistable(persistable)
        } else if let optional = type as? any OptionalValue.Type {
            guard let wrapped = AttributeCoding(optional.wrappedType) else { return nil }
            self = .optional(wrapped, nilValue: optional.nilValue)
        } else if let raw = type as? any RawRepresentable.Type, let rawType = Self.rawValueType(of: raw) {
            self = .rawValue(raw, raw: rawType)
        } else if let codable = type as? any Codable.Type {
            self = .codable(codable)
        } else {
            return nil
        }
    }

    private static func rawValueType<R: RawRepresentable>(of _: R.Type) -> (any PersistableValue.Type)? {
        R.RawValue.self as? any PersistableValue.Type
    }

    /// How values are stored.
    var attributeType: AttributeType {
        switch self {
        case .persistable(let type): type.attributeType
        case .rawValue(_, let raw): raw.attributeType
        case .codable: .codable
        case .optional(let wrapped, _): wrapped.attributeType
        case .transformed: .data
        }
    }

    /// For a property of one of the core's scalar types (or an optional of one), whose value is
    /// read without fail from any snapshot value that fits its attribute type: that type, so
    /// that a model can keep such a value as stored and convert it on first read. `nil` for the
    /// rest (arrays, raw values, `Codable` values, transformed values, your own conformances).
    var onDemandType: (type: AttributeType, isOptional: Bool)? {
        switch self {
        case .persistable(let type):
            guard Self.scalarTypes.contains(ObjectIdentifier(type)) else { return nil }
            return (type.attributeType, false)
        case .optional(.persistable(let type), _):
            guard Self.scalarTypes.contains(ObjectIdentifier(type)) else { return nil }
            return (type.attributeType, true)
        default:
            return nil
        }
    }

    /// The core's scalar types, whose `init(snapshotValue:)` succeeds exactly for the values
    /// that fit their attribute type.
    private static let scalarTypes: Set<ObjectIdentifier> = Set(
        ([
            String.self, Bool.self, Double.self, Float.self, Decimal.self, Date.self, Data.self, UUID.self, URL.self,
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
            UInt64.self,
        ] as [any PersistableValue.Type]).map { ObjectIdentifier($0) })

    /// Whether `nil` is a value of the type.
    var isOptional: Bool {
        switch self {
        case .persistable(let type): type is any OptionalValue.Type
        case .optional: true
        default: false
        }
    }

    /// The snapshot value of `value`, a value of the property's type.
    ///
    /// - Throws: `EncodingError` from a `Codable` value's `encode(to:)`, or
    ///   ``AttributeCodingError`` for a value of another type.
    func snapshotValue(of value: Any) throws -> SnapshotValue {
        switch self {
        case .persistable:
            guard let value = value as? any PersistableValue else { throw AttributeCodingError.notOfType(String(reflecting: type(of: value))) }
            return value.snapshotValue
        case .rawValue:
            guard let value = value as? any RawRepresentable,
                let raw = Self.rawValue(of: value) as? any PersistableValue
            else { throw AttributeCodingError.notOfType(String(reflecting: type(of: value))) }
            return raw.snapshotValue
        case .codable:
            guard let value = value as? any Encodable else { throw AttributeCodingError.notOfType(String(reflecting: type(of: value))) }
            return try CodableValueEncoder.encode(value)
        case .optional(let wrapped, _):
            guard let optional = value as? any OptionalValue else { return try wrapped.snapshotValue(of: value) }
            guard let some = optional.wrappedAny else { return .null }
            return try wrapped.snapshotValue(of: some)
        case .transformed(let transformer, let name, _):
            guard let data = transformer.transformedValue(value) as? Data else {
                throw AttributeCodingError.transformerGaveNoData(name)
            }
            return .data(data)
        }
    }

    private static func rawValue<R: RawRepresentable>(of value: R) -> Any { value.rawValue }

    /// The Swift value `snapshot` holds.
    ///
    /// - Throws: ``AttributeCodingError`` or `DecodingError` when the value is not one of the type.
    func value(from snapshot: SnapshotValue) throws -> Any {
        switch self {
        case .persistable(let type):
            guard let value = type.init(snapshotValue: snapshot) else {
                throw AttributeCodingError.doesNotFit(snapshot, attributeType)
            }
            return value
        case .rawValue(let type, let raw):
            guard let rawValue = raw.init(snapshotValue: snapshot), let value = Self.make(type, rawValue: rawValue) else {
                throw AttributeCodingError.doesNotFit(snapshot, attributeType)
            }
            return value
        case .codable(let type):
            return try CodableValueDecoder.decode(type, from: snapshot)
        case .optional(let wrapped, let nilValue):
            if case .null = snapshot { return nilValue }
            return try wrapped.value(from: snapshot)
        case .transformed(let transformer, let name, let isValue):
            guard case .data(let data) = snapshot else { throw AttributeCodingError.doesNotFit(snapshot, .data) }
            guard let value = transformer.reverseTransformedValue(data), isValue(value) else {
                throw AttributeCodingError.transformerGaveNoValue(name)
            }
            return value
        }
    }

    private static func make<R: RawRepresentable>(_ type: R.Type, rawValue: Any) -> R? {
        (rawValue as? R.RawValue).flatMap(R.init(rawValue:))
    }
}

/// Why a value could not be converted between its Swift type and its snapshot value.
enum AttributeCodingError: Error, CustomStringConvertible {
    /// A Swift value of another type than the property's (the type's name).
    case notOfType(String)
    /// A snapshot value that is no value of the attribute's type.
    case doesNotFit(SnapshotValue, AttributeType)
    /// A transformer whose `transformedValue` gave no `Data`.
    case transformerGaveNoData(String)
    /// A transformer whose `reverseTransformedValue` gave no value of the property's type.
    case transformerGaveNoValue(String)

    var description: String {
        switch self {
        case .notOfType(let type): "the value is of type \(type), not the property's"
        case .doesNotFit(let value, let type):
            "the document holds \(value.kindDescription) (\(value)), which is no value of \(type.name)"
        case .transformerGaveNoData(let name): "the value transformer \(name) did not make Data of the value"
        case .transformerGaveNoValue(let name):
            "the value transformer \(name) did not give back a value of the property's type"
        }
    }
}
