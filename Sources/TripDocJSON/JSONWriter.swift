import Foundation
import TripDocCore

/// Writes the shared coding's calls as JSON text: two-space indentation, and containers nested
/// `compactLevel` deep or deeper (a snapshot, a schema entity) on one line.
public struct JSONWriter: StructuredWriter, DrainableStructuredWriter {
    /// The bytes written so far (handed out by ``drain(into:)``).
    private var output: ByteBuffer
    /// The bytes written so far, copied.
    public var bytes: [UInt8] { output.withUnsafeBytes { Array($0) } }
    /// The bytes written so far, copied.
    public var data: Data { output.data }
    /// Containers at this nesting level or deeper are written on one line.
    let compactLevel: Int

    /// Whether the current container has had a member or element yet, per open container.
    private var hasContent: [Bool] = []
    /// Set after a key: the next value follows the colon directly.
    private var afterKey = false

    /// Keeps the bytes of an `.externalStorage` attribute apart and returns the name to write
    /// after `external:`; without it such bytes are written inline as base64.
    public var externalDataSink: ((Data) -> String)?

    /// A writer that puts containers nested `compactLevel` deep on one line.
    public init(compactLevel: Int = 3, capacity: Int = 1 << 16) {
        self.compactLevel = compactLevel
        output = ByteBuffer(capacity: capacity)
    }

    private var level: Int { hasContent.count }
    private var isCompact: Bool { level > compactLevel }

    /// Separates the next value (or key) from what came before, and indents it.
    private mutating func startItem() {
        if afterKey {
            afterKey = false
            return
        }
        guard !hasContent.isEmpty else { return }
        if hasContent[hasContent.count - 1] { output.append(UInt8(ascii: ",")) }
        hasContent[hasContent.count - 1] = true
        newline()
    }

    private mutating func newline() {
        if isCompact { return }
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<level { output.append(UInt8(ascii: " ")); output.append(UInt8(ascii: " ")) }
    }

    private mutating func open(_ byte: UInt8) {
        startItem()
        output.append(byte)
        hasContent.append(false)
    }

    private mutating func close(_ byte: UInt8) {
        let hadContent = hasContent.removeLast()
        if hadContent, level < compactLevel { newline() }
        output.append(byte)
        if hasContent.isEmpty { output.append(UInt8(ascii: "\n")) }
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    public mutating func key(_ key: String) {
        startItem()
        appendQuoted(key)
        output.append(UInt8(ascii: ":"))
        if !isCompact { output.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    public mutating func writeBool(_ value: Bool) {
        startItem()
        output.append(value ? "true" : "false")
    }

    public mutating func writeNull() {
        startItem()
        output.append("null")
    }

    public mutating func writeInt(_ value: Int64) {
        startItem()
        output.appendDecimal(value)
    }

    public mutating func writeUInt(_ value: UInt64) {
        startItem()
        output.appendDecimal(value)
    }

    public mutating func writeDouble(_ value: Double) {
        startItem()
        // Swift prints the shortest digits that read back as the same double: 0.1, 1e+300, -0.0.
        output.append(utf8: value.description)
    }

    public mutating func writeFloat(_ value: Float) {
        startItem()
        output.append(utf8: value.description)
    }

    public mutating func writeString(_ value: String) {
        startItem()
        appendQuoted(value)
    }

    public mutating func writeString(plainASCII text: UnsafeBufferPointer<UInt8>) {
        startItem()
        output.append("\"", text, "\"")
    }

    public mutating func writeData(_ value: Data) {
        startItem()
        output.append(UInt8(ascii: "\""))
        output.append(utf8: value.base64EncodedString())
        output.append(UInt8(ascii: "\""))
    }

    public mutating func writeData(_ value: Data, externalStorage: Bool) {
        guard externalStorage, let externalDataSink else {
            writeData(value)
            return
        }
        writeString(JSONReader.externalPrefix + externalDataSink(value))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
    /// … or `\u00XX`, everything else as UTF-8.
    private mutating func appendQuoted(_ value: String) {
        // Most text has nothing to escape: copied whole.
        let plain = value.withUTF8Bytes { utf8 in
            guard JSONText.isLiteral(utf8) else { return false }
            output.append("\"", utf8, "\"")
            return true
        }
        if plain { return }
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "\\"))
            case 0x0A: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "f"))
            case 0..<0x20:
                output.append("\\u00")
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONWriter {
    /// How many bytes are written but not yet drained.
    public var bufferedByteCount: Int { output.count }

    /// Hands the bytes written so far to `sink` and forgets them, so that a long document is never whole in memory.
    public mutating func drain(into sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes { try sink($0) }
        output.removeAll(keepingCapacity: true)
    }
}
