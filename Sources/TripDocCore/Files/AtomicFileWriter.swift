import CInterruptCleanup
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents all at once: readers see the old bytes or the new ones, never a mix,
/// and a failed write leaves the old file as it was.
///
/// The protocol: write a temporary file in the same folder (asking the system to start writing
/// each megabyte to disk as it comes), `fsync` it, give it the original's
/// permissions (and its owner and group where the process may set them), `rename` it over the
/// original, `fsync` the folder. A symbolic link is followed, so the link stays a link and its
/// target gets the new contents; a loop of links is refused (`ELOOP`) rather than replaced. The
/// file is never truncated in place.
public struct AtomicFileWriter: Sendable {
    /// The system calls used; tests substitute failing ones.
    public var calls: any FileSystemCalls

    /// The marker in the name of temporary files, `.NAME.tripdoc-tmp-PID-RANDOM`.
    public static let temporaryMarker = ".tripdoc-tmp-"

    /// Creates a writer over `calls`.
    public init(calls: any FileSystemCalls = SystemFileSystemCalls()) {
        self.calls = calls
    }

    /// Writes `data` to `path` atomically.
    ///
    /// - Throws: ``FileWriteError`` naming the file and the step that failed.
    public func write(_ data: Data, to path: String) throws {
        try write(to: path) { output in
            try data.withUnsafeBytes { try output.write($0) }
        }
    }

    /// Writes the bytes `produce` hands to its ``Output`` to `path` atomically, so a document
    /// can be written piece by piece without ever being whole in memory. When `produce` throws,
    /// the temporary file is removed and `path` is left as it was. Without `replacing`, a file
    /// at `path` is never replaced, not even one another program creates while this one writes:
    /// the write then fails with `EEXIST` and leaves it alone.
    ///
    /// - Throws: ``FileWriteError`` naming the file and the step that failed, or what `produce`
    ///   throws.
    public func write(to path: String, replacing: Bool = true, _ produce: (Output) throws -> Void) throws {
        try prepare(to: path, produce).commit(replacing: replacing)
    }

    /// Writes what `produce` hands its ``Output`` into a temporary file beside `path`, flushed
    /// to disk, that replaces `path` only when the returned ``PreparedFile`` is committed: two
    /// files written together (a document and its remap table) are committed one after the
    /// other once both are complete, or neither is. A prepared file that is never committed is
    /// removed.
    ///
    /// - Throws: ``FileWriteError`` naming the file and the step that failed, or what `produce`
    ///   throws (the temporary file is then removed).
    public func prepare(to path: String, _ produce: (Output) throws -> Void) throws -> PreparedFile {
        let target = Self.resolvingSymbolicLinks(path)
        var linkStatus = stat()
        if lstat(target, &linkStatus) == 0, linkStatus.st_mode & S_IFMT == S_IFLNK {
            // Still a link after 40 of them: a loop, which a rename would replace.
            throw FileWriteError(path: path, operation: .createTemporaryFile, code: ELOOP)
        }
        let folder = (target as NSString).deletingLastPathComponent.isEmpty
            ? "." : (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        Self.removeStaleTemporaryFiles(besides: path)
        let temporary = (folder as NSString).appendingPathComponent(
            ".\(name)\(Self.temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")

        var status = stat()
        let original = stat(target, &status) == 0 ? status : nil
        let originalMode: mode_t? = original.map { $0.st_mode & 0o7777 }

        // Created with the final permissions, so a private document is never readable by others,
        // not even while its temporary copy is written.
        let fd = calls.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, originalMode ?? 0o666)
        guard fd >= 0 else { throw FileWriteError(path: path, operation: .createTemporaryFile, code: errno) }
        // Removed if the process is interrupted before the file is in place (in programs that
        // call ``removeTemporaryFilesOnInterruption()``).
        let interruptionSlot = CInterruptCleanup_remember(temporary)
        var closed = false
        var prepared = false
        defer {
            if !closed { _ = calls.close(fd) }
            if !prepared {
                _ = calls.unlink(temporary)
                CInterruptCleanup_forget(interruptionSlot)
            }
        }
        // The original's owner and group too, where the process may give them (root, or a group
        // it belongs to); otherwise the new file is the writer's, as any new file would be.
        if let original, original.st_uid != geteuid() || original.st_gid != getegid() {
            _ = fchown(fd, original.st_uid, original.st_gid)
        }
        try produce(Output(descriptor: fd, path: path, calls: calls))
        if let originalMode, calls.fchmod(fd, originalMode) != 0 {
            throw FileWriteError(path: path, operation: .setPermissions, code: errno)
        }
        guard calls.fsync(fd) == 0 else { throw FileWriteError(path: path, operation: .flush, code: errno) }
        closed = true
        guard calls.close(fd) == 0 else { throw FileWriteError(path: path, operation: .close, code: errno) }
        prepared = true
        return PreparedFile(
            path: path, target: target, folder: folder, temporary: temporary, calls: calls, interruptionSlot: interruptionSlot)
    }

    /// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files of the writes in progress
    /// before they end the process as they otherwise would (signals the process ignores stay
    /// ignored). For programs, such as the `tripdoc` tool, to call once at start; a process that
    /// is killed (SIGKILL) leaves its temporary file, which the next write beside it removes
    /// (``removeStaleTemporaryFiles(besides:)``).
    public static func removeTemporaryFilesOnInterruption() {
        CInterruptCleanup_install()
    }

    /// A complete temporary file, flushed to disk, waiting to replace its document
    /// (``AtomicFileWriter/prepare(to:_:)``).
    public final class PreparedFile {
        /// The file as the caller named it.
        public let path: String
        let target: String
        let folder: String
        let temporary: String
        let calls: any FileSystemCalls
        let interruptionSlot: Int32
        private var settled = false
        /// Whether ``commit(replacing:)`` gave the file a name no file had (so that taking it
        /// back loses nothing).
        private var createdNewFile = false

        init(
            path: String, target: String, folder: String, temporary: String, calls: any FileSystemCalls,
            interruptionSlot: Int32
        ) {
            self.interruptionSlot = interruptionSlot
            self.path = path
            self.target = target
            self.folder = folder
            self.temporary = temporary
            self.calls = calls
        }

        deinit { discard() }

        /// Puts the file in place: renamed over the document when `replacing`, otherwise
        /// linked to its name only if no file has that name (atomically: of two writers, one
        /// fails with `EEXIST`), then the folder is flushed to disk.
        ///
        /// - Throws: ``FileWriteError``; the temporary file is then removed.
        public func commit(replacing: Bool = true) throws {
            precondition(!settled, "a prepared file is committed or discarded once")
            defer { discard() }
            if replacing {
                var status = stat()
                let existed = lstat(target, &status) == 0
                guard calls.rename(temporary, target) == 0 else {
                    throw FileWriteError(path: path, operation: .rename, code: errno)
                }
                createdNewFile = !existed
            } else {
                guard calls.renameWithoutReplacing(temporary, target) == 0 else {
                    throw FileWriteError(path: path, operation: .rename, code: errno)
                }
                createdNewFile = true
            }
            settled = true
            CInterruptCleanup_forget(interruptionSlot)
            let folderDescriptor = calls.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            guard folderDescriptor >= 0 else { throw FileWriteError(path: path, operation: .flushFolder, code: errno) }
            defer { _ = calls.close(folderDescriptor) }
            guard calls.fsync(folderDescriptor) == 0 else {
                throw FileWriteError(path: path, operation: .flushFolder, code: errno)
            }
        }

        /// Takes back a committed file that did not exist before: what a caller does when a
        /// second file that belongs with this one fails to commit. A file that replaced another
        /// stays; an uncommitted one is discarded.
        public func withdraw() {
            discard()
            if createdNewFile {
                _ = calls.unlink(target)
                createdNewFile = false
            }
        }

        /// Removes the temporary file, leaving the document as it was (nothing once committed).
        public func discard() {
            guard !settled else { return }
            settled = true
            _ = calls.unlink(temporary)
            CInterruptCleanup_forget(interruptionSlot)
        }
    }

    /// The open temporary file of an atomic write.
    public final class Output {
        let descriptor: Int32
        /// The file being written, as the caller named it.
        public let path: String
        let calls: any FileSystemCalls
        /// How many bytes have been written.
        public private(set) var count = 0
        /// How many bytes, from the start, the system was asked to start writing to disk.
        private var writtenBack = 0
        /// How many bytes are written between two requests to start writing them to disk
        /// (``FileSystemCalls/startWriteback(_:offset:count:)``): a large document's bytes go to
        /// disk while the rest is being made, instead of all in the closing `fsync`.
        public static let writebackStep = 1 << 20

        init(descriptor: Int32, path: String, calls: any FileSystemCalls) {
            self.descriptor = descriptor
            self.path = path
            self.calls = calls
        }

        /// Appends `bytes` to the file.
        ///
        /// - Throws: ``FileWriteError`` (`ENOSPC` when the disk is full).
        public func write(_ bytes: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < bytes.count {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<min(bytes.count, offset + (1 << 24))])
                let written = calls.write(descriptor, chunk)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileWriteError(path: path, operation: .write, code: errno)
                }
                if written == 0 { throw FileWriteError(path: path, operation: .write, code: ENOSPC) }
                offset += written
            }
            count += bytes.count
            if count - writtenBack >= Self.writebackStep {
                // Ignored when it fails: the fsync at the end writes whatever is left.
                _ = calls.startWriteback(descriptor, offset: writtenBack, count: count - writtenBack)
                writtenBack = count
            }
        }

        /// Appends `bytes` to the file.
        public func write(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try write($0) }
        }
    }

    /// Removes temporary files that writers which are no longer running left beside `path`
    /// (`.NAME.tripdoc-tmp-PID-RANDOM`, whose process `PID` no longer exists): a crashed save or
    /// a killed conversion. The temporary file of a write in progress, in this process or
    /// another, is left alone, so this needs no lock; every write calls it first. Processes are
    /// looked up in this process's PID namespace: a file left by a writer in another container
    /// sharing the folder stays while a process of this one has its number.
    public static func removeStaleTemporaryFiles(besides path: String) {
        let target = resolvingSymbolicLinks(path)
        let folder = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        let prefix = "." + (target as NSString).lastPathComponent + temporaryMarker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            // A process that exists (kill answers, or refuses for lack of permission) may be
            // writing it; only a writer that is gone cannot.
            guard let pid = pid_t(name.dropFirst(prefix.count).prefix(while: { $0 != "-" })), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            _ = unlink((folder as NSString).appendingPathComponent(name))
        }
    }

    /// The file a path finally names: the target of a chain of symbolic links (relative links
    /// resolved against their folder), or the path itself.
    static func resolvingSymbolicLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            current = destination.hasPrefix("/")
                ? destination
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        return current
    }
}

/// A write that failed, with the file, the step and the system's reason.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The steps of an atomic write.
    public enum Operation: String, Sendable {
        case createTemporaryFile = "creating the temporary file"
        case write = "writing the temporary file"
        case setPermissions = "setting the temporary file's permissions"
        case flush = "flushing the temporary file to disk"
        case close = "closing the temporary file"
        case rename = "renaming the temporary file over the document"
        case flushFolder = "flushing the folder to disk"
        case lock = "locking the document's lock file"
        case appendJournal = "appending the save to the journal"
        case removeJournal = "removing the journal folded into the document"
        case createFolder = "creating the folder"
        case flushNewFolder = "flushing the new files' folder to disk"

        /// Whether the document still holds its old contents after a failure at this step.
        public var leavesOriginalIntact: Bool { self != .flushFolder && self != .removeJournal }
    }

    /// The file being written, as the user named it.
    public var path: String
    /// The step that failed.
    public var operation: Operation
    /// The `errno` value.
    public var code: Int32

    /// Creates an error.
    public init(path: String, operation: Operation, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String {
        if operation == .lock, code == ELOOP || code == EINVAL {
            return "could not save: the lock file \(path) is "
                + (code == ELOOP ? "a symbolic link" : "not a regular file")
                + ", which tripdoc never opens as its lock; remove it (the document was left as it was)"
        }
        let reason = String(cString: strerror(code))
        let outcome =
            operation.leavesOriginalIntact
            ? "the file was left as it was" : "the new contents are in place but may not survive a power loss"
        return "could not save \(path): \(operation.rawValue) failed: \(reason) (\(outcome))"
    }
}
