import CWriteback

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls a save makes, gathered behind one protocol so that tests can make any of
/// them fail (a full disk, a read-only folder) without hoping for the real thing.
///
/// Each call returns what the C function returns and leaves the reason in `errno`.
public protocol FileSystemCalls: Sendable {
    /// The corresponding C function is `open`.
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// The corresponding C function is `write`.
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int
    /// The corresponding C function is `fsync`.
    func fsync(_ fd: Int32) -> Int32
    /// The corresponding C function is `fchmod`.
    func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32
    /// The corresponding C function is `close`.
    func close(_ fd: Int32) -> Int32
    /// The corresponding C function is `rename`.
    func rename(_ from: String, _ to: String) -> Int32
    /// The corresponding C function is `unlink`.
    func unlink(_ path: String) -> Int32
    /// Gives `from` the name `to` unless a file already has that name, which is then left
    /// alone (`EEXIST`): atomic, so of two callers only one succeeds. The corresponding C
    /// function is `renameat2` with `RENAME_NOREPLACE` on Linux, or `link` then `unlink` where
    /// the file system does not support it.
    func renameWithoutReplacing(_ from: String, _ to: String) -> Int32
    /// Asks the system to start writing `count` bytes of `fd` from `offset` to disk without
    /// waiting for them, so that the `fsync` at the end of a save has less left to wait for. A
    /// hint: a failure only means the `fsync` does all the work. The corresponding C function is
    /// `sync_file_range` with `SYNC_FILE_RANGE_WRITE` on Linux; elsewhere, and by default,
    /// nothing happens.
    func startWriteback(_ fd: Int32, offset: Int, count: Int) -> Int32
}

extension FileSystemCalls {
    public func startWriteback(_ fd: Int32, offset: Int, count: Int) -> Int32 { 0 }

    public func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 {
        #if os(Linux)
            if CWriteback_renameWithoutReplacing(from, to) == 0 { return 0 }
            guard errno == EINVAL || errno == ENOSYS else { return -1 }
        #endif
        // A file system without RENAME_NOREPLACE: a hard link fails with EEXIST as well.
        guard link(from, to) == 0 else { return -1 }
        _ = unlink(from)
        return 0
    }
}

/// The real system calls.
public struct SystemFileSystemCalls: FileSystemCalls {
    /// Creates the real system calls.
    public init() {}

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.open(path, flags, mode)
        #else
            Darwin.open(path, flags, mode)
        #endif
    }
    public func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.write(fd, buffer.baseAddress, buffer.count)
        #else
            Darwin.write(fd, buffer.baseAddress, buffer.count)
        #endif
    }
    public func fsync(_ fd: Int32) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.fsync(fd)
        #else
            Darwin.fsync(fd)
        #endif
    }
    public func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.fchmod(fd, mode)
        #else
            Darwin.fchmod(fd, mode)
        #endif
    }
    public func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.close(fd)
        #else
            Darwin.close(fd)
        #endif
    }
    public func rename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.rename(from, to)
        #else
            Darwin.rename(from, to)
        #endif
    }
    public func unlink(_ path: String) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Glibc.unlink(path)
        #else
            Darwin.unlink(path)
        #endif
    }
    public func startWriteback(_ fd: Int32, offset: Int, count: Int) -> Int32 {
        CWriteback_start(fd, Int64(offset), Int64(count))
    }
}
