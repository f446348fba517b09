import Foundation

/// The keys of a snapshot's `Codable` form: the identifier, then one key per property
/// (SwiftData's `DataStoreSnapshotCodingKey`).
public enum DataStoreSnapshotCodingKey: CodingKey, Hashable, Sendable {
    case persistentIdentifier
    case modeledProperty(String)

    public var stringValue: String {
        switch self {
        case .persistentIdentifier: "persistentIdentifier"
        case .modeledProperty(let name): name
        }
    }

    public init(stringValue: String) {
        self = stringValue == "persistentIdentifier" ? .persistentIdentifier : .modeledProperty(stringValue)
    }

    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}

extension DefaultSnapshot {
    /// Decodes a snapshot from any decoder. Each value carries its kind (`{"date": …}`), so a
    /// plain `JSONDecoder` gives back dates as dates and references as identifiers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        let persistentIdentifier = try container.decode(PersistentIdentifier.self, forKey: .persistentIdentifier)
        var values: [String: SnapshotValue] = [:]
        for key in container.allKeys where key != .persistentIdentifier {
            values[key.stringValue] =
                try container.decodeNil(forKey: key) ? .null : container.decode(SnapshotValue.self, forKey: key)
        }
        self.init(persistentIdentifier: persistentIdentifier, values: values)
    }

    /// Encodes the snapshot for any encoder, in the shape ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DataStoreSnapshotCodingKey.self)
        try container.encode(persistentIdentifier, forKey: .persistentIdentifier)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            if value == .null {
                try container.encodeNil(forKey: .modeledProperty(name))
            } else {
                try container.encode(value, forKey: .modeledProperty(name))
            }
        }
    }
}

/// `SnapshotValue`'s self-describing `Codable` form: an object with one key naming the kind.
/// Non-finite doubles and floats are written as the strings `nan`, `inf`, `-inf`, which every
/// encoder accepts.
extension SnapshotValue: Codable {
    private enum Kind: String, CodingKey, CaseIterable {
        case null, bool, int, uint, double, float, decimal, string, date, data, uuid, url
        case array, composite, reference, references
    }

    private struct FieldKey: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Kind.self)
        guard container.allKeys.count == 1, let kind = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected an object with exactly one of the keys "
                        + Kind.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        switch kind {
        case .null: self = .null
        case .bool: self = .bool(try container.decode(Bool.self, forKey: kind))
        case .int: self = .int(try container.decode(Int64.self, forKey: kind))
        case .uint: self = .uint(try container.decode(UInt64.self, forKey: kind))
        case .double:
            if let text = try? container.decode(String.self, forKey: kind) {
                guard let value = Self.nonFinite(text, as: Double.self) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: kind, in: container, debugDescription: "expected a number, nan, inf or -inf")
                }
                self = .double(value)
            } else {
                self = .double(try container.decode(Double.self, forKey: kind))
            }
        case .float:
            if let text = try? container.decode(String.self, forKey: kind) {
                guard let value = Self.nonFinite(text, as: Float.self) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: kind, in: container, debugDescription: "expected a number, nan, inf or -inf")
                }
                self = .float(value)
            } else {
                self = .float(try container.decode(Float.self, forKey: kind))
            }
        case .decimal: self = .decimal(try container.decode(Decimal.self, forKey: kind))
        case .string: self = .string(try container.decode(String.self, forKey: kind))
        case .date: self = .date(try container.decode(Date.self, forKey: kind))
        case .data: self = .data(try container.decode(Data.self, forKey: kind))
        case .uuid: self = .uuid(try container.decode(UUID.self, forKey: kind))
        case .url: self = .url(try container.decode(URL.self, forKey: kind))
        case .array: self = .array(try container.decode([SnapshotValue].self, forKey: kind))
        case .composite:
            let fields = try container.nestedContainer(keyedBy: FieldKey.self, forKey: kind)
            var values: [String: SnapshotValue] = [:]
            for key in fields.allKeys { values[key.stringValue] = try fields.decode(SnapshotValue.self, forKey: key) }
            self = .composite(values)
        case .reference: self = .reference(try container.decode(PersistentIdentifier.self, forKey: kind))
        case .references: self = .references(try container.decode([PersistentIdentifier].self, forKey: kind))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .null: try container.encode(true, forKey: .null)
        case .bool(let v): try container.encode(v, forKey: .bool)
        case .int(let v): try container.encode(v, forKey: .int)
        case .uint(let v): try container.encode(v, forKey: .uint)
        case .double(let v):
            if v.isFinite { try container.encode(v, forKey: .double) } else {
                try container.encode(Self.nonFiniteName(v), forKey: .double)
            }
        case .float(let v):
            if v.isFinite { try container.encode(v, forKey: .float) } else {
                try container.encode(Self.nonFiniteName(v), forKey: .float)
            }
        case .decimal(let v): try container.encode(v, forKey: .decimal)
        case .string(let v): try container.encode(v, forKey: .string)
        case .date(let v): try container.encode(v, forKey: .date)
        case .data(let v): try container.encode(v, forKey: .data)
        case .uuid(let v): try container.encode(v, forKey: .uuid)
        case .url(let v): try container.encode(v, forKey: .url)
        case .array(let v): try container.encode(v, forKey: .array)
        case .composite(let fields):
            var nested = container.nestedContainer(keyedBy: FieldKey.self, forKey: .composite)
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                try nested.encode(value, forKey: FieldKey(stringValue: name))
            }
        case .reference(let v): try container.encode(v, forKey: .reference)
        case .references(let v): try container.encode(v, forKey: .references)
        }
    }

    private static func nonFiniteName<F: FloatingPoint>(_ value: F) -> String {
        value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
    }

    private static func nonFinite<F: FloatingPoint>(_ text: String, as: F.Type) -> F? {
        switch text {
        case "nan": F.nan
        case "inf": F.infinity
        case "-inf": -F.infinity
        default: nil
        }
    }
}
