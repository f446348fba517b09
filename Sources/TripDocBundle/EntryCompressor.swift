import Foundation

/// Deflates a bundle's entries (``DeflatedEntry``) on a thread of its own while the writer goes
/// on making their bytes, so that deflating, a quarter of converting a document to a bundle,
/// runs beside reading and encoding rather than after them.
///
/// The thread starts with the first piece of a full ``DocumentStreamWriter/pieceSize``: until
/// then (a small document, or the small entries before a large one), pieces are deflated on the
/// calling thread, which a thread's start and hand-overs would cost more than they save. From
/// then on every piece goes to the thread, in order, at most ``piecesAhead`` of them waiting;
/// an entry handed over (``append(_:to:)``, ``finish(_:)``) is not touched by the caller again
/// until ``finishAll()`` returns. Dropping the compressor unfinished (after an error) stops the
/// thread.
final class EntryCompressor {
    private let state = EntryCompressorState()
    private var isRunning = false

    /// How many pieces may wait for the thread before the writer waits for it.
    static let piecesAhead = 8
    /// The size of piece from which the thread is started.
    static let startingPieceSize = 1 << 18

    init() {}

    deinit {
        if isRunning { state.close() }
    }

    /// Deflates `bytes` into `entry`, here or on the thread (copied, then).
    ///
    /// - Throws: What deflating an earlier piece threw (the thread's first failure).
    func append(_ bytes: UnsafeRawBufferPointer, to entry: DeflatedEntry) throws {
        if !isRunning {
            guard bytes.count >= Self.startingPieceSize else {
                try entry.append(bytes)
                return
            }
            isRunning = true
            let state = self.state
            let thread = Thread { state.run() }
            thread.start()
        }
        try state.enqueue(.append(entry, [UInt8](bytes)))
    }

    /// Ends `entry`'s deflate stream, here or on the thread.
    func finish(_ entry: DeflatedEntry) throws {
        guard isRunning else { return try entry.finish() }
        try state.enqueue(.finish(entry))
    }

    /// Waits until every piece handed over is deflated and stops the thread.
    ///
    /// - Throws: The thread's first failure.
    func finishAll() throws {
        guard isRunning else { return }
        isRunning = false
        state.close()
        try state.throwFailure()
    }
}

/// What the writer's thread and the compressing thread share, under one lock.
private final class EntryCompressorState: @unchecked Sendable {
    enum Job {
        case append(DeflatedEntry, [UInt8])
        case finish(DeflatedEntry)
    }

    private let condition = NSCondition()
    /// The jobs not yet started, oldest first (at most ``EntryCompressor/piecesAhead``).
    private var jobs: [Job] = []
    private var isClosed = false
    private var isDone = false
    private var failure: (any Error)?

    func enqueue(_ job: Job) throws {
        condition.lock()
        defer { condition.unlock() }
        while jobs.count >= EntryCompressor.piecesAhead, failure == nil { condition.wait() }
        if let failure { throw failure }
        jobs.append(job)
        condition.broadcast()
    }

    func throwFailure() throws {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
    }

    /// Tells the thread nothing more comes and waits for it to stop.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        condition.unlock()
    }

    /// The compressing thread: runs the jobs in order until closed, or until one fails.
    func run() {
        condition.lock()
        while true {
            while jobs.isEmpty, !isClosed { condition.wait() }
            if jobs.isEmpty { break }
            let job = jobs.removeFirst()
            condition.unlock()
            var error: (any Error)?
            do {
                switch job {
                case .append(let entry, let bytes): try bytes.withUnsafeBytes { try entry.append($0) }
                case .finish(let entry): try entry.finish()
                }
            } catch let thrown {
                error = thrown
            }
            condition.lock()
            if let error {
                failure = error
                jobs.removeAll()
                condition.broadcast()
                break
            }
            condition.broadcast()
        }
        isDone = true
        condition.broadcast()
        condition.unlock()
    }
}
