import CLibXML2
import Foundation
import Synchronization
import TripDocCore

/// The one place tripdoc calls libxml2: its push parser with SAX2 callbacks, configured for
/// untrusted input, fed an XML document in memory a chunk at a time. The callbacks record each
/// chunk's nodes — elements, end tags, text with its bytes — as a ``Batch`` of events, which
/// ``XMLEventReader`` walks one node at a time.
///
/// A document of more than one chunk is parsed on a thread of its own, up to
/// ``batchesAhead`` chunks ahead of the reader (``startAhead()``): parsing XML is a third of
/// reading a property list, and this way it runs beside the rest. Each batch is handed over
/// whole and never changed after, so the two threads share nothing else.
///
/// Hardening (see docs/FORMATS.md): the network is off (`XML_PARSE_NONET`), entities are not
/// substituted (no `XML_PARSE_NOENT`), no external DTD is loaded (no `XML_PARSE_DTDLOAD`), the
/// external entity loader loads nothing, libxml2's own limits stay on (no `XML_PARSE_HUGE`), and
/// callers refuse internal DTD subsets before parsing (``XMLInput/internalSubsetOffset()``).
/// libxml2 applies two of its limits in its pull reader and tree builder, not in its push
/// parser; this parser applies them itself, with libxml2's numbers and words: 256 open elements
/// (``maximumDepth``) and 10,000,000 bytes of text in one node (``maximumTextLength``).
final class XMLChunkParser: @unchecked Sendable {
    /// One node, as the callbacks record it.
    struct Event {
        var type: XMLEventReader.NodeType
        var isEmpty = false
        /// The element's (or entity reference's) name, as a place in the batch's names.
        var name: Int32 = -1
        var depth: Int32
        /// Where the node is in the input: where a text or entity reference node starts; for an
        /// element or end tag, a place inside the tag, at or past its `<` (see
        /// ``XMLInput/tagStart(atOrBefore:)``), so that no tag is looked back over unless a
        /// message needs its start. (32 bits, as the other places: the input is at most 2 GiB,
        /// and a node of 24 bytes instead of 40 is less memory to write and read again.)
        var offset: Int32
        /// The node's text, as a range of the batch's text.
        var textStart: Int32 = 0
        var textEnd: Int32 = 0
    }

    /// The first error libxml2 (or this parser) reported, with its place.
    struct ParseError {
        var message: String
        var location: SourceLocation
        /// Whether the XML is not well-formed (libxml2's errors and limits), rather than
        /// well-formed XML a property list never is (``XMLAttributeCheck``).
        var isNotWellFormed = true
        /// What to do, when it is not "the file is damaged".
        var hint: String?
    }

    /// The nodes of one chunk. The parser fills a batch and hands it to the reader, which hands
    /// it back once it has read it, for the parser to fill again: its buffers are reused, not
    /// made anew for every chunk. One side at a time has it (handed over under the parser's
    /// lock), so Swift's dynamic exclusivity checks, a tenth of reading, are left out.
    final class Batch: @unchecked Sendable {
        @exclusivity(unchecked) fileprivate(set) var events: [Event] = []
        /// The bytes of the events' texts.
        @exclusivity(unchecked) fileprivate(set) var text: [UInt8] = []
        /// The names the events' `name`s stand for.
        @exclusivity(unchecked) fileprivate(set) var names: [String] = []
        /// How far the parser had been fed when it reported the events (the same for all of a
        /// chunk's).
        @exclusivity(unchecked) fileprivate(set) var fed = 0
        /// The error parsing stopped at, after the events: this is the last batch.
        @exclusivity(unchecked) fileprivate(set) var error: ParseError?
        /// Whether no batch follows.
        @exclusivity(unchecked) fileprivate(set) var isLast = false

        /// An empty batch that is not the last: what a reader starts with.
        init() {}
    }

    private static let installEntityLoader: Void = CLibXML2_installDenyingEntityLoader()
    /// libxml2's nesting limit without `XML_PARSE_HUGE` (`xmlParserMaxDepth`): an element may
    /// start inside at most this many open elements, plus one.
    static let maximumDepth: Int32 = 256
    /// libxml2's text limit without `XML_PARSE_HUGE` (`XML_MAX_TEXT_LENGTH`), for one text node.
    static let maximumTextLength = 10_000_000
    /// How much input the parser gets at a time.
    static let chunkSize = 1 << 18
    /// How many batches the parsing thread may have ready before it waits for the reader: 4 MiB
    /// of input, enough that the reader does not wait for a parser the system left without a
    /// core for a time slice (the threads of a conversion outnumber two cores).
    static let batchesAhead = 16
    /// How many parsing threads are running in the process (for tests: none is left behind).
    static let parsingThreads = Atomic<Int>(0)
    /// How many element names are kept for the whole document.
    private static let cachedNames = 32

    let input: XMLInput

    // The state below is the parsing side's alone (one thread at a time: the reader's, or the
    // parsing thread's once started): the callbacks run inside `xmlParseChunk`, called from
    // `parseNextChunk()`, never during another access, so Swift's dynamic exclusivity checks (a
    // fifth of the reading time) are left out.
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
    /// How many bytes of the input the parser has been given.
    @exclusivity(unchecked) private var fed = 0
    /// Whether the last chunk has been parsed, or parsing stopped at an error.
    @exclusivity(unchecked) private var finished = false
    @exclusivity(unchecked) private var parseError: ParseError?
    /// The check for attributes, which reads each chunk before libxml2 does.
    @exclusivity(unchecked) private var attributeCheck = XMLAttributeCheck()
    /// The current chunk's nodes and the bytes of their texts.
    @exclusivity(unchecked) private var events: [Event] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// Where the text being collected (not yet a node) starts in ``text``, and its place.
    @exclusivity(unchecked) private var pendingTextStart: Int?
    @exclusivity(unchecked) private var pendingTextOffset = 0
    @exclusivity(unchecked) private var pendingIsCDATA = false
    /// Whether the text being collected is whitespace only so far.
    @exclusivity(unchecked) private var pendingIsWhitespace = true
    /// Open elements, and whether the last start tag was `<a/>` (its end is not reported).
    @exclusivity(unchecked) private var openElements: Int32 = 0
    @exclusivity(unchecked) private var skipNextEnd = false
    /// Element names met so far, each made a String once, by libxml2's interned pointer: first
    /// the known names given at the start (their pointers `nil` until met), then others.
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var namePointers: [UnsafePointer<xmlChar>?] = []
    /// How many of `names` were given at the start.
    private let knownNameCount: Int
    /// The places in ``names`` of recently met names, in 64 slots by libxml2's pointer: most
    /// elements are found here instead of by a search of ``namePointers``.
    @exclusivity(unchecked) private var recentNames = [(pointer: UnsafePointer<xmlChar>?, index: Int32)](
        repeating: (nil, -1), count: 64)

    /// The batches made ahead, and the parsing thread's state, under `condition`.
    private let condition = NSCondition()
    private var ready: [Batch] = []
    /// Batches the reader has handed back, to be filled again.
    private var spare: [Batch] = []
    private var isRunningAhead = false
    private var threadFinished = false
    private var cancelled = false

    /// A parser at the start of `input`. Elements named by `knownNames` (without a prefix) are
    /// given the names' places in it (``Event/name``), so that a reader can tell them apart by number.
    init(_ input: XMLInput, knownNames: [String] = []) throws {
        self.input = input
        names = knownNames
        namePointers = Array(repeating: nil, count: knownNames.count)
        knownNameCount = knownNames.count
        guard input.count <= Int(Int32.max) else {
            throw StructuredReadError(
                location: SourceLocation(), message: "the document is larger than 2 GiB, which libxml2 cannot read")
        }
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { userData, localName, prefix, _, _, _, _, _, _ in
            XMLChunkParser.withParser(userData) { $0.startElement(localName, prefix: prefix) }
        }
        handler.endElementNs = { userData, localName, prefix, _ in
            XMLChunkParser.withParser(userData) { $0.endElement(localName, prefix: prefix) }
        }
        handler.characters = { userData, bytes, count in XMLChunkParser.withParser(userData) { $0.characters(bytes, Int(count)) } }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { userData, bytes, count in XMLChunkParser.withParser(userData) { $0.cdata(bytes, Int(count)) } }
        handler.reference = { userData, name in XMLChunkParser.withParser(userData) { $0.reference(name) } }
        // A comment or processing instruction is not reported, but it ends the text before it,
        // as it ends a text node in libxml2's tree (each side counts on its own toward the text limit).
        handler.comment = { userData, _ in XMLChunkParser.withParser(userData) { $0.flushText() } }
        handler.processingInstruction = { userData, _, _ in XMLChunkParser.withParser(userData) { $0.flushText() } }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            XMLChunkParser.withParser(userData) { $0.record(error.pointee) }
        }
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        // The callbacks get the parser context (libxml2's own SAX2 handlers, kept for the rest,
        // need it); the context's `_private` leads to this parser.
        guard let context = Self.makeContext(&handler)
        else { throw StructuredReadError(location: SourceLocation(line: 1, column: 1), message: "libxml2 could not start reading") }
        self.context = context
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
    }

    /// A push-parser context calling `handler`, configured for untrusted input (see the type's
    /// description): every parse of a property list, and ``XMLParseFloor``'s, starts here.
    static func makeContext(_ handler: inout xmlSAXHandler) -> xmlParserCtxtPtr? {
        _ = installEntityLoader
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else { return nil }
        // The input is UTF-8 (PlistFormat refuses other encodings before parsing), which libxml2
        // reads without a converter.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        return context
    }

    deinit {
        if let context {
            xmlFreeDoc(context.pointee.myDoc)
            xmlFreeParserCtxt(context)
        }
    }

    /// Calls `body` with the parser of the parser context `userData`, not retained: the parser
    /// owns the context, so it outlives every callback (a retain and a release per callback
    /// were a tenth of reading a large property list).
    private static func withParser(_ userData: UnsafeMutableRawPointer?, _ body: (XMLChunkParser) -> Void) {
        let context = userData!.assumingMemoryBound(to: xmlParserCtxt.self)
        Unmanaged<XMLChunkParser>.fromOpaque(context.pointee._private!)._withUnsafeGuaranteedRef(body)
    }

    // MARK: Batches

    /// Parses the rest of the document on a thread of its own, keeping up to ``batchesAhead``
    /// batches ready for ``nextBatch()``. Call ``stop()`` before letting go of the parser.
    func startAhead() {
        isRunningAhead = true
        Self.parsingThreads.add(1, ordering: .relaxed)
        let thread = Thread { [self] in
            defer { Self.parsingThreads.subtract(1, ordering: .relaxed) }
            while true {
                condition.lock()
                let batch = spare.popLast() ?? Batch()
                condition.unlock()
                parseNextChunk(into: batch)
                condition.lock()
                while ready.count >= Self.batchesAhead, !cancelled { condition.wait() }
                let stopping = cancelled || batch.isLast
                if !cancelled { ready.append(batch) }
                if stopping { threadFinished = true }
                condition.broadcast()
                condition.unlock()
                if stopping { return }
            }
        }
        // libxml2 recurses per open element: the main thread's stack size, not a secondary one's.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next chunk's batch, made ahead by the parsing thread or parsed now, for `read`: the
    /// batch the reader is done with, to be filled again.
    func nextBatch(handingBack read: Batch) -> Batch {
        guard isRunningAhead else {
            parseNextChunk(into: read)
            return read
        }
        condition.lock()
        defer { condition.unlock() }
        spare.append(read)
        while ready.isEmpty, !threadFinished { condition.wait() }
        guard !ready.isEmpty else {
            let end = Batch()
            end.isLast = true
            return end
        }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// Stops the parsing thread, if one runs, and waits for it to end.
    func stop() {
        guard isRunningAhead else { return }
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !threadFinished { condition.wait() }
        condition.unlock()
    }

    /// Feeds the parser the next chunk (all of it that is left, at the end) and puts the nodes it
    /// reports in `batch`; whatever it reported before stopping at an error is kept too. After
    /// the last batch, makes empty last batches.
    private func parseNextChunk(into batch: Batch) {
        guard !finished else {
            batch.events.removeAll(keepingCapacity: true)
            batch.fed = fed
            batch.error = parseError
            batch.isLast = true
            return
        }
        names.removeSubrange(namePointers.count...)
        var size = min(Self.chunkSize, input.count - fed)
        var isLast = fed + size >= input.count
        // A tag with an attribute no property list has is refused before libxml2 reads it:
        // libxml2 is fed up to the tag, and stops there with this error.
        let finding = attributeCheck.check(UnsafeRawBufferPointer(rebasing: input.bytes[..<input.count]), upTo: fed + size)
        if let finding {
            size = finding.tagOffset - fed
            isLast = false
        }
        let start = input.bytes.baseAddress!.advanced(by: fed).assumingMemoryBound(to: CChar.self)
        fed += size
        let status = xmlParseChunk(context, start, Int32(size), isLast ? 1 : 0)
        if status != 0, parseError == nil {
            parseError = ParseError(message: "libxml2 stopped reading", location: input.location(ofOffset: consumedOffset()))
        }
        if let finding, parseError == nil {
            parseError = ParseError(
                message: finding.message, location: input.location(ofOffset: finding.attributeOffset), isNotWellFormed: false,
                hint: "Remove the attribute, or convert the file with a tool that writes Apple's property-list format")
            pendingTextStart = nil
        }
        if isLast, parseError == nil { flushText() }
        finished = isLast || parseError != nil
        // The batch takes this chunk's buffers, and gives its old ones to the next chunk.
        swap(&events, &batch.events)
        swap(&text, &batch.text)
        events.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        // Text not yet ended (it goes on in the next chunk) starts the next chunk's text.
        if let start = pendingTextStart {
            text.append(contentsOf: batch.text[start...])
            pendingTextStart = 0
        }
        batch.names = names
        batch.fed = fed
        batch.error = parseError
        batch.isLast = finished
    }

    // MARK: Callbacks

    /// How far into the input the parser stands.
    private func consumedOffset() -> Int { CLibXML2_offset(context) }

    /// A place inside the tag the parser has just read, at or past its `<` (a start tag is
    /// reported with the parser at its `>` or `/>`; an end tag, past its `>`, possibly at the next
    /// tag's `<`: `behind` is how far back the tag's last byte is).
    private func tagPlace(behind: Int = 0) -> Int { consumedOffset() - behind }

    /// Where the text of `count` bytes just reported starts (the first of a node's pieces).
    /// libxml2 reports a run of plain text from its own copy of the input, and text it had to
    /// decode (references, characters beyond ASCII) from a buffer of its own, with the parser at
    /// the text's start or past it; which one, the input's bytes tell. (For messages only.)
    private func textStart(_ bytes: UnsafePointer<xmlChar>, _ count: Int) -> Int {
        // Reported in place (most text): the bytes say where they are.
        let inPlace = CLibXML2_offsetInInput(context, bytes)
        if inPlace >= 0 { return inPlace }
        let here = consumedOffset()
        guard let base = input.bytes.baseAddress else { return here }
        if here + count <= input.count, memcmp(base + here, bytes, count) == 0 { return here }
        if here >= count, memcmp(base + here - count, bytes, count) == 0 { return here - count }
        // Text that starts with a reference (`&amp;x`), reported past it: the node starts after
        // the markup before it, whose `>` a reference cannot hold.
        var start = min(here, input.count)
        while start > 0, base.load(fromByteOffset: start - 1, as: UInt8.self) != UInt8(ascii: ">") { start -= 1 }
        return start
    }

    /// The place in ``names`` of an element's name. A known name keeps its place; the first few
    /// other names without a prefix (a property list has about a dozen) are kept for the whole
    /// document, by libxml2's interned pointer; any other name is kept until the next chunk.
    private func nameIndex(_ localName: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> Int32 {
        guard let localName else { return -1 }
        if prefix == nil {
            // libxml2 packs its names a few bytes apart: the pointer's bits are mixed (Fibonacci
            // hashing) so that neighbouring names take different slots.
            let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: localName)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
            if recentNames[slot].pointer == localName { return recentNames[slot].index }
            if let index = namePointers.firstIndex(of: localName) {
                recentNames[slot] = (localName, Int32(index))
                return Int32(index)
            }
        }
        let local = String(cString: localName)
        if prefix == nil, let index = names[..<knownNameCount].firstIndex(of: local), namePointers[index] == nil {
            namePointers[index] = localName
            return Int32(index)
        }
        let name = prefix.map { String(cString: $0) + ":" + local } ?? local
        if prefix == nil, names.count == namePointers.count, namePointers.count < Self.cachedNames {
            namePointers.append(localName)
        }
        names.append(name)
        return Int32(names.count - 1)
    }

    private func append(_ type: XMLEventReader.NodeType, name: Int32 = -1, depth: Int32, isEmpty: Bool = false, offset: Int) {
        events.append(Event(type: type, isEmpty: isEmpty, name: name, depth: depth, offset: Int32(truncatingIfNeeded: offset)))
    }

    /// Ends the text being collected, as one node.
    private func flushText() {
        guard parseError == nil, let start = pendingTextStart else { return }
        pendingTextStart = nil
        events.append(
            Event(
                type: pendingIsCDATA ? .cdata : pendingIsWhitespace ? .whitespace : .text, depth: openElements,
                offset: Int32(truncatingIfNeeded: pendingTextOffset), textStart: Int32(start), textEnd: Int32(text.count)))
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
            .element, name: nameIndex(localName, prefix: prefix), depth: openElements, isEmpty: isEmpty, offset: tagPlace())
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
        append(.endElement, name: nameIndex(localName, prefix: prefix), depth: openElements, offset: tagPlace(behind: 1))
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard parseError == nil, let bytes, count > 0 else { return }
        if pendingTextStart == nil || pendingIsCDATA {
            flushText()
            pendingTextStart = text.count
            pendingIsCDATA = false
            pendingIsWhitespace = true
            pendingTextOffset = textStart(bytes, count)
        }
        if pendingIsWhitespace {
            // Up to the first byte that is not whitespace, as the bytes come.
            var index = 0
            while index < count, Self.isWhitespace(bytes[index]) { index += 1 }
            if index < count { pendingIsWhitespace = false }
        }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        if let start = pendingTextStart, text.count - start > Self.maximumTextLength {
            stop("xmlSAX2Characters: huge text node")
        }
    }

    /// XML's whitespace: space, tab, line feed, carriage return.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private func cdata(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard parseError == nil else { return }
        flushText()
        pendingTextStart = text.count
        pendingIsCDATA = true
        pendingTextOffset = input.tagStart(atOrBefore: tagPlace())
        if let bytes, count > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        flushText()
    }

    private func reference(_ name: UnsafePointer<xmlChar>?) {
        guard parseError == nil else { return }
        flushText()
        append(.entityReference, name: nameIndex(name, prefix: nil), depth: openElements, offset: consumedOffset())
    }

    /// Stops parsing with an error of this parser's own, where the parser stands.
    private func stop(_ message: String) {
        parseError = ParseError(message: message, location: input.location(ofOffset: consumedOffset()))
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
