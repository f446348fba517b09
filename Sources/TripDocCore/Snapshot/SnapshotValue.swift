import Foundation

/// One persisted value of a snapshot: an attribute's value or a relationship's references.
///
/// Values keep their Swift type: a `Date` is a date, a `UInt64.max` is exact, `Data` is bytes.
/// Equality is *exact*: two doubles are equal when their bit patterns are, so `Double.nan`
/// equals itself and `0.0` differs from `-0.0`. That is the equality a round trip must keep.
public enum SnapshotValue: Sendable {
    /// No value: a `nil` optional attribute or an empty to-one relationship.
    case null
    case bool(Bool)
    /// Any signed integer attribute (`Int`, `Int8` … `Int64`).
    case int(Int64)
    /// Any unsigned integer attribute (`UInt`, `UInt8` … `UInt64`).
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// The elements of an ``AttributeType/array(_:)`` attribute.
    case array([SnapshotValue])
    /// The fields of an ``AttributeType/composite(_:)`` attribute; `nil` fields are absent.
    case composite([String: SnapshotValue])
    /// A to-one relationship's destination. (Held in a box of its own, so that an identifier,
    /// the largest payload, does not make every value of every snapshot as large.)
    indirect case reference(PersistentIdentifier)
    /// A to-many relationship's destinations, in order.
    case references([PersistentIdentifier])
}

extension SnapshotValue: Hashable {
    public static func == (lhs: SnapshotValue, rhs: SnapshotValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern
        case (.decimal(let a), .decimal(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.url(let a), .url(let b)): a.absoluteString == b.absoluteString
        case (.array(let a), .array(let b)): a == b
        case (.composite(let a), .composite(let b)): a == b
        case (.reference(let a), .reference(let b)): a == b
        case (.references(let a), .references(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let v): hasher.combine(v)
        case .int(let v): hasher.combine(v)
        case .uint(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v.bitPattern)
        case .float(let v): hasher.combine(v.bitPattern)
        case .decimal(let v): hasher.combine(v.isNaN ? "NaN" : v.description)
        case .string(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v):
            // Foundation's own hash of `Data` reads only its first 80 bytes: values that share
            // them would all collide (a uniqueness check over them went quadratic).
            hasher.combine(v.count)
            v.withUnsafeBytes { hasher.combine(bytes: $0) }
        case .uuid(let v): hasher.combine(v)
        case .url(let v): hasher.combine(v.absoluteString)
        case .array(let v): hasher.combine(v)
        case .composite(let v): hasher.combine(v)
        case .reference(let v): hasher.combine(v)
        case .references(let v): hasher.combine(v)
        }
    }
}

extension SnapshotValue {
    /// A short name for the kind of value, as error messages use it ("a date", "a string").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Bool"
        case .int: "a signed integer"
        case .uint: "an unsigned integer"
        case .double: "a Double"
        case .float: "a Float"
        case .decimal(let v):
            DecimalCoding.isStorable(v)
                ? "a Decimal"
                : "a Decimal of more than 38 significant digits (\(v)), which documents cannot hold (FORMATS 3.7)"
        case .string: "a String"
        case .date: "a Date"
        case .data: "Data"
        case .uuid: "a UUID"
        case .url(let v):
            URLCoding.isStorable(v)
                ? "a URL" : "a URL that is not an RFC 3986 URI reference (\(v.absoluteString)), which documents cannot hold (FORMATS 3.9)"
        case .array: "an array"
        case .composite: "a composite value"
        case .reference: "a to-one reference"
        case .references: "a to-many reference list"
        }
    }

    /// The identifiers this value refers to (empty for attribute values).
    public var referencedIdentifiers: [PersistentIdentifier] {
        switch self {
        case .reference(let id): [id]
        case .references(let ids): ids
        default: []
        }
    }

    /// Whether this value refers to an identifier that satisfies `predicate` (never, for an
    /// attribute value): what ``referencedIdentifiers`` tells, without making an array.
    public func refers(where predicate: (PersistentIdentifier) throws -> Bool) rethrows -> Bool {
        switch self {
        case .reference(let id): try predicate(id)
        case .references(let ids): try ids.contains(where: predicate)
        default: false
        }
    }

    /// The value with every reference rewritten through `remap`; attribute values are unchanged.
    public func remappingReferences(_ remap: (PersistentIdentifier) -> PersistentIdentifier) -> SnapshotValue {
        switch self {
        case .reference(let id): .reference(remap(id))
        case .references(let ids): .references(ids.map(remap))
        default: self
        }
    }

    /// Whether the value can be stored in an attribute of `type` (`.null` fits no type;
    /// optionality is the attribute's business): of its kind, in its range, and for a `Decimal`
    /// or a `URL` one whose text reads back (``DecimalCoding/isStorable(_:)``,
    /// ``URLCoding/isStorable(_:)``).
    public func fits(_ type: AttributeType) -> Bool {
        if case .codable = type { return isCodableValue }
        switch (self, type) {
        case (.string, .string), (.bool, .bool), (.double, .double), (.float, .float),
            (.date, .date), (.data, .data), (.uuid, .uuid):
            return true
        case (.url(let v), .url):
            // What the reader would refuse (":a", a zone identifier) fits no attribute.
            return URLCoding.isStorable(v)
        case (.decimal(let v), .decimal):
            // What the reader would refuse (39 significant digits) fits no attribute.
            return DecimalCoding.isStorable(v)
        case (.int(let v), _):
            return type.signedRange?.contains(v) ?? false
        case (.uint(let v), _):
            guard let maximum = type.unsignedMaximum else { return false }
            return v <= maximum
        case (.array(let elements), .array(let elementType)):
            return elements.allSatisfy { $0.fits(elementType) }
        case (.composite(let fields), .composite(let declared)):
            for field in declared {
                guard let value = fields[field.name], value != .null else {
                    if field.isOptional { continue } else { return false }
                }
                if !value.fits(field.type) { return false }
            }
            let names = Set(declared.map(\.name))
            return fields.keys.allSatisfy { names.contains($0) }
        default:
            return false
        }
    }
}

extension SnapshotValue {
    /// Whether the value is one an ``AttributeType/codable`` attribute holds: `.bool`, `.int`,
    /// `.uint` above `Int64.max` (smaller unsigned integers are `.int`), a finite `.double`,
    /// `.string`, `.null`, and `.array`s and `.composite`s of those whose keys ``isCodableKey(_:)``
    /// accepts. That is what every document format writes and reads back exactly, so a value
    /// that fits reads back equal (docs/FORMATS.md 3.10).
    public var isCodableValue: Bool {
        switch self {
        case .bool, .int, .string, .null: true
        case .uint(let v): v > UInt64(Int64.max)
        case .double(let v): v.isFinite
        case .array(let elements): elements.allSatisfy(\.isCodableValue)
        case .composite(let members): members.allSatisfy { Self.isCodableKey($0.key) && $0.value.isCodableValue }
        default: false
        }
    }

    /// Whether `key` may name a member of a ``AttributeType/codable`` value: any text without a
    /// character XML 1.0 cannot carry (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE,
    /// U+FFFF), so that every format can write it as a key.
    public static func isCodableKey(_ key: String) -> Bool {
        !key.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0..<0x20, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }
}
