import Foundation
import TripDocCore

/// A pull reader over an XML document in memory: ``read()`` moves to the next node, and the
/// properties describe it. The nodes come from ``XMLChunkParser`` (libxml2's push parser), a
/// chunk's worth at a time; for a document of more than one chunk the parser runs ahead on a
/// thread of its own. That is about twice as fast as libxml2's own pull reader
/// (`xmlTextReader`), which builds a tree node for every node it hands out, and memory stays at a
/// few chunks' events.
///
/// Nodes are what a pull reader gives: `<a/>` is one element node marked empty (no end node);
/// adjacent text, whitespace and character references make one text node; comments, processing
/// instructions and the document type are not reported. A node's place is the byte offset where
/// it starts (an element at its `<`); ``location(of:)`` turns it into a line and column
/// when a message needs them. When libxml2 reports an error, the text it interrupted is not
/// reported: reading stops after the last node before it, with libxml2's message. See
/// ``XMLChunkParser`` for how libxml2 is configured for untrusted input and the limits applied.
final class XMLEventReader {
    /// The kinds of node reported.
    enum NodeType {
        case none, element, endElement, text, whitespace, cdata, entityReference
    }

    @exclusivity(unchecked) private var parser: XMLChunkParser
    private let knownNames: [String]
    private let input: XMLInput
    /// The batch being read and the current node in it (`cursor`): this reader's alone, used on
    /// one thread, so Swift's dynamic exclusivity checks are left out.
    @exclusivity(unchecked) private var batch = XMLChunkParser.Batch()
    @exclusivity(unchecked) private var cursor = -1
    /// A copy of the current node (`nil` past the end): reading a field of it does not touch the
    /// batch, an object each access would otherwise retain and release.
    @exclusivity(unchecked) private var current: XMLChunkParser.Event?

    /// Opens a reader at the start of `input`; elements named by `knownNames` are told apart by
    /// ``nameIndex``, their names' places in it.
    init(_ input: XMLInput, knownNames: [String] = []) throws {
        self.input = input
        self.knownNames = knownNames
        parser = try XMLChunkParser(input, knownNames: knownNames)
        if input.count > XMLChunkParser.chunkSize { parser.startAhead() }
    }

    deinit { parser.stop() }

    /// Goes back to the start of the document, with a new parser: the next ``read()`` reports
    /// the first node again.
    func restart() throws {
        parser.stop()
        parser = try XMLChunkParser(input, knownNames: knownNames)
        batch = XMLChunkParser.Batch()
        cursor = -1
        current = nil
        if input.count > XMLChunkParser.chunkSize { parser.startAhead() }
    }

    // MARK: Reading

    /// Moves to the next node; `false` at the end of the document.
    ///
    /// - Throws: ``StructuredReadError`` with libxml2's message, line and column, once the nodes
    ///   before the error have been read.
    func read() throws -> Bool {
        cursor += 1
        while cursor >= batch.events.count {
            if batch.isLast {
                cursor = batch.events.count
                current = nil
                if let error = batch.error {
                    throw StructuredReadError(
                        location: error.location,
                        message: error.isNotWellFormed ? "the XML is not well-formed: \(error.message)" : error.message,
                        hint: error.hint)
                }
                return false
            }
            batch = parser.nextBatch(handingBack: batch)
            cursor = 0
        }
        current = batch.events[cursor]
        return true
    }

    // MARK: The current node

    /// The current node's type.
    var nodeType: NodeType { current?.type ?? .none }

    /// The element's (or entity reference's) qualified name (`dict`); empty for other nodes.
    var name: String {
        guard let current, current.name >= 0 else { return "" }
        return batch.names[Int(current.name)]
    }

    /// The place of the element's (or entity reference's) name: below the count of the reader's
    /// known names, the known name at that place; -1 for other nodes. A number, read without
    /// touching the batch.
    var nameIndex: Int32 { current?.name ?? -1 }

    /// The text of a text, whitespace or CDATA node.
    var value: String {
        guard let event = current else { return "" }
        return batch.text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(event.textStart)..<Int(event.textEnd)]), as: UTF8.self)
        }
    }

    /// Whether the current node's text is `expected`, byte for byte, without making a string of it.
    func valueIs(_ expected: String) -> Bool {
        guard let event = current else { return false }
        return text(at: TextPlace(start: Int(event.textStart), end: Int(event.textEnd)), is: expected)
    }

    /// Whether the text at `place` is `expected`, byte for byte, without making a string of it.
    func text(at place: TextPlace, is expected: String) -> Bool {
        let count = place.count
        return expected.withUTF8Bytes { wanted in
            guard wanted.count == count else { return false }
            guard count > 0, let wantedBase = wanted.baseAddress else { return true }
            return batch.text.withUnsafeBufferPointer {
                ByteWords.areEqual($0.baseAddress! + place.start, wantedBase, count: count)
            }
        }
    }

    /// The text of the current element, when the element is `<name>text</name>` — one text,
    /// whitespace or CDATA node, then the element's end tag — and both are already parsed: the
    /// text's place in the batch, for ``string(at:)`` and ``withBytes(at:_:)``. `nil` otherwise
    /// (the element is empty, its text is in pieces or holds something else, or its end is in
    /// a batch yet to come), when the caller reads the nodes one by one.
    func simpleText() -> TextPlace? {
        guard let current, current.type == .element, !current.isEmpty else { return nil }
        return batch.events.withUnsafeBufferPointer { events in
            guard cursor + 2 < events.count else { return nil }
            let text = events[cursor + 1]
            let end = events[cursor + 2]
            guard text.type == .text || text.type == .whitespace || text.type == .cdata, end.type == .endElement,
                end.name == current.name, end.depth == current.depth
            else { return nil }
            return TextPlace(start: Int(text.textStart), end: Int(text.textEnd))
        }
    }

    /// Where a node's text is in the batch being read (valid until the reader moves past it).
    struct TextPlace {
        fileprivate var start: Int
        fileprivate var end: Int
        /// How many bytes the text has.
        var count: Int { end - start }
    }

    /// The text at `place`, as a string.
    func string(at place: TextPlace) -> String {
        batch.text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[place.start..<place.end]), as: UTF8.self) }
    }

    /// Calls `body` with the bytes of the text at `place`, in the batch.
    func withBytes<Result>(at place: TextPlace, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try batch.text.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[place.start..<place.end])) }
    }

    /// Moves to the end tag of the current element after ``simpleText()`` found its text: the
    /// two nodes are in this batch.
    func moveToSimpleTextEnd() {
        cursor += 2
        current = batch.events[cursor]
    }

    /// Whether the element is written `<name/>`.
    var isEmptyElement: Bool { current?.isEmpty ?? false }

    /// The node's depth in the tree (the root element is 0).
    var depth: Int { current.map { Int($0.depth) } ?? 0 }

    /// How many bytes of the input the parser had been given when it reported the node, less a
    /// chunk: the bytes before are parsed.
    var bytesConsumed: Int { current == nil ? 0 : max(0, batch.fed - XMLChunkParser.chunkSize) }

    /// Where a node is: kept as the parser reported it, and worked out in full only for a
    /// message (``location(of:)``).
    struct Place {
        fileprivate var offset: Int
        /// Whether `offset` is inside a tag, at or past its `<`.
        fileprivate var isInTag: Bool
    }

    /// Where the current node is (the end of the input past the last node).
    var place: Place {
        guard let current else { return Place(offset: input.count, isInTag: false) }
        return Place(offset: Int(current.offset), isInTag: current.type == .element || current.type == .endElement)
    }

    /// The line and column where the node at `place` starts (an element at its `<`).
    func location(of place: Place) -> SourceLocation {
        input.location(ofOffset: place.isInTag ? input.tagStart(atOrBefore: place.offset) : place.offset)
    }
}
