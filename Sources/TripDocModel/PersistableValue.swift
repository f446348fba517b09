import Foundation
import TripDocCore

/// A Swift type a `@Model` attribute may have: it says which `AttributeType` it is stored as
/// and converts to and from a `SnapshotValue`.
///
/// The scalar types SwiftData persists conform, and so do arrays and optionals of them. Conform
/// your own type (a `RawRepresentable` enum, say) by mapping it onto one of those.
public protocol PersistableValue {
    /// How values of this type are stored.
    static var attributeType: AttributeType { get }
    /// The value as a snapshot holds it.
    var snapshotValue: SnapshotValue { get }
    /// The value a snapshot holds, or `nil` when it is not one of this type.
    init?(snapshotValue: SnapshotValue)
    /// Whether an element at some depth may be `nil` (`[Int?]`): arrays of the core's types
    /// hold no `nil`, so tripdoc stores such a type as a `Codable` value instead. `false`
    /// unless an array conformance says otherwise.
    static var nestsOptionals: Bool { get }
}

extension PersistableValue {
    public static var nestsOptionals: Bool { false }
}

/// An optional attribute or to-one relationship type; its `nil` is stored as `SnapshotValue.null`.
public protocol OptionalValue {
    /// The type inside the optional.
    static var wrappedType: Any.Type { get }
    /// `nil` of this optional type.
    static var nilValue: Self { get }
    /// The wrapped value, or `nil`.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    public static var wrappedType: Any.Type { Wrapped.self }
    public static var nilValue: Optional { nil }
    public var wrappedAny: Any? { self.map { $0 as Any } }
}

extension Optional: PersistableValue where Wrapped: PersistableValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var nestsOptionals: Bool { Wrapped.nestsOptionals }
    public var snapshotValue: SnapshotValue { self?.snapshotValue ?? .null }
    public init?(snapshotValue: SnapshotValue) {
        if case .null = snapshotValue {
            self = nil
        } else {
            guard let value = Wrapped(snapshotValue: snapshotValue) else { return nil }
            self = value
        }
    }
}

extension Array: PersistableValue where Element: PersistableValue {
    public static var attributeType: AttributeType { .array(Element.attributeType) }
    public static var nestsOptionals: Bool { Element.self is any OptionalValue.Type || Element.nestsOptionals }
    public var snapshotValue: SnapshotValue { .array(map(\.snapshotValue)) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .array(let elements) = snapshotValue else { return nil }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = Element(snapshotValue: element) else { return nil }
            values.append(value)
        }
        self = values
    }
}

extension String: PersistableValue {
    public static var attributeType: AttributeType { .string }
    public var snapshotValue: SnapshotValue { .string(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .string(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Bool: PersistableValue {
    public static var attributeType: AttributeType { .bool }
    public var snapshotValue: SnapshotValue { .bool(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .bool(let value) = snapshotValue else { return nil }
        self = value
    }
}

/// Signed integers are held as `Int64`.
public protocol PersistableSignedInteger: PersistableValue, FixedWidthInteger, SignedInteger {}

extension PersistableSignedInteger {
    public var snapshotValue: SnapshotValue { .int(Int64(self)) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .int(let value) = snapshotValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}

/// Unsigned integers are held as `UInt64`.
public protocol PersistableUnsignedInteger: PersistableValue, FixedWidthInteger, UnsignedInteger {}

extension PersistableUnsignedInteger {
    public var snapshotValue: SnapshotValue { .uint(UInt64(self)) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .uint(let value) = snapshotValue, let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}

extension Int: PersistableSignedInteger { public static var attributeType: AttributeType { .int } }
extension Int8: PersistableSignedInteger { public static var attributeType: AttributeType { .int8 } }
extension Int16: PersistableSignedInteger { public static var attributeType: AttributeType { .int16 } }
extension Int32: PersistableSignedInteger { public static var attributeType: AttributeType { .int32 } }
extension Int64: PersistableSignedInteger { public static var attributeType: AttributeType { .int64 } }
extension UInt: PersistableUnsignedInteger { public static var attributeType: AttributeType { .uint } }
extension UInt8: PersistableUnsignedInteger { public static var attributeType: AttributeType { .uint8 } }
extension UInt16: PersistableUnsignedInteger { public static var attributeType: AttributeType { .uint16 } }
extension UInt32: PersistableUnsignedInteger { public static var attributeType: AttributeType { .uint32 } }
extension UInt64: PersistableUnsignedInteger { public static var attributeType: AttributeType { .uint64 } }

extension Double: PersistableValue {
    public static var attributeType: AttributeType { .double }
    public var snapshotValue: SnapshotValue { .double(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .double(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Float: PersistableValue {
    public static var attributeType: AttributeType { .float }
    public var snapshotValue: SnapshotValue { .float(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .float(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Decimal: PersistableValue {
    public static var attributeType: AttributeType { .decimal }
    public var snapshotValue: SnapshotValue { .decimal(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .decimal(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Date: PersistableValue {
    public static var attributeType: AttributeType { .date }
    public var snapshotValue: SnapshotValue { .date(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .date(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Data: PersistableValue {
    public static var attributeType: AttributeType { .data }
    public var snapshotValue: SnapshotValue { .data(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .data(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension UUID: PersistableValue {
    public static var attributeType: AttributeType { .uuid }
    public var snapshotValue: SnapshotValue { .uuid(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .uuid(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension URL: PersistableValue {
    public static var attributeType: AttributeType { .url }
    public var snapshotValue: SnapshotValue { .url(self) }
    public init?(snapshotValue: SnapshotValue) {
        guard case .url(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension RawRepresentable where RawValue: PersistableValue {
    /// A raw-representable type (an enum with a `String` or `Int` raw value) is stored as its
    /// raw value: declare `extension Kind: PersistableValue {}`.
    public static var attributeType: AttributeType { RawValue.attributeType }
    /// The raw value's snapshot value.
    public var snapshotValue: SnapshotValue { rawValue.snapshotValue }
    /// The value whose raw value `snapshotValue` holds; `nil` when it holds none, or no case has it.
    public init?(snapshotValue: SnapshotValue) {
        guard let raw = RawValue(snapshotValue: snapshotValue) else { return nil }
        self.init(rawValue: raw)
    }
}
