import Foundation
import TripDoc

/// `tripdoc convert` as a library: reads a document in any format and writes it in any format
/// as a new store, every identifier and reference remapped.
public struct DocumentConversion {
    /// The converted document.
    public var document: Document
    /// Each old identifier and the new one it became.
    public var identifiers: [PersistentIdentifier: PersistentIdentifier]
    /// The source document's store identifier.
    public var sourceStoreIdentifier: String

    /// Converts `source` into a new store.
    ///
    /// - Parameters:
    ///   - source: The document to convert, as read from its file.
    ///   - storeIdentifier: The new store's identifier (a new UUID when `nil`).
    ///   - renumber: Give fresh primary keys instead of keeping each model's.
    /// - Throws: ``TripDocError/documentHasProblems(path:problems:)`` when the source has
    ///   integrity problems (a dangling reference cannot be remapped meaningfully).
    public init(source: DocumentFile, storeIdentifier: String? = nil, renumber: Bool = false) throws {
        let problems = IntegrityChecker().problems(in: source.document)
        guard problems.isEmpty else { throw TripDocError.documentHasProblems(path: source.path, problems: problems) }
        if let storeIdentifier, storeIdentifier.isEmpty {
            throw TripDocError.invalidArgument("--store-identifier must not be empty")
        }
        let result = source.document.remapped(toStore: storeIdentifier ?? UUID().uuidString, renumber: renumber)
        document = result.document
        identifiers = result.identifiers
        sourceStoreIdentifier = source.document.storeIdentifier
    }
}
