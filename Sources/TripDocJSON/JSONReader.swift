import Foundation
import TripDocCore

/// A strict JSON pull parser (RFC 8259) over bytes in memory, for the shared document decoder.
///
/// Our rules, where Foundation's parsers are lenient: no trailing commas, no comments, no
/// leading zeros, no `NaN` literals; strings must be valid UTF-8 with no raw control characters
/// and no unpaired surrogate escapes; integers are read exactly (never through `Double`) and
/// must fit the requested type; nesting depth and string length are capped by
/// `DocumentLimits`. A UTF-8 byte order mark
/// at the start is skipped. Errors carry the line and column.
///
/// The reader borrows `bytes`; it must not outlive the buffer. The bytes may still be arriving
/// as they are read (``init(arriving:limits:arrived:)``): the reader then waits for more where it
/// needs them, and reads exactly as it would once all were there.
public struct JSONReader: StructuredReader {
    /// A copy reads the same borrowed bytes on its own.
    public static var copiesReadIndependently: Bool { true }

    /// A position in the text, to come back to for an error's place (`StructuredReader.bookmark`).
    public struct Bookmark {
        var position: Int
        /// The last structural token: `{`, `[`, or `v` after a value or key.
        var last: UInt8
        var depth: Int
    }

    /// How a `Data` value kept in an external entry is written: `external:` and the entry's SHA-256.
    public static let externalPrefix = "external:"

    /// The bytes that have arrived: all of them, unless ``arrived`` is set.
    private var bytes: UnsafeRawBufferPointer
    /// Waits until more than the given count of bytes have arrived, or all that will have, and
    /// returns how many have; `nil` when all are there from the start.
    private let arrived: ((Int) -> Int)?
    private var position = 0
    private var last: UInt8 = UInt8(ascii: "v")
    private var depth = 0
    /// The pages of a mapped file already read, handed back as the reader moves on.
    private var consumed = ConsumedPages()
    /// The nesting-depth and string-length caps.
    private let limits: DocumentLimits

    /// Resolves a `Data` value written as `external:<sha256>` (the bundle's external entries);
    /// without it such text is not base64 and is refused.
    public var externalDataResolver: ((String) throws -> Data)?

    /// A reader over `bytes`, which must outlive it, enforcing the nesting-depth and
    /// string-length caps of `limits`.
    public init(bytes: UnsafeRawBufferPointer, limits: DocumentLimits = .standard) {
        self.bytes = bytes
        self.limits = limits
        arrived = nil
        skipByteOrderMark()
    }

    /// A reader over bytes that are still arriving, in order, into `region` (which must outlive
    /// the reader): `arrived(count)` waits until more than `count` bytes have arrived or no more
    /// will, and returns how many have (`count` itself when no more will). The reader waits only
    /// when it needs a byte it has not got, so it can read a document as it is being made (a
    /// bundle's entry as it inflates).
    public init(arriving region: UnsafeRawBufferPointer, limits: DocumentLimits = .standard, arrived: @escaping (Int) -> Int) {
        bytes = UnsafeRawBufferPointer(start: region.baseAddress, count: 0)
        self.limits = limits
        self.arrived = arrived
        skipByteOrderMark()
    }

    private mutating func skipByteOrderMark() {
        if has(2), bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// Whether the byte at `index` is there, waiting for it if it is still to arrive.
    @inline(__always)
    private mutating func has(_ index: Int) -> Bool {
        index < bytes.count || waitForByte(at: index)
    }

    @inline(never)
    private mutating func waitForByte(at index: Int) -> Bool {
        guard let arrived else { return false }
        while index >= bytes.count {
            let count = arrived(bytes.count)
            guard count > bytes.count else { return false }
            bytes = UnsafeRawBufferPointer(start: bytes.baseAddress, count: count)
        }
        return true
    }

    public var bookmark: Bookmark {
        mutating get {
            skipWhitespace()
            return Bookmark(position: position, last: last, depth: depth)
        }
    }

    public mutating func resume(at bookmark: Bookmark) {
        position = bookmark.position
        last = bookmark.last
        depth = bookmark.depth
    }

    public func location(of bookmark: Bookmark) -> SourceLocation { location(at: bookmark.position) }

    /// The line and column (in Unicode scalars) of a byte offset.
    func location(at offset: Int) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column)
    }

    // MARK: Errors

    private func error(_ message: String, at offset: Int? = nil) -> StructuredReadError {
        StructuredReadError(location: location(at: offset ?? position), message: message)
    }

    private mutating func foundDescription() -> String {
        guard has(position) else { return "the end of the file" }
        switch bytes[position] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "}"): return "'}'"
        case UInt8(ascii: "]"): return "']'"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(bytes[position])))'"
        default: return "the byte 0x\(String(bytes[position], radix: 16, uppercase: true))"
        }
    }

    private mutating func mismatch(_ expected: String) -> StructuredReadError {
        error("expected \(expected), found \(foundDescription())")
    }

    /// A well-formed value of another kind than the one asked for.
    private mutating func wrongValue(_ expected: String, at offset: Int? = nil, message: String? = nil) -> StructuredReadError {
        var failure = error(message ?? "expected \(expected), found \(foundDescription())", at: offset)
        failure.isMalformed = false
        return failure
    }

    // MARK: Structure

    @inline(__always)
    private mutating func skipWhitespace() {
        // Over local copies: `bytes` changes only in `waitForByte`, which the compiler cannot
        // see inside, so a loop over `self` would load it again at every byte.
        repeat {
            let bytes = self.bytes
            var position = self.position
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default:
                    self.position = position
                    return
                }
            }
            self.position = position
        } while waitForByte(at: position)
    }

    private mutating func peekByte() -> UInt8? {
        skipWhitespace()
        return has(position) ? bytes[position] : nil
    }

    public mutating func peekKind() throws -> StructuredValueKind {
        guard let byte = peekByte() else { throw error("unexpected end of file: the document is cut short") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let saved = position
            defer { position = saved }
            return try scanNumber().isInteger ? .integer : .real
        default:
            throw error("expected a value, found \(foundDescription())")
        }
    }

    private mutating func enter(_ byte: UInt8, kind: String) throws {
        guard peekByte() == byte else { throw wrongValue(kind) }
        guard depth < limits.maximumNestingDepth else {
            throw limits.exceeded(.nestingDepth, at: location(at: position))
        }
        position += 1
        depth += 1
        last = byte
    }

    public mutating func beginObject() throws { try enter(UInt8(ascii: "{"), kind: "an object") }
    public mutating func beginArray() throws { try enter(UInt8(ascii: "["), kind: "an array") }

    public mutating func nextKey() throws -> String? {
        switch try nextKey(matching: "") {
        case .other(let key): key
        case .expected: ""  // unreachable: an empty expected key is never matched
        case nil: nil
        }
    }

    public mutating func nextKey(matching expected: String) throws -> StructuredKeyMatch? {
        guard try atMemberName() else { return nil }
        let key: StructuredKeyMatch = try spelled(expected) ? .expected : .other(readString())
        try passColon()
        return key
    }

    /// Passes over the next member name of an object, checked as ``nextKey()`` checks it but
    /// not made into a `String` (what skipping a value needs); `false` at the object's end.
    private mutating func skipKey() throws -> Bool {
        guard try atMemberName() else { return false }
        let token = try scanStringToken()
        if token.hasEscapes || !token.isASCII { _ = try decode(token) }
        try passColon()
        return true
    }

    /// Moves to the next member name of an object (past the comma after the last member):
    /// `true` at the name's opening quote, `false` past the object's closing brace.
    private mutating func atMemberName() throws -> Bool {
        guard let byte = peekByte() else { throw error("unexpected end of file inside an object") }
        if byte == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            last = UInt8(ascii: "v")
            return false
        }
        if last != UInt8(ascii: "{") {
            guard byte == UInt8(ascii: ",") else { throw mismatch("',' or '}' after an object member") }
            position += 1
            guard peekByte() == UInt8(ascii: "\"") else {
                throw peekByte() == UInt8(ascii: "}")
                    ? error("a trailing comma before '}' is not allowed") : mismatch("a member name in quotes")
            }
        } else if byte != UInt8(ascii: "\"") {
            throw mismatch("a member name in quotes or '}'")
        }
        return true
    }

    /// Passes the colon after a member name.
    private mutating func passColon() throws {
        guard peekByte() == UInt8(ascii: ":") else { throw mismatch("':' after the member name") }
        position += 1
        last = UInt8(ascii: "v")
    }

    /// Whether the string token at `position` is `expected` written plainly (no escapes): then
    /// it is consumed. A key that needs escaping is never taken this way; it is read as usual.
    private mutating func spelled(_ expected: String) -> Bool {
        return expected.withUTF8Bytes { text in
            let end = position + 1 + text.count
            guard !text.isEmpty, has(end), bytes[end] == UInt8(ascii: "\""),
                ByteWords.areEqual(bytes.baseAddress! + position + 1, UnsafeRawPointer(text.baseAddress!), count: text.count),
                JSONText.isLiteral(text)
            else { return false }
            position = end + 1
            return true
        }
    }

    public mutating func nextElement() throws -> Bool {
        guard let byte = peekByte() else { throw error("unexpected end of file inside an array") }
        if byte == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            last = UInt8(ascii: "v")
            return false
        }
        consumed.advance(to: position, in: bytes)
        if last != UInt8(ascii: "[") {
            guard byte == UInt8(ascii: ",") else { throw mismatch("',' or ']' after an array element") }
            position += 1
            if peekByte() == UInt8(ascii: "]") { throw error("a trailing comma before ']' is not allowed") }
        }
        last = UInt8(ascii: "v")
        return true
    }

    public mutating func skipValue() throws {
        switch try peekKind() {
        case .object:
            try beginObject()
            while try skipKey() { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string:
            // Its syntax is checked, and its escapes: they decode to text (not its UTF-8 otherwise).
            let token = try scanStringToken()
            if token.hasEscapes { _ = try decode(token) }
        case .integer, .real:
            _ = try scanNumber()
        case .bool:
            _ = try readBool()
        case .null, .data, .date:
            try readLiteral("null")
        }
        last = UInt8(ascii: "v")
    }

    public mutating func finish() throws {
        skipWhitespace()
        guard position == bytes.count else {
            throw error("unexpected \(foundDescription()) after the end of the document")
        }
    }

    // MARK: Scalars

    private mutating func readLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        let start = position
        guard has(position + count - 1),
            ByteWords.areEqual(bytes.baseAddress! + position, UnsafeRawPointer(literal.utf8Start), count: count)
        else { throw error("expected the literal \(literal); the text here is not valid JSON", at: start) }
        position += count
    }

    public mutating func readBool() throws -> Bool {
        switch peekByte() {
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return false
        default:
            throw wrongValue("true or false")
        }
    }

    /// Hands over the reader's own bytes for plain ASCII text (no escape, as dates are written);
    /// other text is decoded as by ``readString()``.
    public mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        guard peekByte() == UInt8(ascii: "\""), let base = bytes.baseAddress else { throw wrongValue("a string") }
        let token = try scanStringToken()
        guard !token.hasEscapes, token.isASCII else { return try decode(token).withUTF8Bytes(body) }
        return try body(
            UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + token.contentStart, count: token.contentCount))
    }

    public mutating func readString() throws -> String {
        guard peekByte() == UInt8(ascii: "\"") else { throw wrongValue("a string") }
        // Scanned first: `decode(scanStringToken())` would copy the reader (retaining what it
        // holds) to keep it borrowed for `decode` while the scan changes it.
        let token = try scanStringToken()
        return try decode(token)
    }

    /// A string token the reader has moved past.
    private struct StringToken {
        /// Where its opening quote is.
        var start: Int
        /// Where the text between the quotes starts, and how many bytes it has.
        var contentStart: Int
        var contentCount: Int
        var hasEscapes: Bool
        var isASCII: Bool
    }

    /// Moves past the string token at `position` (which holds the opening quote), checking its
    /// syntax and length but not decoding it.
    private mutating func scanStringToken() throws -> StringToken {
        let start = position
        position += 1
        let contentStart = position
        var hasEscapes = false
        // The bytes seen, or-ed together: below 0x80 when all are ASCII.
        var unionOfBytes: UInt8 = 0
        let base = bytes.baseAddress
        while true {
            // Eight bytes at a time up to the next quote, backslash or control character.
            if let base {
                let passed: UInt64
                (position, passed) = ByteWords.skipUnmarked(
                    from: position, to: bytes.count, in: base, marks: JSONText.marksEscapes)
                if ByteWords.hasNonASCII(passed) { unionOfBytes |= 0x80 }
            }
            guard has(position) else { throw error("a string is not closed before the end of the file", at: start) }
            let byte = bytes[position]
            unionOfBytes |= byte
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw error("a control character (0x\(String(byte, radix: 16))) must be escaped inside a string")
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 2
            } else {
                position += 1
            }
        }
        let contentEnd = position
        guard contentEnd - contentStart <= limits.maximumStringLength else {
            throw limits.exceeded(.stringLength, at: location(at: start), subject: "a string")
        }
        position += 1
        return StringToken(
            start: start, contentStart: contentStart, contentCount: contentEnd - contentStart, hasEscapes: hasEscapes,
            isASCII: unionOfBytes < 0x80)
    }

    /// The text of a string token, its escapes decoded and its UTF-8 checked.
    private func decode(_ token: StringToken) throws -> String {
        let start = token.start
        let contentStart = token.contentStart
        let contentEnd = token.contentStart + token.contentCount
        if !token.hasEscapes {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[contentStart..<contentEnd])
            // ASCII needs no validation; anything else must be well-formed UTF-8.
            if token.isASCII { return String(decoding: slice, as: UTF8.self) }
            guard let text = Self.string(validatingUTF8: slice) else {
                throw error("a string is not valid UTF-8", at: start)
            }
            return text
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(contentEnd - contentStart)
        var index = contentStart
        while index < contentEnd {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: index, end: contentEnd)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= contentEnd, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("a \\u escape is an unpaired surrogate", at: index - 6) }
                    let low = try hex4(at: index + 2, end: contentEnd)
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("a \\u escape is an unpaired surrogate", at: index - 6)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("a \\u escape is an unpaired surrogate", at: index - 6)
                }
                decoded.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw error("'\\\(Character(Unicode.Scalar(escape)))' is not a JSON escape", at: index - 2)
            }
        }
        let text = decoded.withUnsafeBytes { Self.string(validatingUTF8: $0) }
        guard let text else { throw error("a string is not valid UTF-8", at: start) }
        return text
    }

    /// `utf8` as a string when it is well-formed UTF-8, or `nil`. Decoding replaces each
    /// ill-formed sequence with U+FFFD, so the bytes are well-formed exactly when the decoded
    /// text is the same bytes. (`String(validating:as:)` is generic, and unspecialised here it
    /// looked up type metadata on every call: 4 % of the decoding thread's time.)
    static func string(validatingUTF8 utf8: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        let isSame = text.withUTF8Bytes { decoded in
            guard decoded.count == utf8.count else { return false }
            guard let decodedBase = decoded.baseAddress, let base = utf8.baseAddress else { return true }
            return ByteWords.areEqual(UnsafeRawPointer(decodedBase), base, count: utf8.count)
        }
        return isSame ? text : nil
    }

    private func hex4(at index: Int, end: Int) throws -> UInt32 {
        guard index + 4 <= end else { throw error("a \\u escape needs four hex digits", at: index - 2) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits", at: index - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Numbers

    private struct NumberToken {
        var start: Int
        var end: Int
        var isNegative: Bool
        var isInteger: Bool
    }

    /// Scans a number per the JSON grammar `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func scanNumber() throws -> NumberToken {
        skipWhitespace()
        let start = position
        var isInteger = true
        let isNegative = has(position) && bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        func digit(_ index: Int) -> Bool {
            has(index) && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
        guard digit(position) else { throw mismatch("a number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if digit(position) { throw error("a number may not have leading zeros", at: start) }
        } else {
            while digit(position) { position += 1 }
        }
        if has(position), bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard digit(position) else { throw error("a number needs digits after '.'", at: start) }
            while digit(position) { position += 1 }
        }
        if has(position), bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if has(position), bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digit(position) else { throw error("a number needs digits in its exponent", at: start) }
            while digit(position) { position += 1 }
        }
        return NumberToken(start: start, end: position, isNegative: isNegative, isInteger: isInteger)
    }

    private mutating func integerToken(_ typeName: String) throws -> NumberToken {
        guard let byte = peekByte(), byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        else { throw wrongValue("an integer") }
        let token = try scanNumber()
        guard token.isInteger else {
            throw wrongValue(
                "", at: token.start, message: "expected an integer (\(typeName)), found a number with a fraction or exponent")
        }
        return token
    }

    public mutating func readInt64() throws -> Int64 {
        let token = try integerToken("Int64")
        var value: Int64 = 0
        for index in (token.start + (token.isNegative ? 1 : 0))..<token.end {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                token.isNegative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else {
                throw wrongValue("", at: token.start, message: "the integer does not fit Int64")
            }
            value = next
        }
        return value
    }

    public mutating func readUInt64() throws -> UInt64 {
        let token = try integerToken("UInt64")
        guard !token.isNegative || (token.end - token.start == 2 && bytes[token.start + 1] == UInt8(ascii: "0")) else {
            throw wrongValue("", at: token.start, message: "expected an unsigned integer, found a negative number")
        }
        var value: UInt64 = 0
        for index in (token.start + (token.isNegative ? 1 : 0))..<token.end {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                throw wrongValue("", at: token.start, message: "the integer does not fit UInt64")
            }
            value = next
        }
        return value
    }

    private mutating func numberText() throws -> (String, Int) {
        guard let byte = peekByte(), byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        else { throw wrongValue("a number") }
        let token = try scanNumber()
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
        return (text, token.start)
    }

    public mutating func readDouble() throws -> Double {
        let (text, start) = try numberText()
        guard let value = Double(text), value.isFinite else {
            throw wrongValue("", at: start, message: "the number \(text) is too large for a Double")
        }
        return value
    }

    public mutating func readFloat() throws -> Float {
        let (text, start) = try numberText()
        guard let value = Float(text), value.isFinite else {
            throw wrongValue("", at: start, message: "the number \(text) is too large for a Float")
        }
        return value
    }

    public mutating func readData() throws -> Data {
        let start = bookmark.position
        let text = try readString()
        if let externalDataResolver, text.hasPrefix(Self.externalPrefix) {
            do {
                return try externalDataResolver(String(text.dropFirst(Self.externalPrefix.count)))
            } catch let failure as StructuredReadError {
                throw failure
            } catch {
                throw wrongValue("", at: start, message: "\(error)")
            }
        }
        // Only canonical base64 (padded, zero padding bits) reads, so that each value has one spelling.
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
            throw wrongValue(
                "", at: start, message: "expected data as a standard, padded base64 string, found text that is not")
        }
        return data
    }

    public mutating func readDate() throws -> Date {
        throw wrongValue("a date")
    }
}
