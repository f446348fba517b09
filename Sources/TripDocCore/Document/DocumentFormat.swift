import Foundation

/// One way of writing a ``Document`` as bytes. A format knows only its syntax: it reads and
/// writes documents through the shared ``DocumentDecoder`` and ``DocumentEncoder``, and it
/// recognises its own bytes. Everything else (saving, remapping, checking) is written once.
public protocol DocumentFormat: Sendable {
    /// The short name users type (`json`, `plist`, `bundle`).
    var name: String { get }
    /// File extensions, without the dot, that select this format when writing.
    var fileExtensions: [String] { get }
    /// How a file of this format starts, for messages: "a JSON document (starting with '{')".
    var signatureDescription: String { get }
    /// Whether `prefix` (the first bytes of a file, up to 512) looks like this format.
    func recognizes(_ prefix: Data) -> Bool
    /// Reads a document under `limits`; `file` names it in errors.
    ///
    /// - Throws: ``DocumentReadError``.
    func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document
    /// The document's bytes. Same document, same bytes.
    func writeDocument(_ document: Document) throws -> Data
}

extension DocumentFormat {
    /// Reads a document under the ``DocumentLimits/standard`` limits; `file` names it in errors.
    ///
    /// - Throws: ``DocumentReadError``.
    public func readDocument(from data: Data, file: String) throws -> Document {
        try readDocument(from: data, file: file, limits: .standard)
    }
}
