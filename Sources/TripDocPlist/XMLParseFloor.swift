import CLibXML2
import Foundation
import TripDocCore

/// What libxml2's parse of a property list costs on its own, for the benchmark's floor
/// (`scripts/compare-peers`): the document is fed to libxml2's push parser exactly as
/// ``XMLChunkParser`` feeds it (the same context and options, the same chunks), with callbacks
/// that do nothing, so that what is measured is libxml2's own work (reading the markup, checking
/// that it is well-formed, interning names) and none of tripdoc's (recording the nodes, the
/// attribute check, decoding). Not a reader: nothing is reported but the time.
///
/// libxml2's pull reader (`xmllint --stream`) would measure more than the parse: it builds a tree
/// node for every node it hands out and frees it again; its tree builder (`xmllint --noout`)
/// builds the whole tree.
@_spi(Benchmark) public enum XMLParseFloor {
    /// The result of one parse: the CPU time of the parsing thread from the first chunk fed to
    /// the last, and whether libxml2 found the document well-formed.
    public struct Measurement: Sendable {
        /// CPU seconds (user and system) of the parse.
        public var cpuSeconds: Double
        /// Whether libxml2 parsed the document to its end without an error.
        public var isWellFormed: Bool
    }

    /// Parses `data` with libxml2 alone, as a property list is parsed, and measures it.
    public static func measure(parsing data: Data) -> Measurement {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        // The callbacks XMLChunkParser sets, doing nothing: libxml2's own (which would build a
        // tree) never run.
        handler.startElementNs = { _, _, _, _, _, _, _, _, _ in }
        handler.endElementNs = { _, _, _, _ in }
        handler.characters = { _, _, _ in }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { _, _, _ in }
        handler.reference = { _, _ in }
        handler.comment = { _, _ in }
        handler.processingInstruction = { _, _, _ in }
        handler.serror = { _, _ in }
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        guard let context = XMLChunkParser.makeContext(&handler) else { return Measurement(cpuSeconds: 0, isWellFormed: false) }
        defer {
            xmlFreeDoc(context.pointee.myDoc)
            xmlFreeParserCtxt(context)
        }
        return data.withUnsafeBytes { bytes in
            let input = XMLInput(borrowing: bytes)
            let start = threadCPUSeconds()
            var fed = 0
            var status: Int32 = 0
            repeat {
                let size = min(XMLChunkParser.chunkSize, input.count - fed)
                let isLast = fed + size >= input.count
                status = xmlParseChunk(
                    context, input.bytes.baseAddress!.advanced(by: fed).assumingMemoryBound(to: CChar.self), Int32(size),
                    isLast ? 1 : 0)
                fed += size
            } while status == 0 && fed < input.count
            return Measurement(
                cpuSeconds: threadCPUSeconds() - start, isWellFormed: status == 0 && context.pointee.wellFormed != 0)
        }
    }

    /// The CPU time the calling thread has used.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
