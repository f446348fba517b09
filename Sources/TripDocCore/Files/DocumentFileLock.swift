import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a document, held on a separate `NAME.lock` file beside it (a lock on the
/// document itself would be lost when a save renames a new file over it). Saves hold it from
/// reading the document to renaming the new one, so two writers never interleave.
///
/// The corresponding C function is `flock`; the lock is released when the file is closed, also
/// when the process dies.
final class DocumentFileLock {
    private let descriptor: Int32

    /// Blocks until the lock of the document at `path` is held.
    ///
    /// - Throws: ``FileWriteError`` when the lock file cannot be opened or locked.
    init(documentPath path: String) throws {
        let lockPath = AtomicFileWriter.resolvingSymbolicLinks(path) + ".lock"
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

    deinit {
        close(descriptor)
    }
}

/// What identifies one version of a document file: a save renames a new file over the old, so
/// the inode changes with every save, and the size and time with most.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int64

    /// The stamp of the file `path` finally names, or `nil` when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(AtomicFileWriter.resolvingSymbolicLinks(path), &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
    }
}
