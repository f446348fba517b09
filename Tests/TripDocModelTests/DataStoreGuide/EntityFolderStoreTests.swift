import Foundation
import Testing
import TripDoc
import TripDocTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// System calls whose `fsync` of one file or folder fails, as a failing disk makes it: the
/// `failing`th flush of a file (counted from 1), or with `folders` of a folder, fails with `EIO`;
/// every other call is the system's.
final class FailingFlushCalls: FileSystemCalls, @unchecked Sendable {
    let real = SystemFileSystemCalls()
    let failing: Int
    let folders: Bool
    private let lock = NSLock()
    private var flushes = 0

    init(failing: Int, folders: Bool = false) {
        self.failing = failing
        self.folders = folders
    }

    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { real.open(path, flags, mode) }
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int { real.write(fd, buffer) }
    func fsync(_ fd: Int32) -> Int32 {
        var status = stat()
        // Only files count, or only folders.
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT == S_IFDIR) == folders else { return real.fsync(fd) }
        let count = lock.withLock {
            flushes += 1
            return flushes
        }
        if count == failing {
            errno = EIO
            return -1
        }
        return real.fsync(fd)
    }
    func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { real.fchmod(fd, mode) }
    func close(_ fd: Int32) -> Int32 { real.close(fd) }
    func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
    func unlink(_ path: String) -> Int32 { real.unlink(path) }
}

/// A store of one file per entity (``EntityFolderStore``) saves safely with the public pieces:
/// the folder's lock, the conflict check by file stamp, and a generations folder that commits
/// every file at once.
@Suite struct EntityFolderStoreTests {
    let scratch: ScratchFolder
    let url: URL

    init() throws {
        scratch = try ScratchFolder("entity-folder-store")
        url = scratch.file("trips.store")
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    func container(calls: any FileSystemCalls = SystemFileSystemCalls()) throws -> ModelContainer {
        try ModelContainer(
            for: Trip.self, configurations: EntityFolderStoreConfiguration(name: "Trips", url: url, calls: calls))
    }

    func insertTrip(_ name: String, in context: ModelContext) throws {
        let trip = Trip(name: name, destination: "Japan", startDate: Self.start, endDate: Self.start + 86_400)
        context.insert(trip)
        trip.bucketList.append(BucketListItem(title: "Tea in \(name)", details: "", hasReservation: false, isInPlan: true))
        try context.save()
    }

    func tripNames(in container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Trip>()).map(\.name).sorted()
    }

    /// The names of the files in the folder and its generations, relative to the folder.
    func files() throws -> [String] {
        let walker = FileManager.default.enumerator(atPath: url.path)
        return (walker?.allObjects as? [String] ?? []).sorted()
    }

    @Test func aSaveWritesOneFilePerEntityInANewGeneration() throws {
        let container = try self.container()
        try insertTrip("Tokyo", in: ModelContext(container))
        #expect(
            try files() == [
                "current", "generation-2", "generation-2/BucketListItem.json", "generation-2/LivingAccommodation.json",
                "generation-2/Trip.json", "generation-2/document.json",
            ], "the empty store's generation 1 was replaced and removed")
        #expect(try String(contentsOf: url.appendingPathComponent("current"), encoding: .utf8) == "generation-2\n")
        #expect(try tripNames(in: try self.container()) == ["Tokyo"], "a new store reads what was saved")
    }

    @Test func ofTwoWritersTheOneThatDidNotReadTheOthersSaveGetsAConflict() throws {
        let first = try container()
        let second = try container()
        let secondContext = ModelContext(second)
        try insertTrip("Tokyo", in: ModelContext(first))
        let pointerBefore = try Data(contentsOf: url.appendingPathComponent("current"))

        let conflict = #expect(throws: FileChangedError.self) { try insertTrip("Kyoto", in: secondContext) }
        #expect(conflict?.path == url.appendingPathComponent("current").path)
        #expect(try Data(contentsOf: url.appendingPathComponent("current")) == pointerBefore, "nothing was written")
        #expect(try tripNames(in: first) == ["Tokyo"])

        // Having read the other's save, the second writer saves on top of it.
        let again = ModelContext(second)
        #expect(try again.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Tokyo"])
        try insertTrip("Kyoto", in: again)
        #expect(try tripNames(in: first) == ["Kyoto", "Tokyo"])
    }

    @Test func aFileChangedByAnotherProgramIsAConflict() throws {
        let container = try self.container()
        let context = ModelContext(container)
        try insertTrip("Tokyo", in: context)
        // Another program commits a generation of its own (the same files, written again).
        let folder = GenerationFolder(path: url.path)
        let current = try #require(try folder.currentGeneration())
        let names = try FileManager.default.contentsOfDirectory(atPath: current)
        let contents = try names.map { try Data(contentsOf: URL(fileURLWithPath: current).appendingPathComponent($0)) }
        try DocumentFileLock.withLock(onDocumentAt: url.path) {
            try folder.commit { generation in
                for (name, data) in zip(names, contents) { try generation.write(data, toFileNamed: name) }
            }
        }
        #expect(throws: FileChangedError.self) { try insertTrip("Kyoto", in: context) }
    }

    @Test func aSaveWaitsForTheFoldersLock() throws {
        let container = try self.container()
        let pointer = url.appendingPathComponent("current")
        let before = try Data(contentsOf: pointer)
        let saved = DispatchSemaphore(value: 0)
        var lock: DocumentFileLock? = try DocumentFileLock(documentPath: url.path)
        let saving = Thread {
            // Another thread: its context, its save.
            try? insertTrip("Tokyo", in: ModelContext(container))
            saved.signal()
        }
        saving.start()
        #expect(saved.wait(timeout: .now() + 0.5) == .timedOut, "the save waits while the lock is held")
        #expect(try Data(contentsOf: pointer) == before, "and has written nothing")
        withExtendedLifetime(lock) {}
        lock = nil
        #expect(saved.wait(timeout: .now() + 10) == .success)
        #expect(try tripNames(in: container) == ["Tokyo"])
    }

    @Test func aCommitThatFailsMidwayLeavesEveryFileAsItWas() throws {
        try insertTrip("Tokyo", in: ModelContext(try container()))
        let before = try files()
        let beforeContents = try before.filter { $0.contains("/") }.map {
            try Data(contentsOf: url.appendingPathComponent($0))
        }
        // The second file of the next generation fails to reach the disk, after the first has.
        let failing = try container(calls: FailingFlushCalls(failing: 2))
        let error = #expect(throws: FileWriteError.self) { try insertTrip("Kyoto", in: ModelContext(failing)) }
        #expect(error?.operation == .flush)
        #expect(error?.operation.leavesOriginalIntact == true)
        #expect(try files() == before, "the new generation is gone, the current one untouched")
        #expect(
            try before.filter { $0.contains("/") }.map { try Data(contentsOf: url.appendingPathComponent($0)) }
                == beforeContents)
        #expect(try tripNames(in: try container()) == ["Tokyo"])
    }

    @Test func aFailureAfterTheSwitchLeavesTheNewGenerationCurrentAndWhole() throws {
        try insertTrip("Tokyo", in: ModelContext(try container()))
        // A commit flushes the new generation's folder, the store's folder, and the store's
        // folder again after renaming the pointer: the third fails.
        let failing = try container(calls: FailingFlushCalls(failing: 3, folders: true))
        let error = #expect(throws: FileWriteError.self) { try insertTrip("Kyoto", in: ModelContext(failing)) }
        #expect(error?.operation == .flushFolder)
        #expect(error?.operation.leavesOriginalIntact == false, "the message says the new files are in place")
        // The old generation stays, in case the rename does not survive a power loss.
        #expect(try files().filter { !$0.contains("/") } == ["current", "generation-2", "generation-3"])
        #expect(try String(contentsOf: url.appendingPathComponent("current"), encoding: .utf8) == "generation-3\n")
        #expect(try tripNames(in: try self.container()) == ["Kyoto", "Tokyo"])
    }

    @Test func aGenerationLeftByAKilledCommitIsNeverReadAndTheNextCommitRemovesIt() throws {
        try insertTrip("Tokyo", in: ModelContext(try container()))
        // A commit killed before its switch: a new generation, half written, not current.
        let leftover = url.appendingPathComponent("generation-3")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        try Data("[{\"half".utf8).write(to: leftover.appendingPathComponent("Trip.json"))
        let container = try self.container()
        #expect(try tripNames(in: container) == ["Tokyo"])
        try insertTrip("Kyoto", in: ModelContext(container))
        #expect(try files().filter { !$0.contains("/") } == ["current", "generation-3"])
        #expect(try tripNames(in: try self.container()) == ["Kyoto", "Tokyo"], "generation 3 is the new commit's, whole")
    }

    @Test func aPointerThatNamesNoGenerationIsAClearError() throws {
        try insertTrip("Tokyo", in: ModelContext(try container()))
        try Data("generation-9\n".utf8).write(to: url.appendingPathComponent("current"))
        let error = #expect(throws: GenerationFolderError.self) { try container() }
        #expect("\(error!)".contains(url.appendingPathComponent("current").path))
        #expect("\(error!)".contains("generation-9, which is not there"))
    }
}
