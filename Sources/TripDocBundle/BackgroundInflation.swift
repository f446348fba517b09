import Foundation
import TripDocCore

/// Inflates entries of an archive on a thread of its own, in archive order, so that each can be
/// read while it arrives (``ArrivingEntry``): a bundle's snapshot entries are decoded as they
/// inflate, instead of after all of them have.
///
/// The archive is checked as ``ZipArchive/entries(of:limits:including:)`` checks it, before any
/// room is made for an entry. Whoever starts an inflation calls ``stop()`` when done with it,
/// however that came about, so that the thread is not left running.
final class BackgroundInflation: @unchecked Sendable {
    private let condition = NSCondition()
    /// The entries the thread has started and no reader has taken yet, by name.
    private var started: [String: ArrivingEntry] = [:]
    /// The names of the entries readers have taken (``entry(_:)``).
    private var taken: Set<String> = []
    private var isStopped = false
    private var isDone = false
    /// Why the thread ended early.
    private var failure: (any Error)?
    /// The archive, until the thread takes it. The thread lets go of it before it says it is
    /// done, so that nothing of the caller's is held by the thread once ``finish()`` or
    /// ``stop()`` returns (the thread itself may still be ending then).
    private var archive: Data?

    /// Starts inflating the entries of `data` that `including` selects, under `limits`.
    init(of data: Data, limits: DocumentLimits, including: @escaping @Sendable (String) -> Bool) {
        archive = data
        let thread = Thread { [self] in run(limits: limits, including: including) }
        thread.start()
    }

    private func run(limits: DocumentLimits, including: (String) -> Bool) {
        condition.lock()
        let data = archive.take()!
        condition.unlock()
        let failure = inflate(consume data, limits: limits, including: including)
        condition.lock()
        self.failure = failure
        isDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Inflates `data`, handing each entry over as it starts; what ended it early, if anything.
    private func inflate(_ data: consuming Data, limits: DocumentLimits, including: (String) -> Bool) -> (any Error)? {
        var failure: (any Error)?
        do {
            try ZipArchive.inflate(
                data, limits: limits, including: including,
                into: { record in
                    let entry = try ArrivingEntry(name: record.name, declaredSize: record.uncompressedSize)
                    condition.lock()
                    started[record.name] = entry
                    condition.broadcast()
                    condition.unlock()
                    return entry
                },
                isStopped: {
                    condition.lock()
                    defer { condition.unlock() }
                    return isStopped
                },
                inflated: { _ in })
        } catch {
            failure = error
        }
        return failure
    }

    /// Waits until the entry `name` starts to arrive, and hands it over: each entry is taken
    /// once, and its memory (a large entry's mapping) goes when the reader and the thread are
    /// both done with it, not when the whole inflation is.
    ///
    /// - Throws: What ended the inflation before it reached the entry, or ``ZipArchiveError``
    ///   when the archive does not hold it.
    func entry(_ name: String) throws -> ArrivingEntry {
        condition.lock()
        defer { condition.unlock() }
        precondition(!taken.contains(name), "an arriving entry is taken once")
        while started[name] == nil, !isDone { condition.wait() }
        if let entry = started.removeValue(forKey: name) {
            taken.insert(name)
            return entry
        }
        throw failure ?? ZipArchiveError.damaged(entry: name, "the entry could not be read")
    }

    /// Waits until every entry has been inflated.
    ///
    /// - Throws: What ended the inflation early.
    func finish() throws {
        condition.lock()
        while !isDone { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Stops the thread, between two pieces of an entry, and waits for it. Entries not yet
    /// whole are ended with ``ZipArchive/Stopped``.
    func stop() {
        condition.lock()
        isStopped = true
        while !isDone { condition.wait() }
        condition.unlock()
    }
}
