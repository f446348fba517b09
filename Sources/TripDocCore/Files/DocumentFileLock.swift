import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a document, held on a separate `NAME.lock` file beside it (a lock on the
/// document itself would be lost when a save renames a new file over it). tripdoc's stores hold
/// it from reading the document to renaming the new one, so two writers never interleave; a
/// custom store that takes it around its own read, change and write excludes them too, and they
/// it. A folder of files (``GenerationFolder``) is locked the same way, on `FOLDER.lock`.
///
/// The corresponding C function is `flock`; the lock is released when the lock is deallocated
/// (prefer ``withLock(onDocumentAt:_:)``, which releases it when its body returns), also when the
/// process dies. It is not reentrant: a second lock on the same document in the same process
/// waits for the first to be released.
public final class DocumentFileLock {
    private let descriptor: Int32

    /// The lock file of the document at `path`: `NAME.lock` beside the file the path finally
    /// names (symbolic links followed).
    public static func lockPath(forDocumentAt path: String) -> String {
        AtomicFileWriter.resolvingSymbolicLinks(path) + ".lock"
    }

    /// Blocks until the lock of the document at `path` is held. The document need not exist.
    ///
    /// - Throws: ``FileWriteError`` (operation ``FileWriteError/Operation/lock``) when the lock
    ///   file cannot be opened or locked, or is a symbolic link or not a regular file.
    public init(documentPath path: String) throws {
        let lockPath = Self.lockPath(forDocumentAt: path)
        // Read-only is enough for flock, and lets users without write access to the lock file
        // share it. Never through a symbolic link (one planted there would have the lock file
        // created wherever it points), and never anything but a regular file (opening a FIFO
        // would block).
        let descriptor = open(lockPath, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o666)
        guard descriptor >= 0 else { throw FileWriteError(path: lockPath, operation: .lock, code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileWriteError(path: lockPath, operation: .lock, code: EINVAL)
        }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            throw FileWriteError(path: lockPath, operation: .lock, code: code)
        }
        self.descriptor = descriptor
    }

    /// Runs `body` holding the lock of the document at `path`, and releases it when `body`
    /// returns or throws.
    ///
    /// - Throws: ``FileWriteError`` when the lock cannot be taken, or what `body` throws.
    @discardableResult
    public static func withLock<Result>(onDocumentAt path: String, _ body: () throws -> Result) throws -> Result {
        let lock = try DocumentFileLock(documentPath: path)
        return try withExtendedLifetime(lock) { try body() }
    }

    deinit {
        close(descriptor)
    }
}
