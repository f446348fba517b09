import CLibXML2
import Foundation
import TripDocCore

/// The one place tripdoc calls libxml2: a streaming reader (libxml2's `xmlTextReader`) over
/// an XML document in memory, configured for untrusted input.
///
/// Hardening (see docs/FORMATS.md): the network is off (`XML_PARSE_NONET`), entities are not
/// substituted (no `XML_PARSE_NOENT`), no external DTD is loaded (no `XML_PARSE_DTDLOAD`), the
/// external entity loader loads nothing, libxml2's own limits stay on (no `XML_PARSE_HUGE`:
/// nesting depth and entity amplification), and callers refuse internal DTD subsets before
/// parsing (``XMLInput/internalSubsetOffset()``).
final class XMLTextReader {
    /// Node types, from libxml2's `xmlReaderTypes`.
    enum NodeType: Int32 {
        case none = 0, element = 1, attribute = 2, text = 3, cdata = 4, entityReference = 5, entity = 6
        case processingInstruction = 7, comment = 8, document = 9, documentType = 10, documentFragment = 11
        case notation = 12, whitespace = 13, significantWhitespace = 14, endElement = 15, endEntity = 16
        case xmlDeclaration = 17
    }

    /// The first error libxml2 reported, with its place.
    final class ErrorSink {
        var message: String?
        var line = 0
        var column = 0
    }

    private static let installEntityLoader: Void = CLibXML2_installDenyingEntityLoader()

    private let reader: xmlTextReaderPtr
    private let input: XMLInput
    private let errors = ErrorSink()

    /// Opens a reader at the start of `input`.
    init(_ input: XMLInput) throws {
        _ = Self.installEntityLoader
        self.input = input
        guard input.count <= Int(Int32.max) else {
            throw StructuredReadError(
                location: SourceLocation(), message: "the document is larger than 2 GiB, which libxml2 cannot read from memory")
        }
        let options = Int32(XML_PARSE_NONET.rawValue)
        // The corresponding C function is `xmlReaderForMemory`; it does not copy the buffer,
        // which the caller keeps alive as long as this reader.
        guard
            let reader = xmlReaderForMemory(
                input.bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(input.count), nil, "UTF-8",
                options)
        else { throw StructuredReadError(location: SourceLocation(line: 1, column: 1), message: "libxml2 could not start reading") }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
                guard sink.message == nil else { return }
                // libxml2's messages may span lines ("…\nBytes: 0xFF …"): keep them on one.
                sink.message = error.pointee.message.map { String(cString: $0) }?
                    .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .joined(separator: "; ") ?? "the XML is not well-formed"
                sink.line = Int(error.pointee.line)
                sink.column = Int(error.pointee.int2)
            }, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// Moves to the next node; `false` at the end of the document.
    ///
    /// - Throws: ``StructuredReadError`` with libxml2's message, line and column.
    func read() throws -> Bool {
        let result = xmlTextReaderRead(reader)
        nodeType = result == 1 ? NodeType(rawValue: xmlTextReaderNodeType(reader)) ?? .none : .none
        if result == 1 { return true }
        if result == 0, errors.message == nil { return false }
        throw StructuredReadError(
            location: SourceLocation(line: errors.line > 0 ? errors.line : line, column: errors.column > 0 ? errors.column : nil),
            message: "the XML is not well-formed: \(errors.message ?? "libxml2 stopped reading")")
    }

    /// The current node's type, read once per node.
    private(set) var nodeType: NodeType = .none

    /// The node's qualified name (`dict`, `#text`).
    var name: String {
        guard let name = xmlTextReaderConstName(reader) else { return "" }
        // libxml2 keeps one copy of each name in the reader's dictionary, so the few names of a
        // property list come back as the same few pointers: each is made a String once.
        for (pointer, text) in names where pointer == name { return text }
        let text = String(cString: name)
        if names.count < 32 { names.append((name, text)) }
        return text
    }

    /// The names seen so far, by libxml2's pointer.
    private var names: [(UnsafePointer<xmlChar>, String)] = []

    /// The text of a text, CDATA or whitespace node.
    var value: String {
        guard let value = xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }

    /// Whether the element is written `<name/>`.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The node's depth in the tree (the root element is 0).
    var depth: Int { Int(xmlTextReaderDepth(reader)) }

    /// How many bytes of the input the parser has consumed.
    var bytesConsumed: Int { Int(xmlTextReaderByteConsumed(reader)) }

    /// The line the parser is on.
    var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

    /// The column the parser is on (libxml2 counts bytes; approximate for wide characters).
    var column: Int { Int(xmlTextReaderGetParserColumnNumber(reader)) }
}

/// A document's bytes, borrowed for as long as any ``XMLTextReader`` reads them: the caller
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
