import CLibArchive
import Crypto
import Foundation
import TripDocCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one place tripdoc calls libarchive: writing a zip archive into memory, and reading one's
/// entries into memory under limits.
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
    /// the writer's spools move to one past this size (``HashedSpool``).
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
        let writer = try Writer { bytes.append(contentsOf: $0) }
        for entry in entries {
            try writer.add(entry.name, size: entry.data.count) { write in
                try entry.data.withUnsafeBytes { try write($0) }
            }
        }
        try writer.close()
        return Data(bytes)
    }

    /// Writes a zip archive entry by entry, handing its bytes to a sink as libarchive makes
    /// them, so that no entry need be in memory whole.
    final class Writer {
        private let archive: OpaquePointer
        private let sink: DocumentByteSink
        /// The first error the sink threw, which libarchive only sees as a failed write.
        private var sinkError: Error?

        /// Starts an archive whose bytes go to `sink`.
        init(sink: @escaping DocumentByteSink) throws {
            guard let archive = archive_write_new() else { throw ZipArchiveError.libarchive("cannot start writing") }
            self.archive = archive
            self.sink = sink
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
                            try writer.sink(UnsafeRawBufferPointer(start: buffer, count: length))
                        } catch {
                            writer.sinkError = writer.sinkError ?? error
                            return -1
                        }
                        return la_ssize_t(length)
                    }, nil, nil), archive)
        }

        deinit { archive_write_free(archive) }

        /// Adds the entry `name` of `size` bytes, which `contents` hands over in pieces.
        func add(_ name: String, size: Int, contents: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
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
            total = total.addingReportingOverflow(record.uncompressedSize).partialValue
            guard total <= limits.maximumDocumentSize, total >= 0 else {
                throw ZipArchiveError.limitExceeded(
                    entry: record.name, .documentSize,
                    limits.exceededMessage(.documentSize, subject: "the entries, inflated up to this one,"))
            }
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
                // next central-directory record in that order. Its name is taken from there as
                // UTF-8: libarchive converts names to the C locale and gives up on non-ASCII ones.
                guard ordinal < inFileOrder.count else {
                    throw ZipArchiveError.damaged(
                        entry: last.map { "after \($0)" }, "an entry is not listed in the central directory")
                }
                let record = inFileOrder[ordinal]
                ordinal += 1
                let name = record.name
                last = name
                if let raw = archive_entry_pathname(header).map({ String(cString: $0) }), raw != name {
                    throw ZipArchiveError.damaged(
                        entry: name, "its local header names it '\(raw)', unlike the central directory")
                }
                if archive_entry_size_is_set(header) != 0, Int(archive_entry_size(header)) != record.uncompressedSize {
                    throw ZipArchiveError.damaged(entry: name, "its local header and the central directory disagree on its size")
                }
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
        if name.isEmpty || name.hasPrefix("/") || name.contains("\\") || name.contains("\0")
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

    /// The entry the error is about, if one.
    var entry: String? {
        switch self {
        case .damaged(let entry, _), .limitExceeded(let entry, _, _): entry
        case .unsafeName(let name), .unnormalizedName(let name), .symbolicLink(let name), .notARegularFile(let name), .duplicateEntry(let name):
            name
        default: nil
        }
    }

    /// What to do about it, when it is not "the file is damaged".
    var hint: String? {
        if case .limitExceeded(_, let cap, _) = self { return cap.hint }
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
        }
    }
}
