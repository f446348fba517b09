import Foundation
import TripDocCore

/// Reads an XML property list for the shared document decoder: `<dict>` is an object, `<array>`
/// an array, `<string>`, `<integer>`, `<real>`, `<true/>`/`<false/>`, `<data>` and `<date>` are
/// scalars. Streams through ``XMLEventReader`` (libxml2's push parser), so memory stays near the
/// size of the result.
///
/// A bookmark is a count of nodes read; going back re-reads the document from the start up to
/// it, which the decoder needs only for an attribute's default value and for sections out of
/// order.
struct PlistReader: StructuredReader {
    struct Bookmark {
        var nodeIndex: Int
        var pendingEmptyClose: Bool
        /// Where the node is in the input (`nil` at the end), for its line and column.
        var place: XMLEventReader.Place?
    }

    /// The elements of a property list, told apart by number: the XML reader is given their
    /// names in this order (``XMLEventReader/nameIndex``), so that no name is made a string
    /// and compared for every node.
    enum Element: Int32 {
        case plist, dict, array, key, string, integer, real, `true`, `false`, data, date

        /// The names, in order, for the XML reader.
        static let names = ["plist", "dict", "array", "key", "string", "integer", "real", "true", "false", "data", "date"]
        /// The element's name.
        var name: String { Self.names[Int(rawValue)] }
    }

    private let input: XMLInput
    /// The nesting-depth and string-length caps (``XMLEventReader`` stops at 256 levels and 10 MB
    /// of text in one element on its own, as libxml2 does).
    private let limits: DocumentLimits
    /// Never replaced (going back restarts it): a reader's calls on it then need not hold a
    /// reference of their own, as they must on a property the call could replace.
    private let xml: XMLEventReader
    /// How many nodes have been read; the current node is the next one to consume.
    private var nodeIndex = 0
    /// Whether the reader is past the last node.
    private var atEnd = false
    /// Set after consuming `<dict/>` or `<array/>`: the container's end comes with no node.
    private var pendingEmptyClose = false
    /// The pages of a mapped file already parsed, handed back as the reader moves on.
    private var consumed = ConsumedPages()

    init(input: XMLInput, limits: DocumentLimits = .standard) throws {
        self.input = input
        self.limits = limits
        xml = try XMLEventReader(input, knownNames: Element.names)
        try advance()
        try enterRoot()
    }

    // MARK: Bookmarks

    var bookmark: Bookmark {
        mutating get {
            try? skipInsignificant()
            return Bookmark(nodeIndex: nodeIndex, pendingEmptyClose: pendingEmptyClose, place: atEnd ? nil : xml.place)
        }
    }

    mutating func resume(at bookmark: Bookmark) {
        if bookmark.nodeIndex != nodeIndex {
            // Re-reading what was read once before cannot fail.
            try! xml.restart()
            nodeIndex = 0
            atEnd = false
            while nodeIndex < bookmark.nodeIndex { try! advance() }
        }
        pendingEmptyClose = bookmark.pendingEmptyClose
    }

    func location(of bookmark: Bookmark) -> SourceLocation {
        bookmark.place.map { xml.location(of: $0) } ?? SourceLocation()
    }

    private func error(_ message: String, malformed: Bool = true) -> StructuredReadError {
        StructuredReadError(
            location: atEnd ? SourceLocation() : xml.location(of: xml.place),
            message: message, isMalformed: malformed)
    }

    // MARK: Nodes

    private mutating func advance() throws {
        if try xml.read() {
            nodeIndex += 1
        } else {
            atEnd = true
        }
    }

    /// Moves past whitespace, comments, processing instructions and the document type.
    private mutating func skipInsignificant() throws {
        while !atEnd {
            switch xml.nodeType {
            case .whitespace:
                try advance()
            case .text, .cdata:
                guard xml.value.allSatisfy(\.isWhitespace) else {
                    throw error("unexpected text \"\(xml.value.prefix(40))\" between elements")
                }
                try advance()
            default:
                return
            }
        }
    }

    private mutating func enterRoot() throws {
        try skipInsignificant()
        guard !atEnd, xml.nodeType == .element, xml.isElement(.plist) else {
            throw error("this is not a property list: expected a <plist> root element")
        }
        if xml.isEmptyElement { throw error("the <plist> element is empty") }
        try advance()
    }

    private func describeCurrent() -> String {
        if atEnd { return "the end of the file" }
        switch xml.nodeType {
        case .element: return "<\(xml.name)>"
        case .endElement: return "</\(xml.name)>"
        default: return "text"
        }
    }

    /// The element of the next value, after skipping whitespace; `nil` for an element that is
    /// not a property list's.
    private mutating func nextValueElement() throws -> Element? {
        try skipInsignificant()
        guard !atEnd, xml.nodeType == .element else {
            throw error("expected a value element, found \(describeCurrent())")
        }
        return Element(rawValue: xml.nameIndex)
    }

    mutating func peekKind() throws -> StructuredValueKind {
        switch try nextValueElement() {
        case .dict: return .object
        case .array: return .array
        case .string: return .string
        case .integer: return .integer
        case .real: return .real
        case .true, .false: return .bool
        case .data: return .data
        case .date: return .date
        case .plist, .key, nil: throw error("<\(xml.name)> is not a property-list element")
        }
    }

    private mutating func wrongValue(_ expected: String) -> StructuredReadError {
        error("expected \(expected), found \(describeCurrent())", malformed: false)
    }

    /// Consumes `<name>text</name>`, one text node whose end tag is already parsed (the usual
    /// element), and hands its bytes to `body` in place; `nil` (nothing consumed) for any other.
    /// The same checks as ``readText(of:from:after:)``'s, in one step instead of three nodes.
    private mutating func readSimpleText<Result>(
        of element: Element, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result? {
        guard let text = xml.simpleText() else { return nil }
        guard text.count <= limits.maximumStringLength else {
            throw limits.exceeded(.stringLength, at: xml.location(of: xml.place), subject: "the text of <\(element.name)>")
        }
        let result = try xml.withBytes(at: text, body)
        xml.moveToSimpleTextEnd()
        nodeIndex += 2
        try advance()
        return result
    }

    /// Consumes `<name>…</name>` (or `<name/>`) and returns its text.
    private mutating func readText(of element: Element) throws -> String {
        if let text = try readSimpleText(of: element, { String(decoding: $0, as: UTF8.self) }) { return text }
        let isEmpty = xml.isEmptyElement
        let start = xml.place
        try advance()
        if isEmpty { return "" }
        return try readText(of: element, from: start, after: "")
    }

    /// Consumes the rest of `<name>…</name>`, whose start (at `start`) has been consumed, and
    /// returns its text: `text`, then what follows.
    private mutating func readText(of element: Element, from start: XMLEventReader.Place, after text: String) throws -> String {
        var text = text
        while !atEnd {
            switch xml.nodeType {
            case .text, .cdata, .whitespace:
                if text.isEmpty { text = xml.value } else { text += xml.value }
                guard text.utf8.count <= limits.maximumStringLength else {
                    throw limits.exceeded(
                        .stringLength, at: xml.location(of: start), subject: "the text of <\(element.name)>")
                }
            case .endElement where xml.isElement(element):
                try advance()
                return text
            case .entityReference:
                throw error("the entity reference &\(xml.name); is not allowed")
            default:
                throw error("unexpected \(describeCurrent()) inside <\(element.name)>")
            }
            try advance()
        }
        throw error("the document ends inside <\(element.name)>")
    }

    // MARK: Containers

    private mutating func enter(_ element: Element, kind: String) throws {
        guard try nextValueElement() == element else { throw wrongValue(kind) }
        // The root <dict> is at depth 1 (inside <plist>), as the root object is level 1 in JSON.
        guard xml.depth <= limits.maximumNestingDepth else {
            throw limits.exceeded(.nestingDepth, at: xml.location(of: xml.place))
        }
        pendingEmptyClose = xml.isEmptyElement
        try advance()
    }

    mutating func beginObject() throws { try enter(.dict, kind: "a <dict>") }
    mutating func beginArray() throws { try enter(.array, kind: "an <array>") }

    /// Moves to the next member's `<key>`; `false` at the end of the `<dict>` (then consumed).
    private mutating func atNextKey() throws -> Bool {
        if pendingEmptyClose {
            pendingEmptyClose = false
            return false
        }
        try skipInsignificant()
        guard !atEnd else { throw error("the document ends inside a <dict>") }
        if xml.nodeType == .endElement, xml.isElement(.dict) {
            try advance()
            return false
        }
        guard xml.nodeType == .element, xml.isElement(.key) else {
            throw error("expected <key> or </dict>, found \(describeCurrent())")
        }
        return true
    }

    mutating func nextKey() throws -> String? {
        guard try atNextKey() else { return nil }
        return try readText(of: .key)
    }

    mutating func nextKey(matching expected: String) throws -> StructuredKeyMatch? {
        guard try atNextKey() else { return nil }
        // The usual key, one text node that is the expected key, its end tag parsed: compared in
        // place, and passed over in one step.
        if !expected.isEmpty, let text = xml.simpleText(), xml.text(at: text, is: expected) {
            xml.moveToSimpleTextEnd()
            nodeIndex += 2
            try advance()
            return .expected
        }
        let isEmpty = xml.isEmptyElement
        let start = xml.place
        try advance()
        if isEmpty { return .other("") }
        // The usual key, one text node that is the expected key: compared in place.
        if !expected.isEmpty, !atEnd, xml.nodeType == .text, xml.valueIs(expected) {
            try advance()
            if !atEnd, xml.nodeType == .endElement, xml.isElement(.key) {
                try advance()
                return .expected
            }
            return StructuredKeyMatch(key: try readText(of: .key, from: start, after: expected), expected: expected)
        }
        return StructuredKeyMatch(key: try readText(of: .key, from: start, after: ""), expected: expected)
    }

    mutating func nextElement() throws -> Bool {
        if pendingEmptyClose {
            pendingEmptyClose = false
            return false
        }
        try skipInsignificant()
        guard !atEnd else { throw error("the document ends inside an <array>") }
        consumed.advance(to: xml.bytesConsumed, in: input.bytes)
        if xml.nodeType == .endElement, xml.isElement(.array) {
            try advance()
            return false
        }
        return true
    }

    mutating func skipValue() throws {
        switch try peekKind() {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        default:
            guard let element = Element(rawValue: xml.nameIndex) else {
                throw error("<\(xml.name)> is not a property-list element")
            }
            _ = try readText(of: element)
        }
    }

    mutating func finish() throws {
        try skipInsignificant()
        guard !atEnd, xml.nodeType == .endElement, xml.isElement(.plist) else {
            throw error("expected </plist> after the document's value, found \(describeCurrent())")
        }
        try advance()
        try skipInsignificant()
        guard atEnd else { throw error("unexpected \(describeCurrent()) after </plist>") }
    }

    // MARK: Scalars

    mutating func readString() throws -> String {
        switch try nextValueElement() {
        case .string:
            return try readText(of: .string)
        case .data:
            // Strings with characters XML 1.0 cannot hold are written as their UTF-8 bytes.
            let start = bookmark
            guard let text = String(validating: try readDataElement(), as: UTF8.self) else {
                throw StructuredReadError(
                    location: location(of: start), message: "a string written as <data> is not valid UTF-8")
            }
            return text
        default:
            throw wrongValue("a <string>")
        }
    }

    mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        // The usual <string>, handed over in place; any other as readString() reads it.
        if try nextValueElement() == .string, let result = try readSimpleText(of: .string, body) { return result }
        return try readString().withUTF8Bytes(body)
    }

    mutating func readBool() throws -> Bool {
        let element = try nextValueElement()
        guard let element, element == .true || element == .false else { throw wrongValue("<true/> or <false/>") }
        guard try readText(of: element).allSatisfy(\.isWhitespace) else { throw error("<\(element.name)> must be empty") }
        return element == .true
    }

    /// The trimmed text of the next element, which must be one of `elements`, and where it starts.
    private mutating func numberText(_ elements: [Element], kind: String) throws -> (String, Bookmark) {
        guard let element = try nextValueElement(), elements.contains(element) else { throw wrongValue(kind) }
        let start = bookmark
        return (try readText(of: element).trimmingCharacters(in: .whitespacesAndNewlines), start)
    }

    /// A value that is not what its element says, reported at the element.
    private func valueError(_ message: String, at start: Bookmark) -> StructuredReadError {
        StructuredReadError(location: location(of: start), message: message, isMalformed: false)
    }

    /// The usual `<element>` of a number or date, one text node whose end tag is parsed:
    /// consumed, and its text, without ASCII whitespace at its ends, handed to `parse` in place
    /// (no `String` is made, and no Foundation trimming). `nil` (nothing consumed) for any other
    /// element; the trimmed text as a `String` when `parse` returns `nil` or the text has
    /// anything but ASCII at an end (Unicode's other whitespace), for the reading of any text.
    private mutating func readSimpleScalar<Value>(
        _ element: Element, _ parse: (UnsafeBufferPointer<UInt8>) -> Value?
    ) throws -> ScalarText<Value>? {
        try readSimpleText(of: element) { bytes in
            let trimmed = Self.trimmingASCIIWhitespace(bytes)
            if let first = trimmed.first, let last = trimmed.last, first < 0x80, last < 0x80, let value = parse(trimmed) {
                return .parsed(value)
            }
            return .text(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// What ``readSimpleScalar(_:_:)`` read.
    private enum ScalarText<Value> {
        case parsed(Value)
        case text(String)
    }

    /// `bytes` without the ASCII whitespace (tab, line feed, vertical tab, form feed, carriage
    /// return, space) at either end.
    private static func trimmingASCIIWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The decimal integer `bytes` spell (an optional sign, then digits), as `Int64(_:radix:)`
    /// reads it; `nil` when it does not fit or is not one.
    private static func int64(fromASCII bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) =
                negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
            index += 1
        }
        return value
    }

    mutating func readInt64() throws -> Int64 {
        if try nextValueElement() == .integer {
            let start = bookmark
            switch try readSimpleScalar(.integer, Self.int64(fromASCII:)) {
            case .parsed(let value): return value
            case .text(let text):
                guard let value = Int64(text, radix: 10) else {
                    throw valueError("expected an integer that fits Int64, found \"\(text)\"", at: start)
                }
                return value
            case nil: break
            }
        }
        let (text, start) = try numberText([.integer], kind: "an <integer>")
        guard let value = Int64(text, radix: 10) else {
            throw valueError("expected an integer that fits Int64, found \"\(text)\"", at: start)
        }
        return value
    }

    mutating func readUInt64() throws -> UInt64 {
        let (text, start) = try numberText([.integer], kind: "an <integer>")
        guard let value = text == "-0" ? 0 : UInt64(text, radix: 10) else {
            throw valueError("expected an integer that fits UInt64, found \"\(text)\"", at: start)
        }
        return value
    }

    mutating func readDouble() throws -> Double {
        if let element = try nextValueElement(), element == .real || element == .integer {
            let start = bookmark
            // Made a String in place (small numbers need no allocation), without Foundation's trimming.
            switch try readSimpleScalar(element, { String(decoding: $0, as: UTF8.self) }) {
            case .parsed(let text), .text(let text):
                guard let value = Double(text), value.isFinite || !Self.looksFinite(text) else {
                    throw valueError("expected a number that fits a Double, found \"\(text)\"", at: start)
                }
                return value
            case nil: break
            }
        }
        let (text, start) = try numberText([.real, .integer], kind: "a <real>")
        guard let value = Double(text), value.isFinite || !Self.looksFinite(text) else {
            throw valueError("expected a number that fits a Double, found \"\(text)\"", at: start)
        }
        return value
    }

    mutating func readFloat() throws -> Float {
        let (text, start) = try numberText([.real, .integer], kind: "a <real>")
        guard let value = Float(text), value.isFinite || !Self.looksFinite(text) else {
            throw valueError("expected a number that fits a Float, found \"\(text)\"", at: start)
        }
        return value
    }

    /// Whether a real's text names a finite number (not `nan`, `inf`, `infinity`, as plist
    /// writers spell the non-finite values), so that overflowing to infinity is an error.
    private static func looksFinite(_ text: String) -> Bool {
        !["nan", "inf", "infinity", "+inf", "-inf", "+infinity", "-infinity"].contains(text.lowercased())
    }

    mutating func readData() throws -> Data {
        switch try nextValueElement() {
        case .data:
            return try readDataElement()
        case .string:
            // A document converted from JSON by another program keeps data as base64 text.
            let text = try readText(of: .string)
            guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
                throw error("expected data as standard, padded base64 text, found text that is not", malformed: false)
            }
            return data
        default:
            throw wrongValue("<data>")
        }
    }

    /// Consumes `<data>` and decodes its base64, which may be broken across lines.
    private mutating func readDataElement() throws -> Data {
        let text = try readText(of: .data).filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
            throw error("<data> does not hold standard, padded base64", malformed: false)
        }
        return data
    }

    mutating func readDate() throws -> Date {
        guard try nextValueElement() == .date else { throw wrongValue("<date>") }
        let start = bookmark
        let text: String
        switch try readSimpleScalar(.date, DateCoding.date(fromUTF8:)) {
        case .parsed(let date): return date
        case .text(let trimmed): text = trimmed
        case nil: text = try readText(of: .date).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let date = DateCoding.date(from: text) else {
            throw valueError("expected a date such as 2024-06-01T09:30:00Z in <date>, found \"\(text)\"", at: start)
        }
        return date
    }
}

extension XMLEventReader {
    /// Whether the current element or end tag is the property list's `element`.
    fileprivate func isElement(_ element: PlistReader.Element) -> Bool { nameIndex == element.rawValue }
}
