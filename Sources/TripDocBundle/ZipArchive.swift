import CLibArchive
import Crypto
import Foundation
import TripDocCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place tripdoc calls libarchive: reading a zip archive's entries into memory under
/// limits, and writing an archive of given entries into memory (``archive(_:)``: what the tests
/// make archives with, and compare ``ZipWriter``'s bytes with; the bundle writer deflates its
/// entries itself, beside the writing, and writes the container with ``ZipWriter``).
///
/// libarchive checks nothing when entries are read into memory rather than extracted, so this
/// type does: it refuses absolute paths, `..` components, backslashes, symbolic links and
/// duplicate names, checks each entry's declared size and compression ratio (from the central
/// directory, ``ZipCentralDirectory``) before inflating it, and counts the bytes it inflates.
/// Only the zip format is enabled. Nothing is ever extracted: entries larger than
/// ``spillThreshold`` are inflated into unlinked temporary files, which vanish with the process.
enum ZipArchive {
    /// One file inside an archive.
    struct Entry: Equatable {
        var name: String
        var data: Data
        /// The SHA-256 digest of `data` in lowercase hex, when it was worked out as it was read.
        var digest: String?

        init(name: String, data: Data, digest: String? = nil) {
            self.name = name
            self.data = data
            self.digest = digest
        }
    }

    /// Entries that inflate to more than this are inflated into an unlinked temporary file,
    /// mapped (``ArrivingEntry``), so a bundle's large snapshot entries never sit in memory whole;
    /// the writer's deflated entries move to one past this size (``DeflatedEntry``).
    static let spillThreshold = 16 << 20

    /// The modification time of every entry: the Unix epoch. libarchive writes it as the DOS
    /// time 1980-01-01 00:00 (the earliest there is, whatever the time zone) and as 0 in the
    /// extended-timestamp field, so the bytes are the same on every machine; tools that read the
    /// extended field show 1970-01-01 in their local time.
    static let entryTime: time_t = 0

    // MARK: Writing

    /// A zip archive holding `entries` in order, deflated, with fixed times and permissions.
    static func archive(_ entries: [Entry]) throws -> Data {
        var bytes: [UInt8] = []
        try write(to: { bytes.append(contentsOf: $0) }) { writer in
            for entry in entries {
                try writer.add(entry.name, size: entry.data.count) { write in
                    try entry.data.withUnsafeBytes { try write($0) }
                }
            }
        }
        return Data(bytes)
    }

    /// Writes an archive to `sink`: `addEntries` adds the entries to the ``Writer`` it is given,
    /// which is then closed. When an entry turns out to deflate beyond the reader's
    /// compression-ratio cap, `addEntries` runs again on a new writer that stores that entry,
    /// and skips what the sink already has (``Writer``), so `addEntries` must add the same
    /// entries each time.
    static func write(to sink: @escaping DocumentByteSink, _ addEntries: (Writer) throws -> Void) throws {
        var storing: Set<String> = []
        var delivered = 0
        while true {
            let writer = try Writer(sink: sink, storing: storing, skipping: delivered)
            do {
                try addEntries(writer)
                try writer.close()
                return
            } catch let error as Writer.TooCompressible {
                storing.insert(error.name)
                delivered = writer.delivered
            }
        }
    }

    /// Writes a zip archive entry by entry, handing its bytes to a sink as libarchive makes
    /// them, so that no entry need be in memory whole.
    ///
    /// Every entry the reader holds to the compression-ratio cap (larger than
    /// ``ratioCheckThreshold``) is deflated under watch: its bytes are held back until there are
    /// enough of them for its ratio to pass the default cap (``DocumentLimits/standard``), and
    /// when the entry ends first (2 MiB of zeros deflate to 2 KiB), ``add(_:size:contents:)``
    /// throws ``TooCompressible`` having handed none of them on. The archive is then written
    /// again with that entry stored (``storing``), its first ``delivered`` bytes — the same
    /// ones, written again — skipped (``skipping``). So tripdoc never writes an entry its own
    /// reader refuses under the default limits.
    final class Writer {
        private let archive: OpaquePointer
        private let sink: DocumentByteSink
        /// The first error the sink threw, which libarchive only sees as a failed write.
        private var sinkError: Error?
        /// The names of the entries written stored, not deflated.
        private let storing: Set<String>
        /// How many bytes, from the start, are not handed on (an earlier attempt did).
        private var skipping: Int
        /// How many bytes of the archive have been handed on (or skipped), from the start.
        private(set) var delivered = 0
        /// The bytes of the entry under watch, held back, and how many it needs before its
        /// ratio is known to pass the cap.
        private var heldBack: [UInt8] = []
        private var watchedNeeds: Int?
        /// Whether the archive was given up: nothing more is handed on (freeing libarchive's
        /// writer would write a central directory).
        private var abandoned = false

        /// An entry whose deflated bytes would exceed the default compression-ratio cap.
        struct TooCompressible: Error {
            /// The entry's name.
            var name: String
        }

        /// Starts an archive whose bytes go to `sink`, with the entries `storing` names stored,
        /// and the first `skipping` bytes not handed on.
        init(sink: @escaping DocumentByteSink, storing: Set<String> = [], skipping: Int = 0) throws {
            guard let archive = archive_write_new() else { throw ZipArchiveError.libarchive("cannot start writing") }
            self.archive = archive
            self.sink = sink
            self.storing = storing
            self.skipping = skipping
            try check(archive_write_set_format_zip(archive), archive)
            // Names are UTF-8, and say so (general-purpose flag bit 11), whatever the locale.
            try check(archive_write_set_options(archive, "zip:hdrcharset=UTF-8"), archive)
            try check(archive_write_zip_set_compression_deflate(archive), archive)
            // No blocking: libarchive would otherwise pad the output to 10 KiB blocks.
            try check(archive_write_set_bytes_per_block(archive, 0), archive)
            try check(
                archive_write_open2(
                    archive, Unmanaged.passUnretained(self).toOpaque(), nil,
                    { _, context, buffer, length in
                        guard let context, let buffer else { return -1 }
                        let writer = Unmanaged<Writer>.fromOpaque(context).takeUnretainedValue()
                        do {
                            try writer.receive(UnsafeRawBufferPointer(start: buffer, count: length))
                        } catch {
                            writer.sinkError = writer.sinkError ?? error
                            return -1
                        }
                        return la_ssize_t(length)
                    }, nil, nil), archive)
        }

        deinit {
            abandoned = true
            archive_write_free(archive)
        }

        /// Bytes libarchive made: held back while an entry is under watch, skipped while an
        /// earlier attempt already handed them on, handed on otherwise.
        private func receive(_ bytes: UnsafeRawBufferPointer) throws {
            guard !abandoned else { return }
            if let needs = watchedNeeds {
                heldBack.append(contentsOf: bytes)
                if heldBack.count >= needs { try releaseHeldBack() }
                return
            }
            try handOn(bytes)
        }

        private func releaseHeldBack() throws {
            watchedNeeds = nil
            let bytes = heldBack
            heldBack = []
            try bytes.withUnsafeBytes { try handOn($0) }
        }

        private func handOn(_ bytes: UnsafeRawBufferPointer) throws {
            let skipped = min(skipping, bytes.count)
            skipping -= skipped
            delivered += bytes.count
            if skipped < bytes.count { try sink(UnsafeRawBufferPointer(rebasing: bytes[skipped...])) }
        }

        /// The bytes an entry of `size` bytes named `name` must take, header and data
        /// descriptor included, for its deflated data to be more than `size` divided by the
        /// default compression-ratio cap: the local header is at most 30 bytes, the name and
        /// 64 bytes of extra fields, and the data descriptor at most 24.
        private static func bytesNeeded(size: Int, name: String) -> Int {
            let cap = DocumentLimits.standard.maximumCompressionRatio
            return 30 + name.utf8.count + 64 + 24 + size / cap + 1
        }

        /// Adds the entry `name` of `size` bytes, which `contents` hands over in pieces.
        ///
        /// - Throws: ``TooCompressible`` when the entry deflates beyond the default
        ///   compression-ratio cap (none of its bytes were handed on: write the archive again
        ///   storing it), ``ZipArchiveError``, or what the sink or `contents` throw.
        func add(_ name: String, size: Int, contents: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
            let stored = storing.contains(name)
            if stored { try check(archive_write_zip_set_compression_store(archive), archive) }
            defer { if stored { _ = archive_write_zip_set_compression_deflate(archive) } }
            if !stored, size > ZipArchive.ratioCheckThreshold {
                heldBack.removeAll(keepingCapacity: true)
                watchedNeeds = Self.bytesNeeded(size: size, name: name)
            }
            guard let header = archive_entry_new() else { throw ZipArchiveError.libarchive("cannot make an entry") }
            defer { archive_entry_free(header) }
            archive_entry_set_pathname_utf8(header, name)
            archive_entry_set_size(header, la_int64_t(size))
            archive_entry_set_filetype(header, CLibArchive_regularFile())
            archive_entry_set_perm(header, 0o644)
            archive_entry_set_mtime(header, entryTime, 0)
            try checked(archive_write_header(archive, header))
            var total = 0
            try contents { piece in
                let written = archive_write_data(archive, piece.baseAddress, piece.count)
                guard written == piece.count else {
                    if let sinkError { throw sinkError }
                    throw ZipArchiveError.libarchive("writing \(name): \(ZipArchive.message(archive))")
                }
                total += piece.count
            }
            guard total == size else {
                throw ZipArchiveError.libarchive("writing \(name): \(total) bytes given for an entry of \(size)")
            }
            try checked(archive_write_finish_entry(archive))
            if watchedNeeds != nil {
                // Ended before its bytes showed a ratio within the cap: given up, none handed on.
                abandoned = true
                heldBack = []
                throw TooCompressible(name: name)
            }
        }

        /// Writes the central directory.
        func close() throws {
            try checked(archive_write_close(archive))
        }

        private func checked(_ status: Int32) throws {
            if status < ARCHIVE_WARN, let sinkError { throw sinkError }
            try check(status, archive)
        }
    }

    // MARK: Reading

    /// Entries that inflate to at most this many bytes may compress as well as they like.
    static let ratioCheckThreshold = 1 << 20

    /// Every regular file of the archive `data`, in archive order, checked against the
    /// entry-count, document-size and compression-ratio caps of `limits`.
    ///
    /// - Throws: ``ZipArchiveError`` naming the entry at fault.
    /// Entries `including` leaves out are not inflated (their sizes and names are still checked).
    static func entries(of data: Data, limits: DocumentLimits, including: (String) -> Bool = { _ in true }) throws -> [Entry] {
        var entries: [Entry] = []
        try inflate(data, limits: limits, including: including) { entry in
            entries.append(Entry(name: entry.name, data: try entry.contents(), digest: try entry.digest()))
        }
        return entries
    }

    /// Why ``inflate(_:limits:including:into:isStopped:inflated:)`` stopped: it was asked to.
    struct Stopped: Error {}

    /// Inflates the entries of the archive `data` that `including` selects, in archive order,
    /// each into the ``ArrivingEntry`` that `destination` makes from its central-directory
    /// record (by default a new one of its declared size), and hands each to `inflated` once all
    /// of it has arrived. Checks everything ``entries(of:limits:including:)`` promises; an entry
    /// that fails is ended with the error (``ArrivingEntry/fail(_:)``) before it is thrown.
    ///
    /// - Throws: ``ZipArchiveError`` naming the entry at fault, what `destination` or `inflated`
    ///   throw, or ``Stopped`` once `isStopped` (asked between pieces) says to stop.
    static func inflate(
        _ data: Data, limits: DocumentLimits, including: (String) -> Bool,
        into destination: (ZipCentralDirectory.Record) throws -> ArrivingEntry = {
            try ArrivingEntry(name: $0.name, declaredSize: $0.uncompressedSize)
        },
        isStopped: () -> Bool = { false }, inflated: (ArrivingEntry) throws -> Void
    ) throws {
        let directory = try ZipCentralDirectory(data)
        guard directory.records.count <= limits.maximumEntryCount else {
            throw ZipArchiveError.limitExceeded(
                entry: nil, .entryCount,
                limits.exceededMessage(.entryCount, subject: "the archive (\(directory.records.count) entries)"))
        }
        var declared: [String: ZipCentralDirectory.Record] = [:]
        var offsets: Set<Int> = []
        var total = 0
        for record in directory.records {
            try checkName(record.name)
            guard declared.updateValue(record, forKey: record.name) == nil else {
                throw ZipArchiveError.duplicateEntry(record.name)
            }
            guard offsets.insert(record.localHeaderOffset).inserted else {
                throw ZipArchiveError.damaged(entry: record.name, "two entries share one local header")
            }
            if record.isSymbolicLink { throw ZipArchiveError.symbolicLink(record.name) }
            let ratio = record.uncompressedSize / max(record.compressedSize, 1)
            let allowed = limits.maximumCompressionRatio.multipliedReportingOverflow(by: max(record.compressedSize, 1))
            if record.uncompressedSize > Self.ratioCheckThreshold, !allowed.overflow,
                record.uncompressedSize > allowed.partialValue
            {
                throw ZipArchiveError.limitExceeded(
                    entry: record.name, .compressionRatio,
                    limits.exceededMessage(.compressionRatio, subject: "the entry (\(ratio) times)"))
            }
            let sum = total.addingReportingOverflow(record.uncompressedSize)
            total = sum.partialValue
            guard total <= limits.maximumDocumentSize, total >= 0, !sum.overflow else {
                let size = total >= 0 && !sum.overflow ? "\(total) bytes" : "more than \(Int.max) bytes"
                throw ZipArchiveError.limitExceeded(
                    entry: record.name, .documentSize,
                    limits.exceededMessage(.documentSize, subject: "the sum of the entries' inflated sizes up to this one (\(size))"))
            }
        }

        // Each local header names and sizes its entry as the central directory does, or the
        // archive is refused before anything is inflated.
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for record in directory.records { try ZipLocalHeader.check(record, in: bytes) }
        }

        guard let archive = archive_read_new() else { throw ZipArchiveError.libarchive("cannot start reading") }
        defer { archive_read_free(archive) }
        try check(archive_read_support_format_zip(archive), archive)
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            try check(archive_read_open_memory(archive, bytes.baseAddress, bytes.count), archive)
            var last: String?
            var seen: Set<String> = []
            let inFileOrder = directory.records.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
            var ordinal = 0
            // Where a small entry is inflated, piece by piece, before it is kept.
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var header: OpaquePointer?
                let status = archive_read_next_header(archive, &header)
                if status == ARCHIVE_EOF { break }
                guard status >= ARCHIVE_WARN, let header else {
                    throw ZipArchiveError.damaged(entry: last.map { "after \($0)" }, message(archive))
                }
                // libarchive returns entries in the order of their local headers, so this is the
                // next central-directory record in that order; its local header, checked above,
                // names it as the record does. Its name is the record's, read as UTF-8 (libarchive
                // converts names to the C locale and gives up on non-ASCII ones).
                guard ordinal < inFileOrder.count else {
                    throw ZipArchiveError.damaged(
                        entry: last.map { "after \($0)" }, "an entry is not listed in the central directory")
                }
                let record = inFileOrder[ordinal]
                ordinal += 1
                let name = record.name
                last = name
                seen.insert(name)
                let type = archive_entry_filetype(header)
                if type == CLibArchive_symbolicLink() { throw ZipArchiveError.symbolicLink(name) }
                if type == CLibArchive_directory() {
                    try check(archive_read_data_skip(archive), archive)
                    continue
                }
                guard type == CLibArchive_regularFile() else { throw ZipArchiveError.notARegularFile(name) }
                guard including(name) else {
                    try check(archive_read_data_skip(archive), archive)
                    continue
                }
                let output = try destination(record)
                do {
                    try inflateEntry(archive, into: output, through: &chunk, isStopped: isStopped)
                } catch {
                    output.fail(error)
                    throw error
                }
                try inflated(output)
            }
            let missing = directory.records.filter { !$0.isDirectory && !seen.contains($0.name) }
            if let first = missing.first {
                throw ZipArchiveError.damaged(entry: first.name, "the entry could not be read")
            }
        }
    }

    /// Inflates the entry libarchive is at into `output`, and ends it: a small entry a piece at a
    /// time through `chunk`; a large one is hashed and kept on another thread while it inflates.
    private static func inflateEntry(
        _ archive: OpaquePointer, into output: ArrivingEntry, through chunk: inout [UInt8], isStopped: () -> Bool
    ) throws {
        let pipeline = output.declaredSize > spillThreshold ? BufferPipeline(consume: output.append) : nil
        /// Inflates the next piece into `buffer`: its size, 0 at the end.
        func inflate(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard !isStopped() else { throw Stopped() }
            let count = archive_read_data(archive, buffer.baseAddress, buffer.count)
            guard count >= 0 else { throw ZipArchiveError.damaged(entry: output.name, message(archive)) }
            return count
        }
        while true {
            let count: Int
            do {
                count = try pipeline?.fill(inflate) ?? chunk.withUnsafeMutableBytes(inflate)
            } catch {
                // A failure to keep an earlier piece comes first, as when pieces were kept in turn.
                try pipeline?.finish()
                throw error
            }
            if count == 0 { break }
            if pipeline == nil {
                try chunk.withUnsafeBytes { try output.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
        try pipeline?.finish()
        try output.finish()
    }

    /// Refuses names that could escape a folder or mean different things to different tools.
    static func checkName(_ name: String) throws {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        // Searched as bytes, not with Foundation's search for text, which was a tenth of
        // reading a bundle of 100,000 small entries.
        if name.isEmpty || name.hasPrefix("/") || name.utf8.contains(UInt8(ascii: "\\")) || name.utf8.contains(0)
            || components.dropLast().contains(where: \.isEmpty) || components.contains("..") || components.contains(".")
            || (name.count >= 2 && name.dropFirst().first == ":")
        {
            throw ZipArchiveError.unsafeName(name)
        }
        guard NameNormalization.isNFC(name) else { throw ZipArchiveError.unnormalizedName(name) }
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive reported an error"
    }

    private static func check(_ status: Int32, _ archive: OpaquePointer) throws {
        guard status >= ARCHIVE_WARN else { throw ZipArchiveError.libarchive(message(archive)) }
    }
}

/// Why an archive could not be read or written.
enum ZipArchiveError: Error, Equatable, CustomStringConvertible {
    case libarchive(String)
    case notAZipArchive(String)
    case damaged(entry: String?, String)
    case unsafeName(String)
    case unnormalizedName(String)
    case symbolicLink(String)
    case notARegularFile(String)
    case duplicateEntry(String)
    case limitExceeded(entry: String?, DocumentLimits.Cap, String)
    /// A large entry could not be kept aside in the temporary folder while it inflated (the
    /// folder is missing, full or not writable): the archive is not at fault.
    case temporaryFileFailed(entry: String, step: String, code: Int32)

    /// The entry the error is about, if one.
    var entry: String? {
        switch self {
        case .damaged(let entry, _), .limitExceeded(let entry, _, _): entry
        case .temporaryFileFailed(let entry, _, _): entry
        case .unsafeName(let name), .unnormalizedName(let name), .symbolicLink(let name), .notARegularFile(let name), .duplicateEntry(let name):
            name
        default: nil
        }
    }

    /// What to do about it, when it is not "the file is damaged".
    var hint: String? {
        if case .limitExceeded(_, let cap, _) = self { return cap.hint }
        if case .temporaryFileFailed = self {
            return "The bundle is not at fault: make room in the temporary folder, or point TMPDIR at a folder with room, and try again"
        }
        return nil
    }

    var description: String {
        switch self {
        case .libarchive(let message): "libarchive: \(message)"
        case .notAZipArchive(let reason): "this is not a readable zip archive: \(reason)"
        case .damaged(_, let message): "the archive is damaged: \(message)"
        case .unsafeName(let name):
            "the entry name '\(name)' is refused: absolute paths, '..' and '.' components, backslashes and drive letters could escape a folder"
        case .unnormalizedName(let name): NameNormalization.problem(with: name, what: "the entry name")
        case .symbolicLink: "the entry is a symbolic link, which a bundle never holds"
        case .notARegularFile: "the entry is not a regular file"
        case .duplicateEntry: "the archive holds two entries with this name"
        case .limitExceeded(_, _, let message): message
        case .temporaryFileFailed(_, let step, let code):
            "the entry is large, and \(step) in the temporary folder \(NSTemporaryDirectory()) to keep it aside failed: "
                + String(cString: strerror(code))
        }
    }
}
