import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal beside a document, `NAME.journal` (docs/FORMATS.md, section 7): the saves made
/// since the document was last written whole, one JSON line each after a header line, appended
/// and flushed to disk one save at a time. A save's cost is then what it changed; the document
/// is written whole only when the journal is folded into it (compaction).
///
/// A line cut short by a crash (the last one, without its newline) is a save that never
/// completed: readers ignore it and the next append cuts it off.
public struct DocumentJournal: Sendable {
    /// The journal file.
    public let path: String
    /// The journal's first line names the format and its version.
    public static let formatVersion = 1

    /// The journal of the document at `documentPath` (beside the file a symbolic link names).
    public init(documentPath: String) {
        path = AtomicFileWriter.resolvingSymbolicLinks(documentPath) + ".journal"
    }

    /// What a journal holds.
    public struct Contents: Sendable {
        /// The saves it records, in order.
        public var records: [JournalRecord]
        /// The length of its complete lines: what follows is a line cut short.
        public var completeLength: Int
        /// The length of the file.
        public var length: Int
        /// Whether it belongs to another store (the document was replaced): its records are
        /// not this document's, and are left out.
        public var isOfAnotherStore: Bool

        /// Nothing: no journal.
        public static let empty = Contents(records: [], completeLength: 0, length: 0, isOfAnotherStore: false)
    }

    /// Whether there is a journal file.
    public var exists: Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Reads the journal of the store `storeIdentifier`; ``Contents/empty`` when there is none.
    ///
    /// - Throws: ``JournalReadError`` for a journal that is not one, of a newer version, or with
    ///   a complete line that is not a record; `FileReadError` when it cannot be read.
    public func read(storeIdentifier: String, limits: DocumentLimits = .standard) throws -> Contents {
        guard exists else { return .empty }
        let data = try DocumentFileReader.contents(of: path, limits: limits)
        var records: [JournalRecord] = []
        var lineStart = data.startIndex
        var lineNumber = 0
        var completeLength = 0
        let decoder = JSONDecoder()
        while let newline = data[lineStart...].firstIndex(of: 0x0A) {
            lineNumber += 1
            let line = data[lineStart..<newline]
            if lineNumber == 1 {
                let header: Header
                do {
                    header = try decoder.decode(Header.self, from: line)
                } catch {
                    throw JournalReadError(path: path, line: 1, problem: "this is not a tripdoc journal (\(Self.reason(error)))")
                }
                guard header.tripdocJournal == Self.formatVersion else {
                    throw JournalReadError(
                        path: path, line: 1,
                        problem: "journal version \(header.tripdocJournal) is newer than this tripdoc reads (\(Self.formatVersion))")
                }
                if header.storeIdentifier != storeIdentifier {
                    return Contents(records: [], completeLength: 0, length: data.count, isOfAnotherStore: true)
                }
            } else {
                do {
                    records.append(try decoder.decode(JournalRecord.self, from: line))
                } catch {
                    throw JournalReadError(path: path, line: lineNumber, problem: "this is not a save record (\(Self.reason(error)))")
                }
            }
            lineStart = data.index(after: newline)
            completeLength = lineStart - data.startIndex
        }
        return Contents(records: records, completeLength: completeLength, length: data.count, isOfAnotherStore: false)
    }

    private static func reason(_ error: any Error) -> String {
        (error as? DecodingError)?.placedDescription ?? String(describing: error)
    }

    /// Appends a save's record and flushes it to disk; the journal is made, with its header
    /// line, when there is none. What follows the first `keepingLength` bytes (a line cut
    /// short, or a journal of another store: pass 0) is cut off first.
    ///
    /// - Throws: ``FileWriteError``; the journal then ends, at worst, with a line cut short.
    public func append(_ record: JournalRecord, storeIdentifier: String, keepingLength: Int, mode: mode_t = 0o644) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var line = try encoder.encode(record)
        line.append(0x0A)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode)
        guard descriptor >= 0 else { throw FileWriteError(path: path, operation: .appendJournal, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw FileWriteError(path: path, operation: .appendJournal, code: EINVAL)
        }
        let isNew = status.st_size == 0
        if status.st_size > keepingLength {
            guard ftruncate(descriptor, off_t(keepingLength)) == 0 else {
                throw FileWriteError(path: path, operation: .appendJournal, code: errno)
            }
        }
        var bytes = Data()
        if keepingLength == 0 {
            bytes = try encoder.encode(Header(tripdocJournal: Self.formatVersion, storeIdentifier: storeIdentifier))
            bytes.append(0x0A)
        }
        bytes.append(line)
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileWriteError(path: path, operation: .appendJournal, code: errno)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw FileWriteError(path: path, operation: .appendJournal, code: errno) }
        if isNew { try flushFolder() }
    }

    /// Removes the journal (once the document holds what it recorded) and flushes the folder.
    ///
    /// - Throws: ``FileWriteError``.
    public func remove() throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileWriteError(path: path, operation: .removeJournal, code: errno)
        }
        try flushFolder()
    }

    private func flushFolder() throws {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileWriteError(path: path, operation: .flushFolder, code: errno) }
    }

    /// The journal's first line.
    private struct Header: Codable {
        var tripdocJournal: Int
        var storeIdentifier: String
    }
}

/// A journal that cannot be folded into its document: which file, which line, what is wrong,
/// and what to do.
public struct JournalReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The journal file.
    public var path: String
    /// The line (1 is the header).
    public var line: Int
    /// What is wrong with it.
    public var problem: String

    /// Creates an error.
    public init(path: String, line: Int, problem: String) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String {
        "\(path), line \(line): \(problem); the journal holds saves not yet written into the document beside it: "
            + "restore the journal from a backup, or move it away to open the document as it was last written whole "
            + "(without those saves)"
    }
}
