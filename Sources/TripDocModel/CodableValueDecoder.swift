import Foundation
import TripDocCore

/// Decodes a `Decodable` value from the ``SnapshotValue`` a ``AttributeType/codable`` attribute
/// holds, the inverse of ``CodableValueEncoder``: `.composite` gives keyed containers, `.array`
/// unkeyed ones. Numbers convert to the type asked for when they fit it exactly (an `Int` from
/// `3`, a `Double` from `3`, a `Float` from `0.1`'s `Double`); Foundation's types are read from
/// the spellings the encoder writes (and a `Date` also from seconds since 2001).
///
/// A value that does not fit the type throws `DecodingError`, with the coding path.
struct CodableValueDecoder {
    /// The value of `type` that `value` holds.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: SnapshotValue) throws -> Value {
        try Decoding(value: value, codingPath: []).decodeValue(type)
    }

    /// The `Decoder` handed to a value's `init(from:)`.
    struct Decoding: Decoder {
        let value: SnapshotValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .composite(let members) = value else { throw mismatch([String: Any].self, "an object") }
            return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch([Any].self, "an array") }
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoding: self) }

        func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
            .typeMismatch(
                type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindDescription)"))
        }

        /// Decodes `type`, Foundation's types from the encoder's spellings.
        func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
            switch type {
            case is Date.Type: return try date() as! T
            case is Data.Type:
                guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                    throw mismatch(type, "data as base64 text")
                }
                return data as! T
            case is URL.Type:
                guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(type, "a URL") }
                return url as! T
            case is Decimal.Type:
                switch value {
                case .string(let text):
                    guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                        throw mismatch(type, "a decimal number")
                    }
                    return decimal as! T
                case .int(let v): return Decimal(v) as! T
                case .uint(let v): return Decimal(v) as! T
                case .double(let v): return Decimal(v) as! T
                default: throw mismatch(type, "a decimal number")
                }
            case is Double.Type: return try double() as! T
            case is Float.Type: return Float(try double()) as! T
            default: return try T(from: self)
            }
        }

        private func date() throws -> Date {
            switch value {
            case .string(let text):
                if let date = DateCoding.date(from: text) { return date }
                if let seconds = Self.nonFinite(text) { return Date(timeIntervalSinceReferenceDate: seconds) }
                throw mismatch(Date.self, "a date in ISO 8601 form")
            case .int, .uint, .double: return Date(timeIntervalSinceReferenceDate: try double())
            default: throw mismatch(Date.self, "a date")
            }
        }

        func double() throws -> Double {
            switch value {
            case .double(let v): return v
            case .int(let v): return Double(v)
            case .uint(let v): return Double(v)
            case .string(let text):
                if let v = Self.nonFinite(text) { return v }
                throw mismatch(Double.self, "a number")
            default: throw mismatch(Double.self, "a number")
            }
        }

        func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            let exact: I? =
                switch value {
                case .int(let v): I(exactly: v)
                case .uint(let v): I(exactly: v)
                case .double(let v): I(exactly: v)
                default: nil
                }
            guard let exact else {
                if case .int = value { throw outOfRange(type) }
                if case .uint = value { throw outOfRange(type) }
                throw mismatch(type, "an integer")
            }
            return exact
        }

        private func outOfRange(_ type: Any.Type) -> DecodingError {
            .dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) does not fit \(type)"))
        }

        static func nonFinite(_ text: String) -> Double? {
            switch text {
            case "NaN": .nan
            case "Infinity": .infinity
            case "-Infinity": -.infinity
            default: nil
            }
        }

        func bool() throws -> Bool {
            guard case .bool(let v) = value else { throw mismatch(Bool.self, "a Bool") }
            return v
        }

        func string() throws -> String {
            guard case .string(let v) = value else { throw mismatch(String.self, "a String") }
            return v
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: SnapshotValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }
        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func decoding(_ key: Key) throws -> Decoding {
            guard let member = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
            }
            return Decoding(value: member, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let member = members[key.stringValue] else { return true }
            return member == .null
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoding(key).bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoding(key).string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoding(key).double() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decoding(key).double()) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoding(key).integer(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoding(key).integer(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoding(key).integer(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoding(key).integer(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoding(key).integer(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoding(key).integer(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoding(key).integer(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoding(key).integer(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoding(key).integer(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoding(key).integer(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoding(key).decodeValue(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoding(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoding(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            Decoding(value: members["super"] ?? .null, codingPath: codingPath + [CodableValueEncoder.SuperKey()])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            Decoding(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [SnapshotValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(elements: [SnapshotValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next(_ type: Any.Type) throws -> Decoding {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, .init(codingPath: codingPath, debugDescription: "the array has no element \(currentIndex)"))
            }
            defer { currentIndex += 1 }
            return Decoding(
                value: elements[currentIndex], codingPath: codingPath + [CodableValueEncoder.IndexKey(index: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).bool() }
        mutating func decode(_ type: String.Type) throws -> String { try next(type).string() }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type).double() }
        mutating func decode(_ type: Float.Type) throws -> Float { Float(try next(type).double()) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type).integer(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).integer(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).integer(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).integer(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).integer(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).integer(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).integer(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).integer(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).integer(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).integer(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next([String: Any].self).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([Any].self).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
    }

    struct SingleContainer: SingleValueDecodingContainer {
        let decoding: Decoding
        var codingPath: [any CodingKey] { decoding.codingPath }

        func decodeNil() -> Bool { decoding.value == .null }
        func decode(_ type: Bool.Type) throws -> Bool { try decoding.bool() }
        func decode(_ type: String.Type) throws -> String { try decoding.string() }
        func decode(_ type: Double.Type) throws -> Double { try decoding.double() }
        func decode(_ type: Float.Type) throws -> Float { Float(try decoding.double()) }
        func decode(_ type: Int.Type) throws -> Int { try decoding.integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoding.integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoding.integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoding.integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoding.integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoding.integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.integer(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoding.decodeValue(type) }
    }
}
