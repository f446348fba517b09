import Foundation
import TripDocCore

/// The XML property-list document format: a real Apple plist (any plist reader reads it)
/// holding the same header, schema and snapshots as the other formats (docs/FORMATS.md).
public struct PlistFormat: DocumentFormat {
    /// Creates the format.
    public init() {}

    public var name: String { "plist" }
    public var fileExtensions: [String] { ["plist"] }
    public var signatureDescription: String { "an XML property list (starting with '<?xml' or '<plist')" }

    /// An XML plist starts, after optional whitespace or a byte order mark, with `<?xml`,
    /// `<!DOCTYPE plist` or `<plist`.
    public func recognizes(_ prefix: Data) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<!DOCTYPE plist".utf8))
            || bytes.starts(with: Array("<plist".utf8))
    }

    public func readDocument(from data: Data, file: String) throws -> Document {
        let input = XMLInput(data)
        if let offset = input.internalSubsetOffset() {
            let line = data.prefix(offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw DocumentReadError(
                file: file, location: SourceLocation(line: line),
                message: "the document type declares an internal subset ('[' … ']'), where entities are defined; "
                    + "tripdoc refuses it because property lists never need one and entities can expand "
                    + "without bound or read local files",
                hint: "Remove the internal subset, or convert the file with a trusted tool")
        }
        do {
            var reader = try PlistReader(input: input)
            return try DocumentDecoder().decode(from: &reader, file: file)
        } catch let error as StructuredReadError {
            throw DocumentReadError(
                file: file, location: error.location, message: error.message,
                hint: "The file is damaged or is not a tripdoc document")
        }
    }

    public func writeDocument(_ document: Document) throws -> Data {
        var writer = PlistWriter(capacity: max(1 << 16, document.snapshots.count * 300))
        try DocumentEncoder().encode(document, to: &writer)
        return Data(writer.bytes)
    }
}
