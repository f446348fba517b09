import Foundation
import TripDoc

/// A document read from a file, with the format it was recognised as and its size.
public struct DocumentFile {
    /// The path as the user gave it (`-` for standard input).
    public var path: String
    /// The format the file's bytes are in.
    public var format: any DocumentFormat
    /// The file's size in bytes.
    public var size: Int
    /// The document.
    public var document: Document

    /// Wraps a document already in memory.
    public init(path: String, format: any DocumentFormat, size: Int, document: Document) {
        self.path = path
        self.format = format
        self.size = size
        self.document = document
    }

    /// The bytes of the document at `path` (standard input for `-`), as
    /// `DocumentFileReader.contents(of:limits:mapped:)` reads them; when a journal lies beside
    /// the document (saves a store appended to it, `DocumentJournal`), the bytes of the document
    /// with the journal folded in, in the document's format. What every command reads
    /// documents through, so that each sees a journaled document as its saves left it.
    ///
    /// - Throws: `FileReadError`, `JournalReadError`, ``TripDocError/unrecognizedFormat(path:start:)``
    ///   or `DocumentReadError`.
    public static func contents(of path: String, limits: DocumentLimits = .standard, mapped: Bool = false) throws -> Data {
        let data = try DocumentFileReader.contents(of: path, limits: limits, mapped: mapped)
        let journal = DocumentJournal(documentPath: path)
        guard path != "-", journal.exists else { return data }
        return try DocumentFileReader.reading(data, path: path) {
            let format = try Self.format(of: data, path: path)
            var document = IndexedDocument(try format.readDocument(from: data, file: path, limits: limits))
            let contents = try journal.read(storeIdentifier: document.storeIdentifier, limits: limits)
            guard !contents.records.isEmpty else { return data }
            try document.fold(contents, journalPath: journal.path)
            return try format.writeDocument(document.document)
        }
    }

    /// Reads the document at `path` (standard input for `-`), recognising its format by its
    /// bytes, whatever its name.
    ///
    /// - Throws: `FileReadError`, ``TripDocError/unrecognizedFormat(path:start:)`` or
    ///   `DocumentReadError`.
    public static func read(_ path: String, limits: DocumentLimits = .standard) throws -> DocumentFile {
        try read(contents(of: path, limits: limits, mapped: true), path: path, limits: limits)
    }

    /// Reads the document in `data`, which came from `path`, under `limits`.
    public static func read(_ data: Data, path: String, limits: DocumentLimits = .standard) throws -> DocumentFile {
        try DocumentFileReader.reading(data, path: path) {
            let format = try Self.format(of: data, path: path)
            let document = try format.readDocument(from: data, file: path, limits: limits)
            return DocumentFile(path: path, format: format, size: data.count, document: document)
        }
    }

    /// Throws ``TripDocError/unknownEntity(name:path:known:)`` unless `name` is `nil` or an
    /// entity of the document's schema (what `--entity` options check).
    public func checkEntity(_ name: String?) throws {
        guard let name, document.schema.entity(named: name) == nil else { return }
        throw TripDocError.unknownEntity(name: name, path: path, known: document.schema.entities.map(\.name))
    }

    /// Reads two documents at once, one per core (standard input may be one of them).
    ///
    /// - Throws: The first path's error if both fail.
    public static func readBoth(_ first: String, _ second: String, limits: DocumentLimits = .standard) throws
        -> (DocumentFile, DocumentFile)
    {
        try both(first, second) { try DocumentFile.read($0, limits: limits) }
    }

    /// Reads the document at `path` (standard input for `-`) as records, recognising its format
    /// by its bytes: what comparing large documents needs (see `DocumentRecords`).
    ///
    /// - Throws: As ``read(_:limits:)``.
    public static func readRecords(_ path: String, limits: DocumentLimits = .standard) throws -> DocumentRecords {
        try readRecords(contents(of: path, limits: limits, mapped: true), at: path, limits: limits)
    }

    /// Reads the document in `data`, which came from `path`, as records.
    ///
    /// - Throws: As ``read(_:path:limits:)``.
    public static func readRecords(_ data: Data, at path: String, limits: DocumentLimits = .standard) throws
        -> DocumentRecords
    {
        var collector = DocumentRecordCollector()
        try DocumentFileReader.reading(data, path: path) {
            try format(of: data, path: path).readDocument(from: data, file: path, limits: limits, into: &collector)
        }
        return collector.finish()
    }

    /// Reads two documents as records at once, one per core (standard input may be one of them).
    ///
    /// - Throws: The first path's error if both fail.
    public static func readRecordsOfBoth(_ first: String, _ second: String, limits: DocumentLimits = .standard) throws
        -> (DocumentRecords, DocumentRecords)
    {
        try both(first, second) { try readRecords($0, limits: limits) }
    }

    /// Reads as records, at once on two threads, the documents in `first` and `second`, which
    /// came from `firstPath` and `secondPath`.
    ///
    /// - Throws: The first document's error if both fail.
    public static func readRecordsOfBoth(
        _ first: Data, at firstPath: String, _ second: Data, at secondPath: String, limits: DocumentLimits = .standard
    ) throws -> (DocumentRecords, DocumentRecords) {
        let (a, b) = TwoThreads.run(
            { Result { try readRecords(first, at: firstPath, limits: limits) } },
            { Result { try readRecords(second, at: secondPath, limits: limits) } })
        return (try a.get(), try b.get())
    }

    /// `read` of `first` and of `second`, at once on two threads.
    private static func both<T>(_ first: String, _ second: String, read: (String) throws -> T) throws -> (T, T) {
        let (a, b) = TwoThreads.run({ Result { try read(first) } }, { Result { try read(second) } })
        return (try a.get(), try b.get())
    }

    /// The format whose bytes `data` (from `path`) starts with.
    ///
    /// - Throws: ``TripDocError/unrecognizedFormat(path:start:)``.
    public static func format(of data: Data, path: String) throws -> any DocumentFormat {
        guard let format = DocumentFormats.recognizing(data) else {
            throw TripDocError.unrecognizedFormat(path: path, start: describeStart(of: data))
        }
        return format
    }

    private static func describeStart(of data: Data) -> String {
        guard !data.isEmpty else { return "nothing (the file is empty)" }
        let prefix = data.prefix(16)
        if let text = String(data: prefix, encoding: .utf8), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" }) {
            return "\"" + text.replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        return "the bytes " + prefix.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}

/// Where a command's output document goes: a file, written atomically, or standard output.
public struct OutputDestination {
    /// The path (`-` for standard output).
    public var path: String
    /// Whether an existing file may be replaced.
    public var force: Bool

    /// Creates a destination.
    public init(path: String, force: Bool) {
        self.path = path
        self.force = force
    }

    /// Throws unless the destination may be written: it must not exist (without `force`) and
    /// must not be `input`.
    /// What is at the path may only be a regular file, a link to one, or a stream (a FIFO, a
    /// device such as `/dev/stdout` or `/dev/null`, a socket), which is written into, never
    /// replaced, and needs no `force`: a dangling link (which would have a file created
    /// wherever it points), a loop of links and a folder are refused, even with `force`.
    public func check(notSameAs input: String? = nil) throws {
        guard path != "-" else { return }
        if let input, input != "-", Self.sameFile(input, path) { throw TripDocError.outputIsInput(path: path) }
        var link = stat()
        guard lstat(path, &link) == 0 else { return }  // nothing there: a new file
        var status = stat()
        if stat(path, &status) != 0 {
            if errno == ELOOP {
                throw TripDocError.unsafeOutput(path: path, reason: "it is a loop of symbolic links")
            }
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw TripDocError.unsafeOutput(
                path: path,
                reason: "it is a symbolic link to \(target), which does not exist (tripdoc does not create a file through a link)")
        }
        if Self.isStream(status) { return }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file"
            throw TripDocError.unsafeOutput(path: path, reason: "it is \(kind), which tripdoc never replaces")
        }
        if !force { throw TripDocError.outputExists(path: path) }
    }

    /// Throws unless this destination and `other` (a second output of the same command, such
    /// as the remap table) are different files, or one of them is standard output and the
    /// other is not.
    public func check(distinctFrom other: OutputDestination, as option: String) throws {
        if path == "-" ? other.path == "-" : (other.path != "-" && Self.sameFile(path, other.path)) {
            throw TripDocError.outputsCollide(path: path, option: option)
        }
    }

    /// Writes what `produce` hands its sink, piece by piece: atomically for a file (nothing is
    /// left when `produce` throws), collected and written at the end for standard output.
    public func write(_ produce: (@escaping DocumentByteSink) throws -> Void) throws {
        try prepare(produce).commit()
    }

    /// Writes what `produce` hands its sink as it comes, so that the output is never whole in
    /// memory: a file atomically (nothing is left when `produce` throws), standard output and
    /// streams (a FIFO, a device) piece by piece. For output whose making cannot fail halfway
    /// (a generated document); `write(_:)` keeps standard output whole until the end, so that
    /// a failure writes nothing there.
    ///
    /// - Throws: What `produce` throws, ``TripDocError/outputExists(path:)``, `FileWriteError`
    ///   or ``StandardOutputError``.
    public func writeAsMade(_ produce: (@escaping DocumentByteSink) throws -> Void) throws {
        if path == "-" {
            try produce { try StandardOutput.write($0) }
        } else if isStream {
            try StandardOutput.writing(intoStream: path) { write in
                try withoutActuallyEscaping(write) { write in try produce { try write($0) } }
            }
        } else {
            try write(produce)
        }
    }

    /// Writes `data`, atomically for a file.
    public func write(_ data: Data) throws {
        try prepare(data).commit()
    }

    /// Makes the output complete without putting it in place yet: a file is written to its
    /// temporary file, standard output's bytes are kept. ``PreparedOutput/commit()`` puts it in
    /// place, so that the outputs of one command are all committed once all are complete.
    public func prepare(_ produce: (@escaping DocumentByteSink) throws -> Void) throws -> PreparedOutput {
        if path == "-" || isStream {
            var data = Data()
            try produce { data.append(contentsOf: $0) }
            return PreparedOutput(destination: self, standardOutput: data)
        }
        let file = try AtomicFileWriter().prepare(to: path) { output in
            try produce { try output.write($0) }
        }
        return PreparedOutput(destination: self, file: file)
    }

    /// As ``prepare(_:)-(_)``, for bytes already made.
    public func prepare(_ data: Data) throws -> PreparedOutput {
        try prepare { sink in try data.withUnsafeBytes { try sink($0) } }
    }

    /// Whether `status` is that of something written as a stream: a FIFO, a character device,
    /// a socket.
    static func isStream(_ status: stat) -> Bool {
        [S_IFIFO, S_IFCHR, S_IFSOCK].contains(status.st_mode & S_IFMT)
    }

    /// Whether the path names a stream (``isStream(_:)``), following links.
    var isStream: Bool {
        var status = stat()
        return path != "-" && stat(path, &status) == 0 && Self.isStream(status)
    }

    private static func sameFile(_ a: String, _ b: String) -> Bool {
        let first = URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL.path
        let second = URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL.path
        return first == second
    }
}

/// An output made complete by one of `OutputDestination`'s `prepare(_:)` methods and not yet in place.
public final class PreparedOutput {
    /// Where it goes.
    public let destination: OutputDestination
    private let file: AtomicFileWriter.PreparedFile?
    private let standardOutput: Data?

    init(destination: OutputDestination, file: AtomicFileWriter.PreparedFile? = nil, standardOutput: Data? = nil) {
        self.destination = destination
        self.file = file
        self.standardOutput = standardOutput
    }

    /// Puts the output in place: renames the file over an existing one only with `--force`
    /// (atomically otherwise: a file another program made meanwhile is never replaced), or
    /// writes standard output or the stream (FIFO, device) the path names.
    ///
    /// - Throws: ``TripDocError/outputExists(path:)``, `FileWriteError` or
    ///   ``StandardOutputError``.
    public func commit() throws {
        guard let file else {
            if destination.path == "-" {
                try StandardOutput.write(standardOutput ?? Data())
            } else {
                try StandardOutput.write(standardOutput ?? Data(), intoStream: destination.path)
            }
            return
        }
        do {
            try file.commit(replacing: destination.force)
        } catch let error as FileWriteError where error.operation == .rename && error.code == EEXIST && !destination.force {
            throw TripDocError.outputExists(path: destination.path)
        }
    }

    /// Takes a committed output back where that is possible: a file this command created is
    /// removed (one it replaced with `--force` stays replaced). Used when a second output of
    /// the same command fails to commit, so that neither is left.
    public func withdraw() {
        file?.withdraw()
    }
}