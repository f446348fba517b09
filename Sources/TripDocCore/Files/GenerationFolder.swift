import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of files that are replaced all together: what a store that keeps one file per
/// entity (a folder of CSV files) needs so that a save changes every file or none, as
/// ``AtomicFileWriter`` does for one file.
///
/// The layout: the folder holds generations, `generation-N` (N a decimal number from 1), each a
/// complete set of the store's files, and a pointer file `current` whose text is the name of the
/// current generation and a line break (`generation-3\n`). A commit
/// (``commit(_:)``) writes every file into a new generation folder, flushes each file and the
/// new folder to disk, flushes the folder that holds it, and only then replaces `current`
/// atomically (temporary file, `fsync`, `rename`, `fsync` of the folder): the rename is the one
/// step that switches from the old set to the new, so after a crash or a failure at any point
/// the pointer names a generation that was complete on disk before the switch. The generation it
/// replaced is removed after the switch (kept when the folder could not be flushed after the
/// rename, in case the rename does not survive a power loss); a generation left by a commit that
/// failed or was killed is never current and is removed by the next commit.
///
/// Hold the folder's ``DocumentFileLock`` (`FOLDER.lock`, taken with the folder's path) around a
/// read and around a commit: a commit removes the generation it replaced, which a reader without
/// the lock might still be reading. The stamp of the pointer file (``pointerStamp()``) changes with
/// every commit: it is the folder's conflict check (``FileStamp/checkUnchanged(_:since:)``).
public struct GenerationFolder: Sendable {
    /// The folder, as the caller named it.
    public let path: String
    /// The system calls used for the files and folders written; tests substitute failing ones.
    public var calls: any FileSystemCalls

    /// The name of the pointer file inside the folder.
    public static let pointerName = "current"
    /// The prefix of every generation folder's name.
    public static let generationPrefix = "generation-"

    /// A generations folder at `path` (which need not exist yet; the first commit creates it).
    public init(path: String, calls: any FileSystemCalls = SystemFileSystemCalls()) {
        self.path = path
        self.calls = calls
    }

    /// The pointer file, `FOLDER/current`.
    public var pointerPath: String { (path as NSString).appendingPathComponent(Self.pointerName) }

    /// The stamp of the pointer file, which every commit replaces; `nil` before the first commit.
    public func pointerStamp() -> FileStamp? {
        FileStamp(path: pointerPath)
    }

    /// The folder of the current generation, whose files a reader reads; `nil` before the first
    /// commit.
    ///
    /// - Throws: ``GenerationFolderError`` when the pointer file cannot be read, does not name a
    ///   generation, or names one that is not there.
    public func currentGeneration() throws -> String? {
        guard let number = try currentNumber() else { return nil }
        return generationPath(number)
    }

    /// Writes a new generation, every file `produce` writes through its ``GenerationWriter``,
    /// and makes it current; returns its folder. When `produce` throws or any step fails before
    /// the switch, the new generation is removed and the current one stays as it was.
    ///
    /// - Throws: ``FileWriteError`` naming the file and the step that failed,
    ///   ``GenerationFolderError`` for an unreadable pointer, or what `produce` throws.
    @discardableResult
    public func commit(_ produce: (GenerationWriter) throws -> Void) throws -> String {
        try createFolderIfNeeded(path, parentToFlush: parent(of: path))
        let current = try currentNumber()
        // Generations other than the current one are left by failed or killed commits (or one
        // whose removal after its switch failed): with the lock held, nobody reads them.
        removeGenerations(except: current)
        let number = (current ?? 0) + 1
        let folder = generationPath(number)
        var switched = false
        defer { if !switched { Self.removeTree(folder) } }
        guard mkdir(folder, 0o777) == 0 else { throw FileWriteError(path: folder, operation: .createFolder, code: errno) }
        try produce(GenerationWriter(folder: folder, calls: calls))
        try flushFolder(folder, operation: .flushNewFolder)
        try flushFolder(path, operation: .flushNewFolder)
        // The switch: the pointer replaced atomically, the folder flushed after the rename.
        do {
            try AtomicFileWriter(calls: calls).write(Data((Self.generationPrefix + "\(number)\n").utf8), to: pointerPath)
        } catch let error as FileWriteError where error.operation == .flushFolder {
            // Renamed: the new generation is current, though the switch may not survive a
            // power loss.
            switched = true
            throw error
        }
        switched = true
        if let current { Self.removeTree(generationPath(current)) }
        return folder
    }

    /// Writes the files of one generation (``GenerationFolder/commit(_:)``).
    public final class GenerationWriter {
        /// The new generation's folder.
        public let folder: String
        let calls: any FileSystemCalls

        init(folder: String, calls: any FileSystemCalls) {
            self.folder = folder
            self.calls = calls
        }

        /// Writes `data` as the file `name` of the new generation, flushed to disk.
        ///
        /// - Throws: ``FileWriteError``.
        public func write(_ data: Data, toFileNamed name: String) throws {
            try write(toFileNamed: name) { output in try data.withUnsafeBytes { try output.write($0) } }
        }

        /// Writes the bytes `produce` hands its output as the file `name` of the new generation,
        /// flushed to disk. `name` is one file name, without `/`, and not `.` or `..`.
        ///
        /// - Throws: ``FileWriteError``, or what `produce` throws.
        public func write(toFileNamed name: String, _ produce: (AtomicFileWriter.Output) throws -> Void) throws {
            let file = (folder as NSString).appendingPathComponent(name)
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw FileWriteError(path: file, operation: .createTemporaryFile, code: EINVAL)
            }
            let fd = calls.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw FileWriteError(path: file, operation: .createTemporaryFile, code: errno) }
            var closed = false
            defer { if !closed { _ = calls.close(fd) } }
            try produce(AtomicFileWriter.Output(descriptor: fd, path: file, calls: calls))
            guard calls.fsync(fd) == 0 else { throw FileWriteError(path: file, operation: .flush, code: errno) }
            closed = true
            guard calls.close(fd) == 0 else { throw FileWriteError(path: file, operation: .close, code: errno) }
        }
    }

    private func generationPath(_ number: Int) -> String {
        (path as NSString).appendingPathComponent(Self.generationPrefix + "\(number)")
    }

    private func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The number of the generation the pointer names, `nil` when there is no pointer.
    private func currentNumber() throws -> Int? {
        guard let data = FileManager.default.contents(atPath: pointerPath) else {
            guard FileManager.default.fileExists(atPath: pointerPath) else { return nil }
            throw GenerationFolderError.unreadablePointer(path: pointerPath, reason: "it cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix(Self.generationPrefix), text.hasSuffix("\n"),
            let number = Int(text.dropFirst(Self.generationPrefix.count).dropLast()), number >= 1,
            String(number) == text.dropFirst(Self.generationPrefix.count).dropLast()
        else {
            throw GenerationFolderError.unreadablePointer(
                path: pointerPath, reason: "it does not hold '\(Self.generationPrefix)N' and a line break")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: generationPath(number), isDirectory: &isFolder), isFolder.boolValue else {
            throw GenerationFolderError.unreadablePointer(
                path: pointerPath, reason: "it names \(Self.generationPrefix)\(number), which is not there")
        }
        return number
    }

    private func createFolderIfNeeded(_ folder: String, parentToFlush: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw FileWriteError(path: folder, operation: .createFolder, code: ENOTDIR) }
            return
        }
        guard mkdir(folder, 0o777) == 0 else { throw FileWriteError(path: folder, operation: .createFolder, code: errno) }
        try flushFolder(parentToFlush, operation: .flushNewFolder)
    }

    private func flushFolder(_ folder: String, operation: FileWriteError.Operation) throws {
        let descriptor = calls.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard descriptor >= 0 else { throw FileWriteError(path: folder, operation: operation, code: errno) }
        defer { _ = calls.close(descriptor) }
        guard calls.fsync(descriptor) == 0 else { throw FileWriteError(path: folder, operation: operation, code: errno) }
    }

    private func removeGenerations(except kept: Int?) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(Self.generationPrefix) {
            if let kept, name == Self.generationPrefix + "\(kept)" { continue }
            Self.removeTree((path as NSString).appendingPathComponent(name))
        }
    }

    private static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Why a ``GenerationFolder`` cannot say which generation is current.
public enum GenerationFolderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pointer file cannot be read, or does not name a generation that is there.
    case unreadablePointer(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadablePointer(let path, let reason):
            "cannot tell the current generation from \(path): \(reason); it is written only by commits, "
                + "so restore it (or the folder) from a copy"
        }
    }
}
