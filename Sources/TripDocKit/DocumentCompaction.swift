import Foundation
import TripDoc

/// Folding a document's journal into it (`tripdoc compact`): the document is written whole, in
/// its own format, with every save the journal records, and the journal is removed.
public struct DocumentCompaction: Sendable {
    /// The document.
    public var path: String
    /// The journal that was folded in.
    public var journalPath: String
    /// How many saves the journal held that the document did not (0 when there was no journal).
    public var foldedSaves: Int

    /// Folds the journal beside the document at `path` into it. A document without a journal
    /// is left as it is.
    ///
    /// - Throws: `FileReadError`, ``TripDocError/unrecognizedFormat(path:start:)``,
    ///   `DocumentReadError`, `JournalReadError` or `FileWriteError`; the document and its
    ///   journal are then as they were.
    public static func compact(path: String, limits: DocumentLimits = .standard) throws -> DocumentCompaction {
        // A missing file, or one that is no document, is an error with or without a journal.
        let data = try DocumentFileReader.contents(of: path, limits: limits, mapped: true)
        let format = try DocumentFileReader.reading(data, path: path) { try DocumentFile.format(of: data, path: path) }
        let journal = DocumentJournal(documentPath: path)
        guard journal.exists else { return DocumentCompaction(path: path, journalPath: journal.path, foldedSaves: 0) }
        // Opening reads the document and folds the journal in, once; the fold writes that.
        let store = try ArchiveStore(path: path, format: format, limits: limits)
        let folded = store.savesInJournal
        try store.compact()
        return DocumentCompaction(path: path, journalPath: journal.path, foldedSaves: folded)
    }

    /// One line for people.
    public var text: String {
        foldedSaves == 0
            ? "\(path): no saves in a journal to fold in\n"
            : "\(path): folded \(foldedSaves) save\(foldedSaves == 1 ? "" : "s") from \(journalPath) into the document\n"
    }
}
