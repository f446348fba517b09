import Foundation
import TripDocCore

/// A document's bytes, borrowed for as long as any ``XMLEventReader`` reads them: the caller
/// keeps them alive (``PlistFormat`` reads inside `Data.withUnsafeBytes`), so a mapped file is
/// never copied.
final class XMLInput {
    let bytes: UnsafeRawBufferPointer
    /// A byte standing in for an empty document: libxml2 wants a non-null buffer.
    private let emptyByte: UnsafeMutableRawPointer?

    init(borrowing bytes: UnsafeRawBufferPointer) {
        if bytes.baseAddress == nil || bytes.isEmpty {
            let byte = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
            byte.storeBytes(of: 0, as: UInt8.self)
            emptyByte = byte
            self.bytes = UnsafeRawBufferPointer(start: byte, count: 1)
        } else {
            emptyByte = nil
            self.bytes = bytes
        }
        count = bytes.count
    }

    deinit { emptyByte?.deallocate() }

    /// The number of bytes (the buffer has at least one, for an empty document).
    let count: Int

    /// The line and column (1-based; columns count bytes) of the byte at `offset`, worked out
    /// from the bytes (for messages only: it reads them up to there).
    func location(ofOffset offset: Int) -> SourceLocation {
        let end = min(max(offset, 0), count)
        guard let base = bytes.baseAddress else { return SourceLocation(line: 1, column: 1) }
        var line = 1
        var lineStart = base
        while lineStart < base + end, let newline = memchr(lineStart, 0x0A, base + end - lineStart) {
            line += 1
            lineStart = UnsafeRawPointer(newline) + 1
        }
        return SourceLocation(line: line, column: base + end - lineStart + 1)
    }

    /// Where the tag around `position` starts: the last `<` at or before it (0 when there is
    /// none). The parser reports a tag where it stands, at or past the tag's `<`; the start is
    /// found only when a message needs it.
    func tagStart(atOrBefore position: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var index = max(0, min(position, count - 1))
        while index > 0, base.load(fromByteOffset: index, as: UInt8.self) != UInt8(ascii: "<") { index -= 1 }
        return index
    }

    /// The byte offset of a `<!DOCTYPE … [` internal subset, or `nil` when the document has none.
    /// An internal subset is where entities (billion laughs, external entities) are declared;
    /// no property list needs one.
    ///
    /// The prolog is read as XML reads it, before libxml2 sees anything: the XML declaration and
    /// processing instructions (`<?…?>`) and comments (`<!--…-->`) are skipped whole, so nothing
    /// inside them can hide a later `<!DOCTYPE`; inside the DOCTYPE, quoted literals are skipped
    /// and a `[` outside them is the internal subset. Scanning stops at the root element. A
    /// comment, processing instruction or DOCTYPE that never closes is left to libxml2, which
    /// refuses the document before reading anything after it.
    func internalSubsetOffset() -> Int? {
        let bytes = UnsafeRawBufferPointer(self.bytes).prefix(count)
        func starts(_ text: String, at index: Int) -> Bool {
            let marker = Array(text.utf8)
            return index + marker.count <= bytes.count && bytes[index..<(index + marker.count)].elementsEqual(marker)
        }
        func end(of terminator: String, from index: Int) -> Int? {
            var cursor = index
            while cursor < bytes.count {
                if starts(terminator, at: cursor) { return cursor + terminator.utf8.count }
                cursor += 1
            }
            return nil
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                index += 1  // whitespace, a byte order mark, or stray text libxml2 will refuse
                continue
            }
            if starts("<?", at: index) {
                guard let next = end(of: "?>", from: index + 2) else { return nil }
                index = next
            } else if starts("<!--", at: index) {
                guard let next = end(of: "-->", from: index + 4) else { return nil }
                index = next
            } else if starts("<!DOCTYPE", at: index) {
                var quote: UInt8?
                var cursor = index + 9
                while true {
                    guard cursor < bytes.count else { return nil }
                    let current = bytes[cursor]
                    if let open = quote {
                        if current == open { quote = nil }
                    } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                        quote = current
                    } else if current == UInt8(ascii: "[") {
                        return cursor
                    } else if current == UInt8(ascii: ">") {
                        break
                    }
                    cursor += 1
                }
                index = cursor + 1
            } else {
                return nil  // the root element (or markup libxml2 will refuse): the prolog is over
            }
        }
        return nil
    }
}
