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
    /// than the document-size limit before reading them.
    ///
    /// With `mapped`, a regular file is mapped into memory rather than read: its pages are
    /// read as they are used and belong to the system's file cache, so a document far larger
    /// than memory can be read in one pass. Only for files that are replaced, never rewritten
    /// in place, while mapped (as tripdoc writes them): a file truncated under the mapping
    /// stops the process.
    ///
    /// - Throws: ``FileReadError``, or ``DocumentReadError`` for a file over the limit.
    public static func contents(of path: String, limits: DocumentLimits = .standard, mapped: Bool = false) throws -> Data {
        if path == "-" {
            return try standardInput(limits: limits)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileReadError(path: path, reason: "it is a folder, not a document") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
            try limits.checkDocumentSize(size, file: path)
        }
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
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
    }

    /// Standard input to its end, in chunks, stopping as soon as it passes the document-size limit.
    private static func standardInput(limits: DocumentLimits) throws -> Data {
        var data = Data()
        while true {
            let chunk = FileHandle.standardInput.readData(ofLength: 1 << 20)
            if chunk.isEmpty { return data }
            data.append(chunk)
            try limits.checkDocumentSize(data.count, file: "-")
        }
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
}
