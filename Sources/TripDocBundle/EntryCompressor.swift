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

    /// How many pieces may wait for the thread before the writer waits for it: 8 MiB, about
    /// fifty milliseconds of deflating, so that neither side waits on the other for a time slice
    /// the system gave a third thread.
    static let piecesAhead = 32
    /// The size of piece from which the thread is started.
    static let startingPieceSize = 1 << 18

    init() {}

    deinit {
        if isRunning { state.close() }
    }

    /// Deflates `bytes` into `entry`, here or on the thread (copied, then, into a buffer the
    /// thread hands back once it has deflated it: a new buffer for each piece cost page faults).
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
        var buffer = state.spareBuffer()
        buffer.append(contentsOf: bytes)
        try state.enqueue(.init(entry: entry, bytes: buffer, ends: false))
    }

    /// Ends `entry`'s deflate stream, here or on the thread.
    func finish(_ entry: DeflatedEntry) throws {
        guard isRunning else { return try entry.finish() }
        try state.enqueue(.init(entry: entry, bytes: [], ends: true))
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
    /// Bytes to deflate into an entry, or the entry's end.
    struct Job {
        var entry: DeflatedEntry
        var bytes: [UInt8]
        var ends: Bool
    }

    private let condition = NSCondition()
    /// The jobs not yet started, oldest first (at most ``EntryCompressor/piecesAhead``).
    private var jobs: [Job] = []
    private var isClosed = false
    private var isDone = false
    private var failure: (any Error)?
    /// Emptied buffers the thread has handed back, for the next pieces.
    private var spares: [[UInt8]] = []

    /// An empty buffer, one handed back when there is one.
    func spareBuffer() -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return spares.popLast() ?? []
    }

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
            var job = jobs.removeFirst()
            condition.unlock()
            // Taken out of the job, so that emptying it keeps its memory.
            var bytes: [UInt8] = []
            swap(&bytes, &job.bytes)
            var error: (any Error)?
            do {
                if job.ends { try job.entry.finish() } else { try bytes.withUnsafeBytes { try job.entry.append($0) } }
            } catch let thrown {
                error = thrown
            }
            bytes.removeAll(keepingCapacity: true)
            condition.lock()
            if bytes.capacity > 0, spares.count <= EntryCompressor.piecesAhead { spares.append(bytes) }
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
