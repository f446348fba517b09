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
    /// One pass reads the document, its history inline: the history's position costs what
    /// passing over it does.
    public var readsHistoryPositionCheaply: Bool { true }

    /// An XML plist starts, after optional whitespace or a byte order mark, with `<?xml`,
    /// `<!DOCTYPE plist` or `<plist`.
    public func recognizes(_ prefix: Data) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<!DOCTYPE plist".utf8))
            || bytes.starts(with: Array("<plist".utf8))
    }

    /// The longest text libxml2 reads in one element without `XML_PARSE_HUGE`, which tripdoc
    /// leaves off; larger values belong in a bundle, which keeps them as entries of their own.
    public static let maximumValueLength = 10_000_000

    public func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
        try withReader(over: data, file: file, limits: limits) { reader in
            try DocumentDecoder(limits: limits).decode(from: &reader, file: file)
        }
    }

    public func readDocument<Sink: DocumentDecodingSink>(
        from data: Data, file: String, limits: DocumentLimits, into sink: inout Sink
    ) throws {
        try withReader(over: data, file: file, limits: limits) { reader in
            try DocumentDecoder(limits: limits).decode(from: &reader, file: file, into: &sink)
        }
    }

    /// Runs `body` with a reader over `data`, after the checks made before libxml2 sees anything.
    private func withReader<T>(
        over data: Data, file: String, limits: DocumentLimits, _ body: (inout PlistReader) throws -> T
    ) throws -> T {
        try limits.checkDocumentSize(data.count, file: file)
        if let problem = Self.encodingProblem(data) {
            throw DocumentReadError(
                file: file, location: SourceLocation(line: 1), message: problem,
                hint: "Convert the file to UTF-8 first")
        }
        return try data.withUnsafeBytes { bytes in
            let input = XMLInput(borrowing: bytes)
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
                var reader = try PlistReader(input: input, limits: limits)
                return try body(&reader)
            } catch let error as StructuredReadError {
                throw DocumentReadError(
                    file: file, location: error.location, message: error.message,
                    hint: error.hint ?? "The file is damaged or is not a tripdoc document")
            }
        }
    }

    /// Why `data` is not a UTF-8 XML document (a UTF-16 or UTF-32 byte order mark, or another
    /// encoding declared), or `nil`. Only UTF-8 is read, so the checks made on raw bytes before
    /// parsing (the internal subset) see the text libxml2 will see. The XML declaration is read
    /// to its end however long it is (padding must not hide an `encoding`), and its `encoding`
    /// pseudo-attribute as the XML grammar spells it.
    static func encodingProblem(_ data: Data) -> String? {
        let prefix = [UInt8](data.prefix(4))
        if prefix.starts(with: [0xFE, 0xFF]) || prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0, 0, 0xFE, 0xFF])
            || prefix.starts(with: [0, 0x3C]) || prefix.starts(with: [0x3C, 0])
        {
            return "the file is encoded in UTF-16 or UTF-32; tripdoc reads UTF-8 property lists only"
        }
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.startIndex + 3 : data.startIndex
        guard data[start...].starts(with: Array("<?xml".utf8)), let end = data[start...].firstIndex(of: UInt8(ascii: ">"))
        else { return nil }
        let declaration = String(decoding: data[start..<end], as: UTF8.self)
        guard let value = Self.pseudoAttribute("encoding", in: declaration) else { return nil }
        return ["utf-8", "utf8"].contains(value.lowercased())
            ? nil : "the file declares the encoding '\(value.lowercased())'; tripdoc reads UTF-8 property lists only"
    }

    /// The value of the pseudo-attribute `name` of an XML declaration (`name = "value"` or with
    /// single quotes, white space allowed around `=`), or `nil` when it has none.
    static func pseudoAttribute(_ name: String, in declaration: String) -> String? {
        var rest = Substring(declaration)
        while let range = rest.range(of: name) {
            let before = rest[..<range.lowerBound].last
            var after = rest[range.upperBound...].drop { $0.isWhitespace }
            rest = rest[range.upperBound...]
            guard before.map({ $0.isWhitespace }) ?? false, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { return "" }
            return String(after.dropFirst().prefix { $0 != quote })
        }
        return nil
    }

    public func writeDocument(_ document: Document) throws -> Data {
        try writeDocumentThroughStream(document)
    }

    public func makeStreamWriter(sink: @escaping DocumentByteSink) -> any DocumentStreamWriter {
        PlistStreamWriter(
            base: StructuredDocumentStreamWriter(
                writer: PlistWriter(capacity: 2 * StructuredDocumentStreamWriter<PlistWriter>.pieceSize), sink: sink,
                check: { snapshot, writer in
                    // The writer measures every text as it writes it; only a snapshot with one
                    // too long is looked at again, to say which.
                    if writer.longestText > Self.maximumValueLength { try Self.checkLengths(of: snapshot()) }
                    writer.longestText = 0
                }))
    }

    /// Refuses a header, schema or history holding text longer than one plist element may hold.
    static func checkLengths(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        for entity in schema.entities {
            for attribute in entity.attributes {
                if let value = attribute.defaultValue, Self.longestText(in: value) > Self.maximumValueLength {
                    throw DocumentWriteError(
                        identifier: PersistentIdentifier(
                            storeIdentifier: header.storeIdentifier, entityName: entity.name, primaryKey: "(schema)"),
                        property: attribute.name,
                        message: "has a default value longer than the \(Self.maximumValueLength) bytes one plist element may hold")
                }
            }
        }
        for transaction in history.transactions {
            for change in transaction.changes { try checkLengths(of: change, in: transaction) }
        }
    }

    /// Refuses a change of `transaction` holding text longer than one plist element may hold.
    static func checkLengths(of change: HistoryChangeRecord, in transaction: HistoryTransactionRecord) throws {
        let values: [String: SnapshotValue] =
            switch change {
            case .update(_, _, let values): values
            case .delete(_, let tombstone): tombstone
            case .insert: [:]
            }
        for (property, value) in values where Self.longestText(in: value) > Self.maximumValueLength {
            throw DocumentWriteError(
                identifier: change.changedPersistentIdentifier, property: property,
                message: "is longer in history transaction \(transaction.transactionIdentifier) than the "
                    + "\(Self.maximumValueLength) bytes one plist element may hold; write the document as a bundle")
        }
    }

    /// Refuses a snapshot holding text longer than one plist element may hold.
    static func checkLengths(of snapshot: DefaultSnapshot) throws {
        try snapshot.forEachValue { property, value in
            guard Self.longestText(in: value) > Self.maximumValueLength else { return }
            throw DocumentWriteError(
                identifier: snapshot.persistentIdentifier, property: property,
                message: "is longer than the \(Self.maximumValueLength) bytes one plist element may hold; "
                    + "write the document as a bundle, which keeps large data in entries of its own")
        }
    }

    /// The most bytes one element of `value` takes as text (base64 for data).
    static func longestText(in value: SnapshotValue) -> Int {
        switch value {
        case .string(let text):
            // Written as <data> (base64, a third longer) when XML cannot carry one of its characters;
            // text too short to be too long either way is not looked at.
            (text.utf8.count + 2) / 3 * 4 <= maximumValueLength || !text.unicodeScalars.contains(where: PlistWriter.isOutsideXML)
                ? text.utf8.count : (text.utf8.count + 2) / 3 * 4
        case .data(let data): (data.count + 2) / 3 * 4
        case .array(let elements): elements.map(longestText).max() ?? 0
        case .composite(let fields): fields.values.map(longestText).max() ?? 0
        default: 0
        }
    }
}

/// The plist's stream writer: the shared one, after the plist's length checks.
private struct PlistStreamWriter: DocumentStreamWriter {
    var base: StructuredDocumentStreamWriter<PlistWriter>

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        try PlistFormat.checkLengths(header: header, schema: schema, history: history)
        try base.begin(header: header, schema: schema, history: history)
    }
    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory, changes: HistoryChangeStream) throws {
        try PlistFormat.checkLengths(header: header, schema: schema, history: history)
        try base.begin(header: header, schema: schema, history: history) { index, add in
            try withoutActuallyEscaping(add) { add in
                try changes(index) { change in
                    try PlistFormat.checkLengths(of: change, in: history.transactions[index])
                    try add(change)
                }
            }
        }
    }
    mutating func beginEntity(_ entity: Schema.Entity) throws { try base.beginEntity(entity) }
    mutating func add(_ snapshot: DefaultSnapshot) throws { try base.add(snapshot) }
    mutating func add(record: consuming SnapshotRecord) throws { try base.add(record: record) }
    mutating func endEntity() throws { try base.endEntity() }
    mutating func finish() throws { try base.finish() }
}

