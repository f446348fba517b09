import Foundation
import TripDocCore

/// Finds, ahead of libxml2, the first XML attribute a property list never has: every attribute
/// but one `version` on `<plist>` (docs/FORMATS.md 7.6). libxml2 compares each attribute of a
/// start tag with all the ones before it, so a tag with hundreds of thousands of attributes
/// takes it minutes; ``XMLChunkParser`` runs this check over each chunk before feeding it, and
/// stops before the tag.
///
/// The bytes are scanned as XML reads them, once, from where the last scan stopped: text is
/// skipped to the next `<` (eight bytes at a time), comments, CDATA sections, processing instructions
/// (the XML declaration among them) and the document type declaration are skipped whole, end
/// tags to their `>`, and a start tag is read name by name, quoted values skipped, up to its
/// `>`. A construct that runs past the bytes being checked is read to its end in the rest of
/// the input (it is all in memory), so nothing is read twice. Markup that is not well-formed
/// is left to libxml2, which refuses the document there, before anything after it counts.
struct XMLAttributeCheck {
    /// An attribute that is not allowed.
    struct Finding: Equatable {
        /// The byte offset of the start tag's `<`.
        var tagOffset: Int
        /// The byte offset of the attribute's name.
        var attributeOffset: Int
        /// The element's name and the attribute's, as written.
        var element: String
        var attribute: String

        /// The sentence a reader reports.
        var message: String {
            let quoted = attribute.count > 40 ? String(attribute.prefix(40)) + "…" : attribute
            return "unexpected attribute '\(quoted)' on <\(element)>: the elements of a property list have no attributes, "
                + "except version on <plist>"
        }
    }

    /// Where the next construct starts: everything before it has been checked.
    private(set) var position = 0

    /// Checks the constructs that start before `end` in `bytes`, from where the last call
    /// stopped, and returns the first attribute that is not allowed, or `nil`.
    mutating func check(_ bytes: UnsafeRawBufferPointer, upTo end: Int) -> Finding? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let end = min(end, count)
        func byte(_ index: Int) -> UInt8 { index < count ? bytes[index] : 0 }
        func starts(_ marker: StaticString, at index: Int) -> Bool {
            let length = marker.utf8CodeUnitCount
            return index + length <= count && memcmp(base + index, marker.utf8Start, length) == 0
        }
        /// Where `marker`, searched for from `index`, ends; the end of the input when it is not there.
        func endOf(_ marker: StaticString, from index: Int) -> Int {
            let length = marker.utf8CodeUnitCount
            let first = Int32(marker.utf8Start.pointee)
            var cursor = index
            while cursor < count, let found = memchr(base + cursor, first, count - cursor) {
                let at = UnsafeRawPointer(found) - base
                if starts(marker, at: at) { return at + length }
                cursor = at + 1
            }
            return count
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        /// Where a name that starts at `index` ends: at whitespace, `/`, `>`, `=` or a quote.
        func nameEnd(from index: Int) -> Int {
            var cursor = index
            while cursor < count {
                let current = bytes[cursor]
                // Letters and most name characters are above every byte that ends a name.
                if current > UInt8(ascii: ">") {
                    cursor += 1
                    continue
                }
                if isSpace(current) || current == UInt8(ascii: "/") || current == UInt8(ascii: ">")
                    || current == UInt8(ascii: "=") || current == UInt8(ascii: "\"") || current == UInt8(ascii: "'")
                    || current == UInt8(ascii: "<")
                {
                    break
                }
                cursor += 1
            }
            return cursor
        }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }

        while position < end {
            // The next `<`, eight bytes at a time (tags are a few bytes apart: a call to `memchr`
            // for each cost more than the search), then byte by byte near the end.
            var open = ByteWords.skipUnmarked(from: position, to: end, in: base) {
                ByteWords.bytes(of: $0, equalTo: UInt8(ascii: "<"))
            }.position
            while open < end, bytes[open] != UInt8(ascii: "<") { open += 1 }
            guard open < end else {
                position = end
                break
            }
            let second = byte(open + 1)
            if second != UInt8(ascii: "!"), second != UInt8(ascii: "?"), second != UInt8(ascii: "/") {
                // The usual start tag, `<name>` or `<name/>`, passed over here, before the
                // comparisons with the other constructs' openings: what the start-tag scan below
                // does with it, in a loop of its own.
                let elementEnd = nameEnd(from: open + 1)
                let after = byte(elementEnd)
                if after == UInt8(ascii: ">") {
                    position = elementEnd + 1
                    continue
                }
                if after == UInt8(ascii: "/"), byte(elementEnd + 1) == UInt8(ascii: ">") {
                    position = elementEnd + 2
                    continue
                }
            }
            if second == UInt8(ascii: "!"), starts("<!--", at: open) {
                position = endOf("-->", from: open + 4)
            } else if second == UInt8(ascii: "!"), starts("<![CDATA[", at: open) {
                position = endOf("]]>", from: open + 9)
            } else if second == UInt8(ascii: "?") {
                position = endOf("?>", from: open + 2)
            } else if second == UInt8(ascii: "!") || second == UInt8(ascii: "/") {
                // The document type declaration (its internal subset was refused before parsing)
                // or an end tag: to the `>` outside quoted literals.
                var cursor = open + 2
                var quote: UInt8?
                while cursor < count {
                    let current = bytes[cursor]
                    cursor += 1
                    if let open = quote {
                        if current == open { quote = nil }
                    } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                        quote = current
                    } else if current == UInt8(ascii: ">") {
                        break
                    }
                }
                position = cursor
            } else {
                // A start tag: its name, then attributes up to `>` or `/>`.
                let nameStart = open + 1
                let elementEnd = nameEnd(from: nameStart)
                let isPlist = elementEnd - nameStart == 5 && starts("plist", at: nameStart)
                var sawVersion = false
                var cursor = elementEnd
                scanning: while cursor < count {
                    let current = bytes[cursor]
                    if isSpace(current) {
                        cursor += 1
                    } else if current == UInt8(ascii: ">") {
                        cursor += 1
                        break scanning
                    } else if current == UInt8(ascii: "/") {
                        cursor += 1
                    } else if current == UInt8(ascii: "<") {
                        break scanning  // not well-formed: libxml2 stops here
                    } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                        // A quoted value (after its `=`): skipped whole, `>` and all.
                        cursor += 1
                        while cursor < count, bytes[cursor] != current { cursor += 1 }
                        cursor += 1
                    } else if current == UInt8(ascii: "=") {
                        cursor += 1
                    } else {
                        let attributeEnd = Swift.max(nameEnd(from: cursor), cursor + 1)
                        if isPlist, !sawVersion, attributeEnd - cursor == 7, starts("version", at: cursor) {
                            sawVersion = true
                        } else {
                            position = open
                            return Finding(
                                tagOffset: open, attributeOffset: cursor, element: text(nameStart..<elementEnd),
                                attribute: text(cursor..<attributeEnd))
                        }
                        cursor = attributeEnd
                    }
                }
                position = Swift.max(cursor, open + 1)
            }
        }
        return nil
    }
}
