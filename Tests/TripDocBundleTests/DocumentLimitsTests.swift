import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// The reading caps: each one, in every format, refuses a document just over it with a message
/// that names the cap and how to raise it, and reads the same document at exactly the cap.
@Suite struct DocumentLimitsTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    static let schema = Schema([
        Schema.Entity(
            name: "Note", attributes: [.init("text", .string), .init("tags", .array(.string), isOptional: true)])
    ])

    /// A document with three notes (the longest text 1,000 bytes) and two history transactions,
    /// made through the store API in `format`, as bytes.
    static func documentBytes(_ format: any DocumentFormat) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes." + format.fileExtensions[0]).path
        let store = try ArchiveStore(path: path, format: format, schema: schema)
        func note(_ key: String, _ text: String) -> DefaultSnapshot {
            DefaultSnapshot(
                persistentIdentifier: .temporary(entityName: "Note", primaryKey: key),
                values: ["text": .string(text), "tags": .array([.string("a"), .string("b")])])
        }
        _ = try store.save(DataStoreSaveChangesRequest(inserted: [note("a", "short"), note("b", "also short")]))
        _ = try store.save(DataStoreSaveChangesRequest(inserted: [note("c", String(repeating: "x", count: 1000))]))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Reads `data` under `limits`, returning the error, or `nil` when it reads.
    func readError(_ data: Data, _ format: any DocumentFormat, _ limits: DocumentLimits) -> DocumentReadError? {
        do {
            _ = try format.readDocument(from: data, file: "notes", limits: limits)
            return nil
        } catch let error as DocumentReadError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }

    /// Checks that `data` reads with `cap` at `atCap` and is refused, naming the cap, at one less.
    func expectCap(
        _ cap: DocumentLimits.Cap, at atCap: Int, _ data: Data, _ format: any DocumentFormat,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var limits = DocumentLimits.standard
        limits[cap] = atCap
        #expect(readError(data, format, limits) == nil, "\(format.name) at the cap", sourceLocation: sourceLocation)
        limits[cap] = atCap - 1
        let error = readError(data, format, limits)
        #expect(error?.message.contains("the \(cap.rawValue) limit of") == true, "\(format.name): \(String(describing: error))",
            sourceLocation: sourceLocation)
        #expect(error?.hint == "If the file is trusted, raise the limit: add --max \(cap.rawValue)=N after the command's name "
            + "(tripdoc show --max \(cap.rawValue)=N FILE), or DocumentLimits.\(cap.propertyName) in the API",
            sourceLocation: sourceLocation)
    }

    /// The lowest value of `cap` under which `data` reads.
    func lowestReadingValue(of cap: DocumentLimits.Cap, _ data: Data, _ format: any DocumentFormat) -> Int {
        var low = 1
        var high = 1 << 24
        while low < high {
            var limits = DocumentLimits.standard
            limits[cap] = (low + high) / 2
            if readError(data, format, limits) == nil { high = (low + high) / 2 } else { low = (low + high) / 2 + 1 }
        }
        return low
    }

    @Test(arguments: formats.indices)
    func theDocumentSizeCapsTheFile(_ index: Int) throws {
        let format = Self.formats[index]
        let data = try Self.documentBytes(format)
        if format is BundleFormat {
            // The entries inflated are larger than the zip file, and capped too.
            let lowest = lowestReadingValue(of: .documentSize, data, format)
            #expect(lowest > data.count)
            expectCap(.documentSize, at: lowest, data, format)
        } else {
            expectCap(.documentSize, at: data.count, data, format)
        }
    }

    @Test(arguments: formats.indices)
    func theSnapshotCountCapsAllEntitiesTogether(_ index: Int) throws {
        let format = Self.formats[index]
        expectCap(.snapshotCount, at: 3, try Self.documentBytes(format), format)
    }

    @Test(arguments: formats.indices)
    func theHistoryLengthCapsTransactions(_ index: Int) throws {
        let format = Self.formats[index]
        expectCap(.historyLength, at: 2, try Self.documentBytes(format), format)
    }

    @Test(arguments: formats.indices)
    func theStringLengthCapsTheLongestString(_ index: Int) throws {
        let format = Self.formats[index]
        expectCap(.stringLength, at: 1000, try Self.documentBytes(format), format)
    }

    /// The same document nests as deep in JSON as in a plist (the root object is level 1 in
    /// both); a bundle's entries each count from their own root, one level less.
    @Test func theNestingDepthCountsTheRootAsLevelOne() throws {
        var depths: [Int] = []
        for format in Self.formats {
            let data = try Self.documentBytes(format)
            let lowest = lowestReadingValue(of: .nestingDepth, data, format)
            expectCap(.nestingDepth, at: lowest, data, format)
            depths.append(lowest)
        }
        #expect(depths[0] == depths[1])
        #expect(depths[2] == depths[0] - 1)
        // root › schema › entities › entity › attributes › attribute › options at least.
        #expect(depths[0] >= 7)
    }

    @Test func theEntryCountCapsABundlesArchive() throws {
        let data = try Self.documentBytes(BundleFormat())
        // manifest, header, schema, history, snapshots/Note.json
        expectCap(.entryCount, at: 5, data, BundleFormat())
        var limits = DocumentLimits.standard
        limits.maximumEntryCount = 4
        #expect(readError(data, BundleFormat(), limits)?.message == "the archive (5 entries) holds more than the entry-count limit of 4 entries")
    }

    @Test func theDocumentSizeAlsoCapsABundlesInflatedEntries() throws {
        let data = try Self.documentBytes(BundleFormat())
        var limits = DocumentLimits.standard
        limits.maximumDocumentSize = data.count  // the file fits, its entries inflated do not
        let error = try #require(readError(data, BundleFormat(), limits))
        #expect(error.message.contains("the sum of the entries' inflated sizes up to this one ("), "\(error)")
    }

    @Test func aStoreReadsUnderItsLimits() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.json").path
        try Self.documentBytes(JSONFormat()).write(to: URL(fileURLWithPath: path))
        // Opening reads the header and schema; each read is held to the caps for what it reads.
        let capped = try ArchiveStore(path: path, format: JSONFormat(), limits: DocumentLimits(maximumSnapshotCount: 2))
        #expect(throws: DocumentReadError.self) { try capped.fetchSnapshots(entityName: "Note") }
        let store = try ArchiveStore(path: path, format: JSONFormat(), limits: DocumentLimits(maximumSnapshotCount: 3))
        store.limits.maximumHistoryLength = 1
        #expect(try store.fetchSnapshots(entityName: "Note").count == 3)
        #expect(throws: DocumentReadError.self) { try store.fetchHistory() }
        #expect(throws: DocumentReadError.self) { try store.readDocument() }
    }

    // MARK: Settings as users type them

    @Test(arguments: [
        ("string-length=64M", DocumentLimits.Cap.stringLength, 64 << 20),
        ("document-size=2g", .documentSize, 2 << 30),
        ("document-size=1T", .documentSize, 1 << 40),
        ("nesting-depth=1000", .nestingDepth, 1000),
        ("history-length=5", .historyLength, 5),
        ("entry-count=7", .entryCount, 7),
        ("snapshot-count=9", .snapshotCount, 9),
        ("compression-ratio=1000", .compressionRatio, 1000),
    ])
    func aSettingSetsItsCap(text: String, cap: DocumentLimits.Cap, value: Int) throws {
        var limits = DocumentLimits.standard
        try limits.set(text)
        #expect(limits[cap] == value)
        limits[cap] = DocumentLimits.standard[cap]
        #expect(limits == .standard, "only \(cap) changes")
    }

    @Test(arguments: [
        ("string-length", "'string-length' is not NAME=VALUE"),
        ("depth=3", "there is no limit called 'depth'; the limits are document-size, entry-count, snapshot-count, "
            + "nesting-depth, string-length, history-length, compression-ratio"),
        ("nesting-depth=0", "the nesting-depth limit must be a positive whole number, not '0'"),
        ("nesting-depth=10K", "the nesting-depth limit must be a positive whole number, not '10K'"),
        ("string-length=-1", "the string-length limit must be a positive whole number of bytes, optionally with K, M, G or T, not '-1'"),
        ("document-size=99999999999T", "the document-size limit must be a positive whole number of bytes, optionally with K, M, G or T, not '99999999999T'"),
    ])
    func aBadSettingSaysWhatWasExpected(text: String, message: String) {
        var limits = DocumentLimits.standard
        #expect(throws: DocumentLimitsError(message: message)) { try limits.set(text) }
        #expect(limits == .standard)
    }
}
