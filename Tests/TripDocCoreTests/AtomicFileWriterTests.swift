import Foundation
import Testing
import TripDocCore
import TripDocTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// System calls that fail at one chosen step, as a full disk or a read-only folder would.
struct FailingCalls: FileSystemCalls {
    enum Step { case open, write, fsync, rename }
    let failing: Step
    let code: Int32
    let real = SystemFileSystemCalls()

    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        if failing == .open { errno = code; return -1 }
        return real.open(path, flags, mode)
    }
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        if failing == .write {
            _ = real.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(3)))
            errno = code
            return -1
        }
        return real.write(fd, buffer)
    }
    func fsync(_ fd: Int32) -> Int32 {
        if failing == .fsync { errno = code; return -1 }
        return real.fsync(fd)
    }
    func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { real.fchmod(fd, mode) }
    func close(_ fd: Int32) -> Int32 { real.close(fd) }
    func rename(_ from: String, _ to: String) -> Int32 {
        if failing == .rename { errno = code; return -1 }
        return real.rename(from, to)
    }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
}

/// The real system calls, recording the requests to start writing to disk, and failing them
/// when asked to.
final class WritebackRecordingCalls: FileSystemCalls, @unchecked Sendable {
    let real = SystemFileSystemCalls()
    let failsWriteback: Bool
    private let lock = NSLock()
    private var recorded: [Range<Int>] = []

    init(failsWriteback: Bool = false) { self.failsWriteback = failsWriteback }

    /// The byte ranges the system was asked to start writing, in order.
    var requests: [Range<Int>] { lock.withLock { recorded } }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { real.open(path, flags, mode) }
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int { real.write(fd, buffer) }
    func fsync(_ fd: Int32) -> Int32 { real.fsync(fd) }
    func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { real.fchmod(fd, mode) }
    func close(_ fd: Int32) -> Int32 { real.close(fd) }
    func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
    func startWriteback(_ fd: Int32, offset: Int, count: Int) -> Int32 {
        lock.withLock { recorded.append(offset..<offset + count) }
        if failsWriteback { errno = EINVAL; return -1 }
        return real.startWriteback(fd, offset: offset, count: count)
    }
}

@Suite struct AtomicFileWriterTests {
    let scratch: ScratchFolder
    var folder: String { scratch.path }

    init() throws {
        scratch = try ScratchFolder("atomic")
    }

    func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    func folderEntries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test func replacesTheContents() throws {
        let path = folder + "/doc.json"
        try AtomicFileWriter().write(Data("old".utf8), to: path)
        try AtomicFileWriter().write(Data("new".utf8), to: path)
        #expect(try contents(path) == "new")
        #expect(try folderEntries() == ["doc.json"])
    }

    @Test(arguments: [
        (FailingCalls.Step.open, EACCES, FileWriteError.Operation.createTemporaryFile),
        (.write, ENOSPC, .write),
        (.fsync, EIO, .flush),
        (.rename, EROFS, .rename),
    ])
    func aFailingStepLeavesTheOldFileIntactAndNoTemporaryFile(
        step: FailingCalls.Step, code: Int32, operation: FileWriteError.Operation
    ) throws {
        let path = folder + "/doc.json"
        try AtomicFileWriter().write(Data("old contents".utf8), to: path)
        let writer = AtomicFileWriter(calls: FailingCalls(failing: step, code: code))
        #expect(throws: FileWriteError(path: path, operation: operation, code: code)) {
            try writer.write(Data("new contents".utf8), to: path)
        }
        #expect(try contents(path) == "old contents")
        #expect(try folderEntries() == ["doc.json"])
    }

    @Test func theErrorSaysWhichFileAndStepAndThatTheFileIsUnchanged() {
        let error = FileWriteError(path: "trips.json", operation: .write, code: ENOSPC)
        #expect(
            error.description
                == "could not save trips.json: writing the temporary file failed: No space left on device (the file was left as it was)")
    }

    /// Writes `pieces` pieces of 100,000 bytes (each filled with its number) through `calls`.
    func writePieces(_ pieces: Int, to path: String, calls: WritebackRecordingCalls) throws {
        try AtomicFileWriter(calls: calls).write(to: path) { output in
            for piece in 0..<pieces {
                try output.write([UInt8](repeating: UInt8(piece % 256), count: 100_000))
            }
        }
    }

    @Test func asksTheSystemToStartWritingEachStepOfALargeFileAsItGrows() throws {
        let path = folder + "/large.json"
        let calls = WritebackRecordingCalls()
        try writePieces(55, to: path, calls: calls)  // 5.5 million bytes
        let step = AtomicFileWriter.Output.writebackStep
        let requests = calls.requests
        // Back to back from the start, each as soon as a step's worth is written, none past the end.
        #expect(requests.first?.lowerBound == 0)
        #expect(zip(requests, requests.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(requests.allSatisfy { $0.count >= step && $0.count < step + 100_000 })
        #expect((requests.last?.upperBound ?? 0) > 5_500_000 - step - 100_000)
        #expect((requests.last?.upperBound ?? .max) <= 5_500_000)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == 5_500_000)
        #expect(written[5_499_999] == 54)
    }

    @Test func aSmallFileIsLeftToTheFinalFlush() throws {
        let calls = WritebackRecordingCalls()
        try writePieces(3, to: folder + "/small.json", calls: calls)
        #expect(calls.requests.isEmpty)
    }

    @Test func aRefusedWritebackRequestDoesNotFailTheSave() throws {
        let path = folder + "/refused.json"
        let calls = WritebackRecordingCalls(failsWriteback: true)
        try writePieces(30, to: path, calls: calls)
        #expect(!calls.requests.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 3_000_000)
        #expect(try folderEntries() == ["refused.json"])
    }

    #if os(Linux)
        /// The real call is made (a pipe cannot be written back; a file can).
        @Test func theSystemsWritebackRequestReachesTheKernel() throws {
            let calls = SystemFileSystemCalls()
            let path = folder + "/hint.json"
            let fd = calls.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            try #require(fd >= 0)
            defer { _ = calls.close(fd) }
            _ = [UInt8](repeating: 1, count: 8192).withUnsafeBytes { calls.write(fd, $0) }
            #expect(calls.startWriteback(fd, offset: 0, count: 8192) == 0)
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer { _ = calls.close(ends[0]); _ = calls.close(ends[1]) }
            #expect(calls.startWriteback(ends[1], offset: 0, count: 1) == -1)
            #expect(errno == ESPIPE)
        }
    #endif

    @Test func keepsTheOriginalsPermissions() throws {
        let path = folder + "/private.json"
        try AtomicFileWriter().write(Data("old".utf8), to: path)
        chmod(path, 0o600)
        try AtomicFileWriter().write(Data("new".utf8), to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsUpdated() throws {
        let target = folder + "/real.json"
        let link = folder + "/link.json"
        try AtomicFileWriter().write(Data("old".utf8), to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        try AtomicFileWriter().write(Data("new".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.json")
        #expect(try contents(target) == "new")
    }
}

/// Writing without replacing is atomic, and a writer never removes another writer's temporary
/// file: two conversions to one new output cannot both succeed, and opening a store while a
/// conversion writes beside it leaves the conversion's file alone.
@Suite struct NoClobberWriteTests {
    @Test func aFileMadeWhileTheTemporaryFileWasWrittenIsNotReplaced() throws {
        let scratch = try ScratchFolder("no-clobber")
        let path = scratch.file("out.json").path
        let prepared = try AtomicFileWriter().prepare(to: path) { try $0.write(Array("mine".utf8)) }
        // Another program creates the output between the check and the commit.
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FileWriteError(path: path, operation: .rename, code: EEXIST)) {
            try prepared.commit(replacing: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("theirs".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.json"])
    }

    @Test func ofTwoWritersToOneNewFileExactlyOneSucceeds() throws {
        let scratch = try ScratchFolder("no-clobber")
        let path = scratch.file("out.json").path
        let first = try AtomicFileWriter().prepare(to: path) { try $0.write(Array("first".utf8)) }
        let second = try AtomicFileWriter().prepare(to: path) { try $0.write(Array("second".utf8)) }
        try first.commit(replacing: false)
        #expect(throws: FileWriteError(path: path, operation: .rename, code: EEXIST)) { try second.commit(replacing: false) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("first".utf8))
    }

    @Test func aCommittedNewFileCanBeTakenBackButAReplacedOneStays() throws {
        let scratch = try ScratchFolder("no-clobber")
        let new = scratch.file("new.json").path
        let prepared = try AtomicFileWriter().prepare(to: new) { try $0.write(Array("new".utf8)) }
        try prepared.commit()
        prepared.withdraw()
        #expect(!FileManager.default.fileExists(atPath: new))
        let old = scratch.file("old.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: old))
        let replacing = try AtomicFileWriter().prepare(to: old) { try $0.write(Array("newer".utf8)) }
        try replacing.commit()
        replacing.withdraw()
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == Data("newer".utf8))
    }

    @Test func anUncommittedPreparedFileLeavesNothing() throws {
        let scratch = try ScratchFolder("no-clobber")
        do {
            _ = try AtomicFileWriter().prepare(to: scratch.file("out.json").path) { try $0.write(Array("x".utf8)) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
    }

    /// The process id of a process that has ended.
    static func endedProcessIdentifier() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func onlyTheTemporaryFilesOfEndedProcessesAreRemoved() throws {
        let scratch = try ScratchFolder("stale")
        let path = scratch.file("doc.json").path
        let live = ".doc.json\(AtomicFileWriter.temporaryMarker)\(getpid())-1"
        let ended = ".doc.json\(AtomicFileWriter.temporaryMarker)\(try Self.endedProcessIdentifier())-2"
        for name in [live, ended] { try Data("partial".utf8).write(to: scratch.file(name)) }
        AtomicFileWriter.removeStaleTemporaryFiles(besides: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [live])
    }
}

/// What the atomic writer does with links it cannot follow to a file.
@Suite struct AtomicFileWriterLinkTests {
    @Test func aLoopOfLinksIsRefusedNotReplaced() throws {
        let scratch = try ScratchFolder("links")
        let first = scratch.file("a.json").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("b.json").path, withDestinationPath: "a.json")
        #expect(throws: FileWriteError(path: first, operation: .createTemporaryFile, code: ELOOP)) {
            try AtomicFileWriter().write(Data("x".utf8), to: first)
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: first) == "b.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["a.json", "b.json"])
    }
}
