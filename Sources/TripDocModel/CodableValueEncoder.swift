import Foundation
import TripDocCore

/// Encodes any `Encodable` value into the ``SnapshotValue`` a ``AttributeType/codable``
/// attribute holds: keyed containers become `.composite`, unkeyed ones `.array`, and single
/// values `.bool`, `.int`, `.uint` (only above `Int64.max`), `.double`, `.string` or `.null` —
/// the canonical form ``SnapshotValue/isCodableValue`` describes, which every document format
/// reads back equal. No text is made and parsed on the way (no JSON round trip).
///
/// Foundation's types are spelled as JSON spells them, so that `tripdoc show` reads them:
/// `Date` as its exact ISO 8601 text (seconds since 2001 when no text is exact), `Data` as
/// base64, `URL` as its absolute string, `Decimal` as its decimal text, `Float` as the `Double`
/// of the same value, and NaN and infinities as `"NaN"`, `"Infinity"`, `"-Infinity"`.
struct CodableValueEncoder {
    /// The value as a snapshot holds it.
    static func encode<Value: Encodable>(_ value: Value) throws -> SnapshotValue {
        let root = Node()
        try Encoding(node: root, codingPath: []).encodeValue(value)
        return root.value
    }

    /// A value being built: containers fill it in after their encoder made it.
    final class Node {
        enum Content {
            case none
            case single(SnapshotValue)
            case keyed([String: Node])
            case unkeyed([Node])
        }

        var content = Content.none

        var value: SnapshotValue {
            switch content {
            case .none: .composite([:])  // A type that asked for no container encodes as an empty object.
            case .single(let value): value
            case .keyed(let members): .composite(members.mapValues(\.value))
            case .unkeyed(let elements): .array(elements.map(\.value))
            }
        }
    }

    /// The `Encoder` handed to a value's `encode(to:)`.
    struct Encoding: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([:]) }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoding: self) }

        /// Encodes `value` into this encoder's node, Foundation's types spelled as JSON spells them.
        func encodeValue<Value: Encodable>(_ value: Value) throws {
            switch value {
            case let date as Date:
                let seconds = date.timeIntervalSinceReferenceDate
                node.content = .single(
                    DateCoding.string(from: date).map(SnapshotValue.string) ?? Self.number(seconds))
            case let data as Data: node.content = .single(.string(data.base64EncodedString()))
            case let url as URL: node.content = .single(.string(url.absoluteString))
            case let decimal as Decimal: node.content = .single(.string(decimal.isNaN ? "NaN" : decimal.description))
            case let double as Double: node.content = .single(Self.number(double))
            case let float as Float: node.content = .single(Self.number(Double(float)))
            default: try value.encode(to: self)
            }
        }

        /// A double in canonical form: finite as `.double`, others as their text.
        static func number(_ value: Double) -> SnapshotValue {
            if value.isFinite { return .double(value) }
            return .string(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))
        }

        static func integer<T: BinaryInteger>(_ value: T) -> SnapshotValue {
            if let signed = Int64(exactly: value) { return .int(signed) }
            return .uint(UInt64(value))
        }

        struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
            let node: Node
            let codingPath: [any CodingKey]

            private func set(_ value: SnapshotValue, for key: Key) {
                let child = Node()
                child.content = .single(value)
                put(child, for: key)
            }

            private func put(_ child: Node, for key: Key) { put(child, named: key.stringValue) }

            private func put(_ child: Node, named name: String) {
                guard case .keyed(var members) = node.content else { return }
                node.content = .none
                members[name] = child
                node.content = .keyed(members)
            }

            mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
            mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
            mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
            mutating func encode(_ value: Double, forKey key: Key) throws { set(Encoding.number(value), for: key) }
            mutating func encode(_ value: Float, forKey key: Key) throws {
                set(Encoding.number(Double(value)), for: key)
            }
            mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), for: key) }
            mutating func encode(_ value: UInt, forKey key: Key) throws { set(Encoding.integer(value), for: key) }
            mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), for: key) }
            mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Encoding.integer(value), for: key) }
            mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
                let child = Node()
                try Encoding(node: child, codingPath: codingPath + [key]).encodeValue(value)
                put(child, for: key)
            }

            mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
                -> KeyedEncodingContainer<NestedKey>
            {
                let child = Node()
                put(child, for: key)
                return Encoding(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
            }

            mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
                let child = Node()
                put(child, for: key)
                return Encoding(node: child, codingPath: codingPath + [key]).unkeyedContainer()
            }

            mutating func superEncoder() -> any Encoder {
                let child = Node()
                put(child, named: "super")
                return Encoding(node: child, codingPath: codingPath + [SuperKey()])
            }

            mutating func superEncoder(forKey key: Key) -> any Encoder {
                let child = Node()
                put(child, for: key)
                return Encoding(node: child, codingPath: codingPath + [key])
            }
        }

        struct UnkeyedContainer: UnkeyedEncodingContainer {
            let node: Node
            let codingPath: [any CodingKey]
            var count: Int {
                if case .unkeyed(let elements) = node.content { return elements.count }
                return 0
            }

            private var nextKey: any CodingKey { IndexKey(index: count) }

            private func append(_ child: Node) {
                guard case .unkeyed(var elements) = node.content else { return }
                node.content = .none
                elements.append(child)
                node.content = .unkeyed(elements)
            }

            private func append(_ value: SnapshotValue) {
                let child = Node()
                child.content = .single(value)
                append(child)
            }

            mutating func encodeNil() throws { append(.null) }
            mutating func encode(_ value: Bool) throws { append(.bool(value)) }
            mutating func encode(_ value: String) throws { append(.string(value)) }
            mutating func encode(_ value: Double) throws { append(Encoding.number(value)) }
            mutating func encode(_ value: Float) throws { append(Encoding.number(Double(value))) }
            mutating func encode(_ value: Int) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: Int8) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: Int16) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: Int32) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: Int64) throws { append(.int(value)) }
            mutating func encode(_ value: UInt) throws { append(Encoding.integer(value)) }
            mutating func encode(_ value: UInt8) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: UInt16) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: UInt32) throws { append(.int(Int64(value))) }
            mutating func encode(_ value: UInt64) throws { append(Encoding.integer(value)) }
            mutating func encode<T: Encodable>(_ value: T) throws {
                let child = Node()
                try Encoding(node: child, codingPath: codingPath + [nextKey]).encodeValue(value)
                append(child)
            }

            mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
                -> KeyedEncodingContainer<NestedKey>
            {
                let child = Node()
                let path = codingPath + [nextKey]
                append(child)
                return Encoding(node: child, codingPath: path).container(keyedBy: keyType)
            }

            mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
                let child = Node()
                let path = codingPath + [nextKey]
                append(child)
                return Encoding(node: child, codingPath: path).unkeyedContainer()
            }

            mutating func superEncoder() -> any Encoder {
                let child = Node()
                let path = codingPath + [nextKey]
                append(child)
                return Encoding(node: child, codingPath: path)
            }
        }

        struct SingleContainer: SingleValueEncodingContainer {
            let encoding: Encoding
            var codingPath: [any CodingKey] { encoding.codingPath }

            private func set(_ value: SnapshotValue) { encoding.node.content = .single(value) }

            mutating func encodeNil() throws { set(.null) }
            mutating func encode(_ value: Bool) throws { set(.bool(value)) }
            mutating func encode(_ value: String) throws { set(.string(value)) }
            mutating func encode(_ value: Double) throws { set(Encoding.number(value)) }
            mutating func encode(_ value: Float) throws { set(Encoding.number(Double(value))) }
            mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: Int64) throws { set(.int(value)) }
            mutating func encode(_ value: UInt) throws { set(Encoding.integer(value)) }
            mutating func encode(_ value: UInt8) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: UInt16) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: UInt32) throws { set(.int(Int64(value))) }
            mutating func encode(_ value: UInt64) throws { set(Encoding.integer(value)) }
            mutating func encode<T: Encodable>(_ value: T) throws { try encoding.encodeValue(value) }
        }
    }

    /// The key `super`, under which `superEncoder()` puts a superclass's values.
    struct SuperKey: CodingKey {
        init() {}
        init?(stringValue: String) { guard stringValue == "super" else { return nil } }
        init?(intValue: Int) { nil }
        var stringValue: String { "super" }
        var intValue: Int? { nil }
    }

    /// The key of an array element in a coding path.
    struct IndexKey: CodingKey {
        let index: Int
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { index = intValue }
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
    }

}
