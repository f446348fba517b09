import CMappedFile
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a document file's bytes, with errors that name the file and say why.
public enum DocumentFileReader {
    /// The bytes of the file at `path`, or of standard input when `path` is `-`, refusing more
    /// than the document-size limit before reading them. A path that names a FIFO, a device
    /// (`/dev/stdin`) or a process substitution is read as a stream, as standard input is.
    ///
    /// With `mapped`, a regular file is mapped into memory rather than read: its pages are
    /// read as they are used and belong to the system's file cache, so a document far larger
    /// than memory can be read in one pass. A file that shrinks while it is mapped (rewritten in
    /// place, truncated) does not stop the process: the pages past its new end read as zeros
    /// (CMappedFile's SIGBUS handler). Read mapped bytes inside ``reading(_:path:_:)``, which
    /// then reports the change instead of what was read.
    ///
    /// - Throws: ``FileReadError``, or ``DocumentReadError`` for a file over the limit.
    public static func contents(of path: String, limits: DocumentLimits = .standard, mapped: Bool = false) throws -> Data {
        if path == "-" {
            return try stream(STDIN_FILENO, path: path, limits: limits)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FileReadError(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw FileReadError(path: path, reason: "it is a folder, not a document") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            // A FIFO, /dev/stdin, a process substitution (<(…)), a device: read as a stream, as
            // standard input is.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            return try stream(fd, path: path, limits: limits)
        }
        try limits.checkDocumentSize(Int(status.st_size), file: path)
        if mapped, let data = try mappedContents(of: path) { return data }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .uncached)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw FileReadError(path: path, reason: reason)
        }
    }

    /// The file mapped read-only, or `nil` when it is not a regular file that can be mapped
    /// (it is then read).
    private static func mappedContents(of path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        var kept = false
        defer { if !kept { close(fd) } }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        // The file stays open with the mapping, so that its size can be checked after reading.
        guard CMappedFile_register(address, size, fd) == 0 else {
            _ = munmap(address, size)
            return nil
        }
        kept = true
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return Data(
            bytesNoCopy: address, count: size,
            deallocator: .custom { pointer, count in
                CMappedFile_unregister(pointer)
                _ = munmap(pointer, count)
                close(fd)
            })
    }

    /// Runs `body`, which reads `data` (bytes from ``contents(of:limits:mapped:)`` of `path`),
    /// and returns what it returns — unless the file shrank while it was mapped and read: then
    /// whatever `body` made of the zeros that replaced the lost bytes (a document, or an error)
    /// is dropped and a ``FileReadError`` says what happened. Bytes that are not a mapping pass
    /// through unchecked.
    ///
    /// - Throws: ``FileReadError`` when the file shrank, otherwise what `body` throws.
    public static func reading<T>(_ data: Data, path: String, _ body: () throws -> T) throws -> T {
        func shrank() -> Bool {
            data.withUnsafeBytes { $0.baseAddress.map { CMappedFile_shrank($0) != 0 } ?? false }
        }
        let result: T
        do {
            result = try body()
        } catch {
            if shrank() { throw FileReadError.shrankWhileRead(path: path) }
            throw error
        }
        if shrank() { throw FileReadError.shrankWhileRead(path: path) }
        return result
    }

    /// What `fd` (standard input, a FIFO, a device) gives until its end, a megabyte at a time,
    /// stopping as soon as it passes the document-size limit. The bytes are kept aside in an
    /// ``UnlinkedTemporaryFile`` and mapped, not gathered in memory: a stream that never ends
    /// costs the temporary folder up to the limit, and memory a megabyte.
    private static func stream(_ fd: Int32, path: String, limits: DocumentLimits) throws -> Data {
        let name = path == "-" ? "standard input" : path
        let file: UnlinkedTemporaryFile
        do {
            file = try UnlinkedTemporaryFile()
        } catch let failure as UnlinkedTemporaryFile.Failure {
            throw FileReadError(path: name, reason: "it is a stream, kept aside while it is read, and \(failure) in \(NSTemporaryDirectory())")
        }
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { piece.deallocate() }
        var size = 0
        while true {
            let count = read(fd, piece.baseAddress, piece.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: name, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            size += count
            try limits.checkDocumentSize(size, file: path)
            do {
                try file.append(UnsafeRawBufferPointer(rebasing: piece[0..<count]))
            } catch let failure as UnlinkedTemporaryFile.Failure {
                throw FileReadError(path: name, reason: "it is a stream, kept aside while it is read, and \(failure) in \(NSTemporaryDirectory())")
            }
        }
        guard size > 0 else { return Data() }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.descriptor, 0), address != MAP_FAILED else {
            throw FileReadError(path: name, reason: "mapping what it gave failed: \(String(cString: strerror(errno)))")
        }
        return Data(
            bytesNoCopy: address, count: size,
            deallocator: .custom { pointer, count in
                _ = munmap(pointer, count)
                withExtendedLifetime(file) {}
            })
    }
}

/// A file that could not be read at all.
public struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var path: String
    /// Why it could not be read.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }

    /// The file at `path` shrank while it was read (rewritten in place or truncated by another
    /// program).
    public static func shrankWhileRead(path: String) -> FileReadError {
        FileReadError(
            path: path,
            reason: "the file shrank while it was being read (another program rewrote or truncated it); "
                + "nothing was written: read it again once it is no longer being changed")
    }
}
