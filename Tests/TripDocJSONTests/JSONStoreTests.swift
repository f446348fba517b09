import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// The archive-store engine over the JSON format: what a user of the store API sees on disk.
@Suite struct JSONStoreTests {
    let scratch: ScratchFolder
    var path: String { scratch.file("store.json").path }

    init() throws { scratch = try ScratchFolder("store") }

    @Test func createsSavesFetchesAndReopens() throws {
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        var values = EdgeCaseDocuments.highValues
        values["children"] = .references([])
        let temporary = PersistentIdentifier.temporary(entityName: "Everything")
        let result = try store.save(
            DataStoreSaveChangesRequest(inserted: [DefaultSnapshot(persistentIdentifier: temporary, values: values)]))
        let permanent = try #require(result.remappedIdentifiers[temporary])
        #expect(permanent.storeIdentifier == store.identifier)

        let reopened = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        #expect(reopened.identifier == store.identifier)
        let fetched = try reopened.fetchSnapshots(entityName: "Everything")
        #expect(fetched == [DefaultSnapshot(persistentIdentifier: permanent, values: values)])
    }

    @Test func openingAStoreLeavesTheTemporaryFileOfAnotherProcessStillWriting() throws {
        // A conversion to the same path in another process, still running.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sleep")
        writer.arguments = ["30"]
        try writer.run()
        defer { writer.terminate() }
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = ".store.json\(AtomicFileWriter.temporaryMarker)\(writer.processIdentifier)-7"
        try Data("half a document".utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(temporary))
        _ = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        #expect(FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(temporary)))
    }

    @Test func aRefusedSaveLeavesTheFileUntouched() throws {
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: SaveChangesError.self) {
            try store.save(
                DataStoreSaveChangesRequest(updated: [
                    DefaultSnapshot(persistentIdentifier: EdgeCaseDocuments.identifier("1"), values: [:])
                ]))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func openingWithAnotherSchemaAsksForAMigration() throws {
        _ = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        #expect {
            try ArchiveStore(path: path, format: JSONFormat(), schema: Schema([Schema.Entity(name: "Other")]))
        } throws: { error in
            "\(error)".contains("migrate the document first")
        }
    }
}

@Suite struct ArchiveStoreSharingTests {
    let scratch: ScratchFolder
    var path: String { scratch.file("shared.json").path }

    init() throws { scratch = try ScratchFolder("shared") }

    @Test func aSaveOverAVersionItDidNotReadIsAConflict() throws {
        let first = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        let second = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        var values = EdgeCaseDocuments.highValues
        values["children"] = .references([])
        try first.save(DataStoreSaveChangesRequest(inserted: [DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Everything"), values: values)]))
        values["string"] = .string("another")
        let insert = DataStoreSaveChangesRequest(inserted: [DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Everything"), values: values)])
        #expect(throws: ArchiveStoreError.conflict(path: path)) { try second.save(insert) }
        #expect(try second.fetchSnapshots().count == 1)
        try second.save(insert)
        #expect(try first.fetchSnapshots().count == 2)
    }

    @Test func openingCleansTemporaryFilesACrashedSaveLeft() throws {
        _ = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        let folder = (path as NSString).deletingLastPathComponent
        // The writer that left it has ended.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = (folder as NSString).appendingPathComponent(
            "." + (path as NSString).lastPathComponent + AtomicFileWriter.temporaryMarker + "\(ended.processIdentifier)-1")
        try #require(FileManager.default.createFile(atPath: stale, contents: Data("half a docu".utf8)))
        _ = try ArchiveStore(path: path, format: JSONFormat())
        #expect(!FileManager.default.fileExists(atPath: stale))
    }
}

/// The lock file beside a document is opened only as a regular file of its own: a symbolic
/// link planted as `NAME.lock` is neither followed (which would create a file wherever it
/// points) nor replaced, and the store says what to remove.
@Suite struct LockFileTests {
    @Test func aLockFileThatIsASymbolicLinkIsRefused() throws {
        let scratch = try ScratchFolder("lock")
        let path = scratch.file("store.json").path
        let planted = scratch.file("planted").path
        try FileManager.default.createSymbolicLink(atPath: path + ".lock", withDestinationPath: planted)
        let error = try #require(throws: FileWriteError.self) {
            _ = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        }
        #expect(
            error.description
                == "could not save: the lock file \(path).lock is a symbolic link, which tripdoc never opens as its lock; remove it (the document was left as it was)")
        #expect(!FileManager.default.fileExists(atPath: planted))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aLockFileThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let scratch = try ScratchFolder("lock")
        let path = scratch.file("store.json").path
        #expect(mkfifo(path + ".lock", 0o644) == 0)
        #expect(throws: FileWriteError(path: path + ".lock", operation: .lock, code: EINVAL)) {
            _ = try ArchiveStore(path: path, format: JSONFormat(), schema: EdgeCaseDocuments.schema)
        }
    }
}
