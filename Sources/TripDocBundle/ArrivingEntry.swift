import Crypto
import Foundation
import TripDocCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An archive entry's bytes as they are inflated, in their final place from the start and
/// readable while they arrive: the inflating thread appends (``append(_:)``) and ends
/// (``finish()`` or ``fail(_:)``) it, and a reader on another thread waits for what it needs
/// (``arrived(after:)``, ``digest()``).
///
/// The place is made at the size the central directory declares, which has been checked against
/// the limits: memory for a small entry, and for one larger than ``ZipArchive/spillThreshold`` an
/// ``UnlinkedTemporaryFile`` of that size, mapped. Pages of the file that a reader has gone past
/// can be handed back to the system (``ConsumedPages``), so a large entry never sits in memory
/// whole. Appending more than the declared size is refused.
final class ArrivingEntry: @unchecked Sendable {
    /// The entry's name in the archive.
    let name: String
    /// The size the central directory declares.
    let declaredSize: Int
    /// Where the bytes arrive; the first ``arrived(after:)`` bytes are there.
    let region: UnsafeRawBufferPointer

    /// What keeps ``region``: the file it maps, if any (the memory or mapping is freed with the
    /// last of this object and the `Data`s of ``contents()``).
    private let storage: Storage
    /// Used on the appending thread only, until the end.
    private var hasher = SHA256()
    private var appended = 0

    private let condition = NSCondition()
    /// How many bytes have arrived, as readers see it.
    private var arrivedCount = 0
    /// The SHA-256 of the bytes once all have arrived, or why they never will.
    private var outcome: Result<String, any Error>?

    /// An empty entry `name` with room for `declaredSize` bytes.
    ///
    /// - Throws: ``ZipArchiveError`` when the temporary file cannot be made or mapped.
    init(name: String, declaredSize: Int) throws {
        self.name = name
        self.declaredSize = declaredSize
        storage = try UnlinkedTemporaryFile.keeping(name) {
            try Storage(size: declaredSize, inFile: declaredSize > ZipArchive.spillThreshold)
        }
        region = UnsafeRawBufferPointer(start: storage.region.baseAddress, count: declaredSize)
    }

    // MARK: The inflating thread

    /// Appends `bytes`, hashing them, and lets readers see them.
    ///
    /// - Throws: ``ZipArchiveError`` when they would pass the declared size, or cannot be kept.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard appended + bytes.count <= declaredSize else {
            throw ZipArchiveError.damaged(entry: name, "it inflates to more than the \(declaredSize) bytes it declares")
        }
        hasher.update(bufferPointer: bytes)
        try UnlinkedTemporaryFile.keeping(name) { try storage.write(bytes, at: appended) }
        appended += bytes.count
        condition.lock()
        arrivedCount = appended
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the entry: every byte has arrived.
    ///
    /// - Throws: ``ZipArchiveError`` when fewer bytes arrived than the entry declares.
    func finish() throws {
        guard appended == declaredSize else {
            let failure = ZipArchiveError.damaged(entry: name, "it holds \(appended) bytes but declares \(declaredSize)")
            fail(failure)
            throw failure
        }
        end(with: .success(hasher.finalize().hexadecimal))
    }

    /// Ends the entry with `error`: no more bytes will arrive. An entry that has ended is left
    /// as it is.
    func fail(_ error: any Error) { end(with: .failure(error)) }

    private func end(with result: Result<String, any Error>) {
        // Nothing more is written: the file's descriptor can go (its mapping stays).
        storage.closeFile()
        condition.lock()
        if outcome == nil { outcome = result }
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Readers

    /// Waits until more than `count` bytes have arrived, or no more will, and returns how many
    /// have (`count` itself, or fewer, when no more will).
    func arrived(after count: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while arrivedCount <= count, outcome == nil { condition.wait() }
        return arrivedCount
    }

    /// Waits for the end, and returns the SHA-256 of the bytes in lowercase hexadecimal.
    ///
    /// - Throws: Why the bytes did not all arrive.
    func digest() throws -> String {
        condition.lock()
        while outcome == nil { condition.wait() }
        let outcome = self.outcome!
        condition.unlock()
        return try outcome.get()
    }

    /// Waits for the end, and returns the bytes, which stay where they arrived.
    ///
    /// - Throws: Why the bytes did not all arrive.
    func contents() throws -> Data {
        _ = try digest()
        guard declaredSize > 0 else { return Data() }
        let storage = self.storage
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: region.baseAddress!), count: declaredSize,
            deallocator: .custom { _, _ in withExtendedLifetime(storage) {} })
    }

    /// The memory an entry arrives in: allocated, or a mapped temporary file.
    private final class Storage {
        let region: UnsafeMutableRawBufferPointer
        /// Whether the region is a mapping (of ``file``, until it is closed).
        private let isMapped: Bool
        private var file: UnlinkedTemporaryFile?

        init(size: Int, inFile: Bool) throws {
            isMapped = inFile
            guard inFile else {
                file = nil
                region = .allocate(byteCount: max(size, 1), alignment: 16)
                return
            }
            let file = try UnlinkedTemporaryFile()
            guard ftruncate(file.descriptor, off_t(size)) == 0 else {
                throw UnlinkedTemporaryFile.Failure(step: "making room in a temporary file", code: errno)
            }
            guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, file.descriptor, 0), address != MAP_FAILED else {
                throw UnlinkedTemporaryFile.Failure(step: "mapping a temporary file", code: errno)
            }
            self.file = file
            region = UnsafeMutableRawBufferPointer(start: address, count: size)
        }

        /// Writes `bytes` at `offset`: into the memory, or into the file (whose mapping then
        /// shows them) at its current offset, which is `offset` since writes come in order.
        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
            if isMapped {
                try file!.append(bytes)
            } else if let base = bytes.baseAddress {
                region.baseAddress!.advanced(by: offset).copyMemory(from: base, byteCount: bytes.count)
            }
        }

        /// Closes the file, if any, once nothing more will be written: a bundle may hold
        /// hundreds of large entries, and each mapping outlives its descriptor.
        func closeFile() { file = nil }

        deinit {
            if isMapped {
                munmap(region.baseAddress, region.count)
            } else {
                region.deallocate()
            }
        }
    }
}
