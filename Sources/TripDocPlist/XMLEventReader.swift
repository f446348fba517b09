import CLibXML2
import Foundation
import TripDocCore

/// The one place tripdoc calls libxml2: a pull reader over an XML document in memory, made of
/// libxml2's push parser and SAX2 callbacks, configured for untrusted input.
///
/// The parser is fed the input a chunk at a time; its callbacks append the nodes of that chunk
/// to a buffer of events (elements, end tags, text with its bytes), which ``read()`` then walks
/// one node at a time. That is about twice as fast as libxml2's own pull reader
/// (`xmlTextReader`), which builds a tree node for every node it hands out, and memory stays at
/// one chunk's events.
///
/// Nodes are what a pull reader gives: `<a/>` is one element node marked empty (no end node);
/// adjacent text, whitespace and character references make one text node; comments, processing
/// instructions and the document type are not reported. A node's place is the byte offset where
/// it starts (an element at its `<`); ``location(ofOffset:)`` turns it into a line and column
/// when a message needs them. When libxml2 reports an error, the text it interrupted is not
/// reported: reading stops after the last node before it, with libxml2's message.
///
/// Hardening (see docs/FORMATS.md): the network is off (`XML_PARSE_NONET`), entities are not
/// substituted (no `XML_PARSE_NOENT`), no external DTD is loaded (no `XML_PARSE_DTDLOAD`), the
/// external entity loader loads nothing, libxml2's own limits stay on (no `XML_PARSE_HUGE`), and
/// callers refuse internal DTD subsets before parsing (``XMLInput/internalSubsetOffset()``).
/// libxml2 applies two of its limits in its pull reader and tree builder, not in its push
/// parser; this reader applies them itself, with libxml2's numbers and words: 256 open elements
/// (``maximumDepth``) and 10,000,000 bytes of text in one node (``maximumTextLength``).
final class XMLEventReader {
    /// The kinds of node reported.
    enum NodeType {
        case none, element, endElement, text, whitespace, cdata, entityReference
    }

    /// One node, as the callbacks record it.
    private struct Event {
        var type: NodeType
        var isEmpty = false
        /// The element's (or entity reference's) name, as a place in ``names``.
        var name: Int32 = -1
        var depth: Int32
        /// Where the node starts in the input (an element at its `<`).
        var offset: Int
        /// The node's text, as a range of ``text``.
        var textStart: Int32 = 0
        var textEnd: Int32 = 0
        /// How far the parser had been fed when it reported the node.
        var fed: Int
    }

    /// The first error libxml2 (or this reader) reported, with its place.
    private struct ParseError {
        var message: String
        var location: SourceLocation
    }

    private static let installEntityLoader: Void = CLibXML2_installDenyingEntityLoader()
    /// libxml2's nesting limit without `XML_PARSE_HUGE` (`xmlParserMaxDepth`): an element may
    /// start inside at most this many open elements, plus one.
    static let maximumDepth: Int32 = 256
    /// libxml2's text limit without `XML_PARSE_HUGE` (`XML_MAX_TEXT_LENGTH`), for one text node.
    static let maximumTextLength = 10_000_000
    /// How much input the parser gets at a time.
    private static let chunkSize = 1 << 18

    // The state below is this reader's alone, used on one thread: the callbacks run inside
    // `xmlParseChunk`, called from `refill()`, never during another access, so Swift's dynamic
    // exclusivity checks (a fifth of the reading time) are left out.
    private let input: XMLInput
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
    /// How many bytes of the input the parser has been given.
    @exclusivity(unchecked) private var fed = 0
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var parseError: ParseError?

    /// The current chunk's nodes and the bytes of their texts; `cursor` is the current node.
    @exclusivity(unchecked) private var events: [Event] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    @exclusivity(unchecked) private var cursor = -1
    /// Where the text being collected (not yet a node) starts in ``text``, and its place.
    @exclusivity(unchecked) private var pendingTextStart: Int?
    @exclusivity(unchecked) private var pendingTextOffset = 0
    @exclusivity(unchecked) private var pendingIsCDATA = false
    /// Open elements, and whether the last start tag was `<a/>` (its end is not reported).
    @exclusivity(unchecked) private var openElements: Int32 = 0
    @exclusivity(unchecked) private var skipNextEnd = false
    /// Element names met so far, each made a String once, by libxml2's interned pointer.
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var namePointers: [UnsafePointer<xmlChar>] = []

    /// Opens a reader at the start of `input`.
    init(_ input: XMLInput) throws {
        _ = Self.installEntityLoader
        self.input = input
        guard input.count <= Int(Int32.max) else {
            throw StructuredReadError(
                location: SourceLocation(), message: "the document is larger than 2 GiB, which libxml2 cannot read")
        }
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { userData, localName, prefix, _, _, _, _, _, _ in
            XMLEventReader.withReader(userData) { $0.startElement(localName, prefix: prefix) }
        }
        handler.endElementNs = { userData, localName, prefix, _ in
            XMLEventReader.withReader(userData) { $0.endElement(localName, prefix: prefix) }
        }
        handler.characters = { userData, bytes, count in XMLEventReader.withReader(userData) { $0.characters(bytes, Int(count)) } }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { userData, bytes, count in XMLEventReader.withReader(userData) { $0.cdata(bytes, Int(count)) } }
        handler.reference = { userData, name in XMLEventReader.withReader(userData) { $0.reference(name) } }
        // A comment or processing instruction is not reported, but it ends the text before it,
        // as it ends a text node in libxml2's tree (each side counts on its own toward the text limit).
        handler.comment = { userData, _ in XMLEventReader.withReader(userData) { $0.flushText() } }
        handler.processingInstruction = { userData, _, _ in XMLEventReader.withReader(userData) { $0.flushText() } }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            XMLEventReader.withReader(userData) { $0.record(error.pointee) }
        }
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        // The callbacks get the parser context (libxml2's own SAX2 handlers, kept for the rest,
        // need it); the context's `_private` leads to this reader.
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil)
        else { throw StructuredReadError(location: SourceLocation(line: 1, column: 1), message: "libxml2 could not start reading") }
        self.context = context
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        // The input is UTF-8 (PlistFormat refuses other encodings before parsing), which libxml2
        // reads without a converter.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
    }

    deinit {
        if let context {
            xmlFreeDoc(context.pointee.myDoc)
            xmlFreeParserCtxt(context)
        }
    }

    /// Calls `body` with the reader of the parser context `userData`, not retained: the reader
    /// owns the parser, so it outlives every callback (a retain and a release per callback
    /// were a tenth of reading a large property list).
    private static func withReader(_ userData: UnsafeMutableRawPointer?, _ body: (XMLEventReader) -> Void) {
        let context = userData!.assumingMemoryBound(to: xmlParserCtxt.self)
        Unmanaged<XMLEventReader>.fromOpaque(context.pointee._private!)._withUnsafeGuaranteedRef(body)
    }

    // MARK: Reading

    /// Moves to the next node; `false` at the end of the document.
    ///
    /// - Throws: ``StructuredReadError`` with libxml2's message, line and column, once the nodes
    ///   before the error have been read.
    func read() throws -> Bool {
        cursor += 1
        while cursor >= events.count {
            if finished {
                cursor = events.count
                if let parseError {
                    throw StructuredReadError(
                        location: parseError.location, message: "the XML is not well-formed: \(parseError.message)")
                }
                return false
            }
            refill()
        }
        return true
    }

    /// Feeds the parser the next chunk (all of it that is left, at the end) and keeps the nodes
    /// it reports; whatever it reported before stopping at an error is kept too.
    private func refill() {
        events.removeAll(keepingCapacity: true)
        names.removeSubrange(namePointers.count...)
        // Text not yet ended (it goes on in the next chunk) stays, at the start.
        if let start = pendingTextStart {
            text.removeSubrange(0..<start)
            pendingTextStart = 0
        } else {
            text.removeAll(keepingCapacity: true)
        }
        cursor = 0
        let size = min(Self.chunkSize, input.count - fed)
        let isLast = fed + size >= input.count
        let start = input.bytes.baseAddress!.advanced(by: fed).assumingMemoryBound(to: CChar.self)
        fed += size
        let status = xmlParseChunk(context, start, Int32(size), isLast ? 1 : 0)
        if status != 0, parseError == nil {
            let location = location(ofOffset: consumedOffset())
            parseError = ParseError(message: "libxml2 stopped reading", location: location)
        }
        if parseError != nil {
            finished = true
        } else if isLast {
            flushText()
            finished = true
        }
    }

    // MARK: The current node

    private var current: Event { events[cursor] }

    /// The current node's type.
    var nodeType: NodeType { cursor < events.count ? current.type : .none }

    /// The element's (or entity reference's) qualified name (`dict`); empty for other nodes.
    var name: String {
        guard cursor < events.count, current.name >= 0 else { return "" }
        return names[Int(current.name)]
    }

    /// The text of a text, whitespace or CDATA node.
    var value: String {
        guard cursor < events.count else { return "" }
        let event = current
        return text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(event.textStart)..<Int(event.textEnd)]), as: UTF8.self)
        }
    }

    /// Whether the element is written `<name/>`.
    var isEmptyElement: Bool { cursor < events.count && current.isEmpty }

    /// The node's depth in the tree (the root element is 0).
    var depth: Int { cursor < events.count ? Int(current.depth) : 0 }

    /// How many bytes of the input the parser had been given when it reported the node: the
    /// bytes before are parsed.
    var bytesConsumed: Int { cursor < events.count ? max(0, current.fed - Self.chunkSize) : 0 }

    /// Where the current node starts in the input (the end of the input past the last node).
    var offset: Int { cursor < events.count ? current.offset : input.count }

    /// The line and column (1-based; columns count bytes) of the byte at `offset`, worked out
    /// from the input (for messages only: it reads the input up to there).
    func location(ofOffset offset: Int) -> SourceLocation {
        let end = min(max(offset, 0), input.count)
        guard let base = input.bytes.baseAddress else { return SourceLocation(line: 1, column: 1) }
        var line = 1
        var lineStart = base
        while lineStart < base + end, let newline = memchr(lineStart, 0x0A, base + end - lineStart) {
            line += 1
            lineStart = UnsafeRawPointer(newline) + 1
        }
        return SourceLocation(line: line, column: base + end - lineStart + 1)
    }

    // MARK: Callbacks

    /// How far into the input the parser stands.
    private func consumedOffset() -> Int { CLibXML2_offset(context) }

    /// Where the tag the parser has just read starts: its `<`, looking back from where it stands
    /// (a start tag is reported with the parser at its `>` or `/>`; an end tag, past its `>`,
    /// possibly at the next tag's `<`: `behind` is how far back the tag's last byte is).
    private func tagStart(behind: Int = 0) -> Int {
        var index = max(0, min(consumedOffset() - behind, input.count - 1))
        while index > 0, input.bytes[index] != UInt8(ascii: "<") { index -= 1 }
        return index
    }

    /// Where the text of `count` bytes just reported starts. libxml2 reports a run of plain text
    /// with the parser at its start, and text it had to decode (references) past it; which one,
    /// the input's bytes tell. (For messages only.)
    private func textStart(_ bytes: UnsafePointer<xmlChar>, _ count: Int) -> Int {
        let here = consumedOffset()
        guard let base = input.bytes.baseAddress else { return here }
        if here + count <= input.count, memcmp(base + here, bytes, count) == 0 { return here }
        if here >= count, memcmp(base + here - count, bytes, count) == 0 { return here - count }
        return here
    }

    /// The place in ``names`` of an element's name. The first few names without a prefix (a
    /// property list has about a dozen) are kept for the whole document, by libxml2's interned
    /// pointer; any other name is kept until the next chunk.
    private func nameIndex(_ localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> Int32 {
        guard let localName else { return -1 }
        if prefix == nil, let index = namePointers.firstIndex(of: localName) { return Int32(index) }
        let local = String(cString: localName)
        let name = prefix.map { String(cString: $0) + ":" + local } ?? local
        if prefix == nil, names.count == namePointers.count, namePointers.count < Self.cachedNames {
            namePointers.append(localName)
        }
        names.append(name)
        return Int32(names.count - 1)
    }

    /// How many element names are kept for the whole document.
    private static let cachedNames = 32

    private func append(_ type: NodeType, name: Int32 = -1, depth: Int32, isEmpty: Bool = false, offset: Int) {
        events.append(Event(type: type, isEmpty: isEmpty, name: name, depth: depth, offset: offset, fed: fed))
    }

    /// Ends the text being collected, as one node.
    private func flushText() {
        guard parseError == nil, let start = pendingTextStart else { return }
        pendingTextStart = nil
        let isWhitespace = text[start...].allSatisfy {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        events.append(
            Event(
                type: pendingIsCDATA ? .cdata : isWhitespace ? .whitespace : .text, depth: openElements,
                offset: pendingTextOffset, textStart: Int32(start), textEnd: Int32(text.count), fed: fed))
    }

    private func startElement(_ localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) {
        guard parseError == nil else { return }
        flushText()
        guard openElements <= Self.maximumDepth else {
            return stop("Excessive depth in document: \(Self.maximumDepth) use XML_PARSE_HUGE option")
        }
        // libxml2 reports a start tag before it looks past it: at `/>`, the element is empty.
        let isEmpty = CLibXML2_atEmptyElementEnd(context) != 0
        append(
            .element, name: nameIndex(localName, prefix: prefix), depth: openElements, isEmpty: isEmpty, offset: tagStart())
        if isEmpty {
            skipNextEnd = true
        } else {
            openElements += 1
        }
    }

    private func endElement(_ localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) {
        guard parseError == nil else { return }
        flushText()
        if skipNextEnd {
            skipNextEnd = false
            return
        }
        openElements -= 1
        append(.endElement, name: nameIndex(localName, prefix: prefix), depth: openElements, offset: tagStart(behind: 1))
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard parseError == nil, let bytes, count > 0 else { return }
        if pendingTextStart == nil || pendingIsCDATA {
            flushText()
            pendingTextStart = text.count
            pendingIsCDATA = false
            pendingTextOffset = textStart(bytes, count)
        }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        if let start = pendingTextStart, text.count - start > Self.maximumTextLength {
            stop("xmlSAX2Characters: huge text node")
        }
    }

    private func cdata(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard parseError == nil else { return }
        flushText()
        pendingTextStart = text.count
        pendingIsCDATA = true
        pendingTextOffset = tagStart()
        if let bytes, count > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        flushText()
    }

    private func reference(_ name: UnsafePointer<xmlChar>?) {
        guard parseError == nil else { return }
        flushText()
        append(.entityReference, name: nameIndex(name, prefix: nil), depth: openElements, offset: consumedOffset())
    }

    /// Stops parsing with an error of this reader's own, where the parser stands.
    private func stop(_ message: String) {
        let location = location(ofOffset: consumedOffset())
        parseError = ParseError(message: message, location: location)
        pendingTextStart = nil
        xmlStopParser(context)
    }

    private func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, parseError == nil else { return }
        // libxml2's messages may span lines ("…\nBytes: 0xFF …"): keep them on one.
        let message =
            error.message.map { String(cString: $0) }?
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "; ") ?? "the XML is not well-formed"
        parseError = ParseError(
            message: message,
            location: SourceLocation(line: error.line > 0 ? Int(error.line) : nil, column: error.int2 > 0 ? Int(error.int2) : nil))
        // The text the error interrupted is not reported: reading stops after the last node
        // before it (an element whose content it is in), with this error. Nothing after it is
        // recorded, and no more input is fed; libxml2 stops on its own after a fatal error (it
        // is not stopped from inside its error handler, where its input may still be in use).
        pendingTextStart = nil
    }
}
