import Foundation

extension DocumentDecoder {
    /// Reads one attribute value of `type`.
    func decodeValue<R: StructuredReader>(_ type: AttributeType, from reader: inout R) throws -> SnapshotValue {
        let start = reader.bookmark
        switch type {
        case .string:
            return .string(try reader.readString())
        case .bool:
            return .bool(try reader.readBool())
        case .int, .int8, .int16, .int32, .int64:
            let value = try reader.readInt64()
            guard let range = type.signedRange, range.contains(value) else {
                throw failure(at: start, in: reader, "\(value) does not fit \(type.name) (\(type.signedRange!))")
            }
            return .int(value)
        case .uint, .uint8, .uint16, .uint32, .uint64:
            let value = try reader.readUInt64()
            guard let maximum = type.unsignedMaximum, value <= maximum else {
                throw failure(at: start, in: reader, "\(value) does not fit \(type.name) (0...\(type.unsignedMaximum!))")
            }
            return .uint(value)
        case .double:
            if try reader.peekKind() == .string {
                return .double(try nonFinite(Double.self, from: &reader))
            }
            return .double(try reader.readDouble())
        case .float:
            if try reader.peekKind() == .string {
                return .float(try nonFinite(Float.self, from: &reader))
            }
            return .float(try reader.readFloat())
        case .decimal:
            let text = try readText(describedAs: "a decimal number as a string such as \"12.50\"", from: &reader)
            guard let value = Self.decimal(from: text) else {
                throw failure(
                    at: start, in: reader,
                    "expected a decimal number such as \"12.50\" with at most 38 significant digits, none below 10^-128, "
                        + "and a magnitude of at most (2^128 - 1) × 10^127 (FORMATS 3.7), found \"\(text)\"")
            }
            return .decimal(value)
        case .date:
            switch try reader.peekKind() {
            case .date:
                return .date(try reader.readDate())
            case .integer, .real:
                return .date(Date(timeIntervalSinceReferenceDate: try reader.readDouble()))
            case .string:
                // Read in place: only text that is not a date becomes a string.
                let (date, other) = try reader.readString { utf8 -> (Date?, String?) in
                    if let date = DateCoding.date(fromUTF8: utf8) { return (date, nil) }
                    return (nil, String(decoding: utf8, as: UTF8.self))
                }
                if let date { return .date(date) }
                let text = other ?? ""
                if let interval = Self.nonFiniteValue(text, as: Double.self) {
                    return .date(Date(timeIntervalSinceReferenceDate: interval))
                }
                throw failure(
                    at: start, in: reader,
                    "expected a date in ISO 8601 form such as \"2024-06-01T09:30:00Z\", found \"\(text)\"")
            case let other:
                throw failure(at: start, in: reader, "expected a date, found \(other.article)")
            }
        case .data:
            return .data(try reader.readData())
        case .uuid:
            let text = try readText(describedAs: "a UUID as a string", from: &reader)
            guard let value = UUID(uuidString: text) else {
                throw failure(
                    at: start, in: reader,
                    "expected a UUID such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", found \"\(text)\"")
            }
            return .uuid(value)
        case .url:
            let text = try readText(describedAs: "a URL as a string", from: &reader)
            // The grammar decides (URLCoding), not Foundation, which takes more (":a") and repairs
            // some text ("a b" → "a%20b"); what it takes, Foundation parses as written.
            guard URLCoding.isValid(text), let value = URL(string: text), value.absoluteString == text else {
                throw failure(
                    at: start, in: reader,
                    "expected a URL as RFC 3986 defines a URI reference (ASCII, characters outside it percent-encoded), "
                        + "found \"\(text)\"")
            }
            return .url(value)
        case .array(let elementType):
            try expect(.array, in: &reader)
            try reader.beginArray()
            var elements: [SnapshotValue] = []
            while try reader.nextElement() {
                let element = try within("[\(elements.count)]") { try decodeValue(elementType, from: &reader) }
                elements.append(element)
            }
            return .array(elements)
        case .composite(let fields):
            let byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            var values: [String: SnapshotValue] = [:]
            try decodeObject(from: &reader, allowedKeys: Set(byName.keys)) { name, reader in
                let field = byName[name]!
                if field.isOptional, try reader.peekKind() == .null {
                    try reader.skipValue()
                } else {
                    values[name] = try decodeValue(field.type, from: &reader)
                }
            }
            for field in fields where !field.isOptional && values[field.name] == nil {
                throw failure(at: start, in: reader, "the composite value has no '\(field.name)'")
            }
            return .composite(values)
        case .codable:
            return try decodeCodableValue(from: &reader)
        }
    }

    /// Reads one value of a ``AttributeType/codable`` attribute, which describes itself: its
    /// kinds are the reader's (docs/FORMATS.md 3.10), read into the canonical form
    /// ``SnapshotValue/isCodableValue`` describes.
    func decodeCodableValue<R: StructuredReader>(from reader: inout R) throws -> SnapshotValue {
        let start = reader.bookmark
        switch try reader.peekKind() {
        case .null:
            try reader.skipValue()
            return .null
        case .bool:
            return .bool(try reader.readBool())
        case .string:
            return .string(try reader.readString())
        case .integer:
            if let value = try? reader.readInt64() { return .int(value) }
            reader.resume(at: start)
            return .uint(try reader.readUInt64())
        case .real:
            let value = try reader.readDouble()
            return value.isFinite ? .double(value) : .string(DocumentEncoder.nonFiniteText(value))
        case .data:
            // A property list's `nil` (7.2), or text XML cannot carry written as its UTF-8.
            let bytes = try reader.readData()
            if bytes.isEmpty { return .null }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw failure(at: start, in: reader, "expected text as UTF-8 in <data>, found bytes that are not UTF-8")
            }
            return .string(text)
        case .date:
            let date = try reader.readDate()
            return DateCoding.string(from: date).map(SnapshotValue.string) ?? .double(date.timeIntervalSinceReferenceDate)
        case .array:
            try reader.beginArray()
            var elements: [SnapshotValue] = []
            while try reader.nextElement() {
                elements.append(try within("[\(elements.count)]") { try decodeCodableValue(from: &reader) })
            }
            return .array(elements)
        case .object:
            var members: [String: SnapshotValue] = [:]
            try decodeObject(from: &reader, allowedKeys: nil) { key, reader in
                guard SnapshotValue.isCodableKey(key) else {
                    throw failure(
                        at: reader.bookmark, in: reader,
                        "a member name of a Codable value holds a control character XML cannot carry")
                }
                members[key] = try decodeCodableValue(from: &reader)
            }
            return .composite(members)
        }
    }

    private func readText<R: StructuredReader>(describedAs description: String, from reader: inout R) throws -> String {
        let found = try reader.peekKind()
        guard found == .string else {
            throw failure(at: reader.bookmark, in: reader, "expected \(description), found \(found.article)")
        }
        return try reader.readString()
    }

    private func nonFinite<F: FloatingPoint, R: StructuredReader>(_: F.Type, from reader: inout R) throws -> F {
        let start = reader.bookmark
        let text = try reader.readString()
        guard let value = Self.nonFiniteValue(text, as: F.self) else {
            throw failure(
                at: start, in: reader, "expected a number, or \"NaN\", \"Infinity\" or \"-Infinity\", found \"\(text)\"")
        }
        return value
    }

    static func nonFiniteValue<F: FloatingPoint>(_ text: String, as: F.Type) -> F? {
        switch text {
        case "NaN": F.nan
        case "Infinity": F.infinity
        case "-Infinity": -F.infinity
        default: nil
        }
    }

    /// A decimal from its text (``DecimalCoding/value(of:)``).
    static func decimal(from text: String) -> Decimal? {
        DecimalCoding.value(of: text)
    }
}
