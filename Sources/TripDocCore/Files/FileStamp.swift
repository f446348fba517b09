import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What identifies one version of a file: an atomic save renames a new file over the old, so the
/// inode changes with every save, and the size and time with most. The conflict check of
/// tripdoc's stores, for a custom store's files too: take the stamp *before* reading the file,
/// and before writing, holding the document's ``DocumentFileLock``, call
/// ``checkUnchanged(_:since:)``; a stamp that differs means another store or process saved in
/// between (a save between taking the stamp and reading can only cause a needless conflict,
/// never a lost update).
public struct FileStamp: Hashable, Sendable, CustomStringConvertible {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode number; a file renamed over the old one has another.
    public var inode: UInt64
    /// The file's size in bytes.
    public var size: Int64
    /// The file's modification time, whole seconds since 1970.
    public var modified: Int64
    /// The nanoseconds of the file's modification time.
    public var modifiedNanoseconds: Int64

    /// The stamp of the file `path` finally names (symbolic links followed), or `nil` when there
    /// is none.
    public init?(path: String) {
        var status = stat()
        guard stat(AtomicFileWriter.resolvingSymbolicLinks(path), &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
    }

    /// Throws ``FileChangedError`` unless the file at `path` is still the version `stamp`
    /// describes (`nil`: that there was no file, and there still is none).
    public static func checkUnchanged(_ path: String, since stamp: FileStamp?) throws {
        guard FileStamp(path: path) == stamp else { throw FileChangedError(path: path) }
    }

    /// The stamp as `device:inode size bytes, modified SECONDS.NANOSECONDS`.
    public var description: String {
        "\(device):\(inode) \(size) bytes, modified \(modified).\(modifiedNanoseconds)"
    }
}

/// A file changed on disk since the store that was about to write it last read it: another
/// store or process saved in between, and writing would lose its changes.
public struct FileChangedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file that changed.
    public var path: String

    /// Creates an error for the file `path`.
    public init(path: String) {
        self.path = path
    }

    public var description: String {
        "\(path) changed on disk since this store last read it (another store or process saved); "
            + "nothing was written: read it again, reapply the changes and save"
    }
}
