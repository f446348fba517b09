import Foundation
import TripDocCore

/// Writes the shared coding's calls as an XML property list (Apple's DTD, tab indentation, and
/// containers nested ``compactLevel`` deep or deeper — a snapshot, a schema entity — on one line).
///
/// Text is escaped for XML: `&`, `<`, `>` as entities, carriage return as `&#13;` (a raw one
/// would be read back as a line feed). A string holding a character XML 1.0 cannot carry
/// (U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF) is written as `<data>` with its
/// UTF-8 bytes; readers decode it back where the schema says String.
struct PlistWriter: StructuredWriter, DrainableStructuredWriter {
    private var bytes: ByteBuffer
    /// The last byte handed out by ``drain(into:)``, for the line-break rule.
    private var lastDrainedByte: UInt8?
    /// The longest text of one element written since it was last reset (strings in bytes,
    /// data as base64), for the check against what one plist element may hold.
    var longestText = 0
    let compactLevel: Int

    private enum Container { case dict, array }
    /// The open containers, and whether each has had a child yet (its start tag is then written).
    private var stack: [(container: Container, hasContent: Bool)] = []

    init(compactLevel: Int = 3, capacity: Int = 1 << 16) {
        self.compactLevel = compactLevel
        bytes = ByteBuffer(capacity: capacity)
        bytes.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """)
    }

    private var level: Int { stack.count }
    private var isCompact: Bool { level > compactLevel }

    /// Writes the pending start tag of the enclosing container, then a line break and indentation.
    private mutating func startItem() {
        if let last = stack.last, !last.hasContent {
            stack[stack.count - 1].hasContent = true
            bytes.append(last.container == .dict ? "<dict>" : "<array>")
        }
        newline()
    }

    private mutating func newline() {
        guard !isCompact else { return }
        if (bytes.last ?? lastDrainedByte) != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        for _ in 0..<level { bytes.append(UInt8(ascii: "\t")) }
    }

    private mutating func open(_ container: Container) {
        if stack.last.map({ $0.container == .array }) ?? true { startItem() }
        stack.append((container, false))
    }

    private mutating func close() {
        let (container, hasContent) = stack.removeLast()
        if !hasContent {
            bytes.append(container == .dict ? "<dict/>" : "<array/>")
        } else {
            if level < compactLevel { newline() }
            bytes.append(container == .dict ? "</dict>" : "</array>")
        }
        if stack.isEmpty { bytes.append("\n</plist>\n") }
    }

    mutating func beginObject() { open(.dict) }
    mutating func endObject() { close() }
    mutating func beginArray() { open(.array) }
    mutating func endArray() { close() }

    mutating func key(_ key: String) {
        startItem()
        let isPlain = key.withUTF8Bytes { utf8 in
            guard Self.classify(utf8) == .plain else { return false }
            bytes.append("<key>", utf8, "</key>")
            return true
        }
        if !isPlain {
            bytes.append("<key>")
            appendEscaped(key)
            bytes.append("</key>")
        }
    }

    /// Values in a dict follow their key on the same line; in an array each starts a line.
    private mutating func startValue() {
        if stack.last?.container == .array { startItem() }
    }

    /// Writes `<real>`, `<integer>` or `<data>`: the tags around what `content` appends.
    private mutating func element(_ start: StaticString, _ end: StaticString, content: (inout ByteBuffer) -> Void) {
        startValue()
        bytes.append(start)
        content(&bytes)
        bytes.append(end)
    }

    mutating func writeBool(_ value: Bool) {
        startValue()
        bytes.append(value ? "<true/>" : "<false/>")
    }

    /// A property list has no null: `nil` inside a Codable value is an empty `<data>`, which no
    /// other value of such a value is written as (docs/FORMATS.md 7.2).
    mutating func writeNull() { element("<data>", "</data>") { _ in } }
    mutating func writeInt(_ value: Int64) { element("<integer>", "</integer>") { $0.appendDecimal(value) } }
    mutating func writeUInt(_ value: UInt64) { element("<integer>", "</integer>") { $0.appendDecimal(value) } }
    mutating func writeDouble(_ value: Double) { element("<real>", "</real>") { $0.append(utf8: value.description) } }
    mutating func writeFloat(_ value: Float) { element("<real>", "</real>") { $0.append(utf8: value.description) } }

    mutating func writeString(_ value: String) {
        // One pass over the UTF-8: a character XML cannot carry sends the text to <data>; text
        // with nothing to escape is copied whole.
        let kind = value.withUTF8Bytes { Self.classify($0) }
        if kind == .outsideXML {
            writeData(Data(value.utf8))
            return
        }
        longestText = max(longestText, value.utf8.count)
        startValue()
        if kind == .plain {
            value.withUTF8Bytes { bytes.append("<string>", $0, "</string>") }
        } else {
            bytes.append("<string>")
            appendEscaped(value)
            bytes.append("</string>")
        }
    }

    mutating func writeString(plainASCII text: UnsafeBufferPointer<UInt8>) {
        longestText = max(longestText, text.count)
        startValue()
        bytes.append("<string>", text, "</string>")
    }

    private enum TextKind { case plain, needsEscaping, outsideXML }

    /// What writing `utf8` as element text takes (see ``isOutsideXML(_:)``).
    private static func classify(_ utf8: UnsafeBufferPointer<UInt8>) -> TextKind {
        var kind = TextKind.plain
        guard let base = utf8.baseAddress else { return kind }
        // Eight bytes at a time up to the first byte that may need more than copying.
        var index = ByteWords.skipUnmarked(from: 0, to: utf8.count, in: base) { word in
            ByteWords.bytes(of: word, below: 0x20) | ByteWords.bytes(of: word, equalTo: UInt8(ascii: "&"))
                | ByteWords.bytes(of: word, equalTo: UInt8(ascii: "<")) | ByteWords.bytes(of: word, equalTo: UInt8(ascii: ">"))
                | ByteWords.bytes(of: word, equalTo: 0xEF)
        }.position
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case 0x09, 0x0A: break
            case 0x0D, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): kind = .needsEscaping
            case 0..<0x20: return .outsideXML
            case 0xEF:  // U+FFFE and U+FFFF are EF BF BE and EF BF BF
                if index + 2 < utf8.count, utf8[index + 1] == 0xBF, utf8[index + 2] >= 0xBE { return .outsideXML }
            default: break
            }
            index += 1
        }
        return kind
    }

    mutating func writeData(_ value: Data) {
        longestText = max(longestText, (value.count + 2) / 3 * 4)
        element("<data>", "</data>") { $0.append(utf8: value.base64EncodedString()) }
    }

    /// Whether XML 1.0 has no way to write `scalar`, not even as a character reference.
    static func isOutsideXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    private mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append("&amp;")
            case UInt8(ascii: "<"): bytes.append("&lt;")
            case UInt8(ascii: ">"): bytes.append("&gt;")
            case 0x0D: bytes.append("&#13;")
            default: bytes.append(byte)
            }
        }
    }
}

extension PlistWriter {
    var bufferedByteCount: Int { bytes.count }

    mutating func drain(into output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard let last = bytes.last else { return }
        try bytes.withUnsafeBytes { try output($0) }
        lastDrainedByte = last
        bytes.removeAll(keepingCapacity: true)
    }
}
