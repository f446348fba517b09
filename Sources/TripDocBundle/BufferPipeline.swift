import Foundation

/// Fills buffers on the calling thread and consumes them on a thread of its own, so that the
/// two overlap: a bundle's large entries are inflated here while the other thread hashes them
/// and writes them to where they arrive (``ArrivingEntry``).
///
/// A few buffers go round: ``fill(_:)`` waits for a free one, and ``finish()`` for the last to
/// be consumed. Only the other thread calls `consume`, and only until ``finish()`` returns, so
/// what it touches needs no lock of its own. Dropping the pipeline unfinished (after an error)
/// stops the thread; the buffers are freed once it has stopped.
final class BufferPipeline {
    private let state: BufferPipelineState

    /// A pipeline of `count` buffers of `size` bytes whose contents go to `consume`, in order.
    init(bufferSize size: Int = 1 << 18, count: Int = 4, consume: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        let state = BufferPipelineState(bufferSize: size, count: count, consume: consume)
        self.state = state
        let thread = Thread { state.run() }
        thread.start()
    }

    /// Stops the other thread (when ``finish()`` was not called, after an error).
    deinit { state.close() }

    /// Lets `body` fill a free buffer and return how many bytes it wrote; those are queued for
    /// the other thread. Returns that count.
    ///
    /// - Throws: What `body` throws, or the error that stopped the other thread.
    func fill(_ body: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Int { try state.fill(body) }

    /// Waits until every queued byte has been consumed.
    ///
    /// - Throws: The error that stopped the other thread.
    func finish() throws { try state.finish() }
}

/// What both threads share, kept alive by the other thread until it stops.
private final class BufferPipelineState: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [UnsafeMutableRawBufferPointer]
    private var filled: [(buffer: UnsafeMutableRawBufferPointer, count: Int)] = []
    private var isClosed = false
    private var isDone = false
    private var consumerError: (any Error)?
    private let buffers: [UnsafeMutableRawBufferPointer]
    /// Called on the other thread only.
    private let consume: (UnsafeRawBufferPointer) throws -> Void

    init(bufferSize size: Int, count: Int, consume: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        buffers = (0..<count).map { _ in .allocate(byteCount: size, alignment: 16) }
        free = buffers
        self.consume = consume
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    func fill(_ body: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Int {
        condition.lock()
        while free.isEmpty, consumerError == nil { condition.wait() }
        if let consumerError {
            condition.unlock()
            throw consumerError
        }
        let buffer = free.removeLast()
        condition.unlock()
        let count: Int
        do {
            count = try body(buffer)
        } catch {
            give(buffer)
            throw error
        }
        guard count > 0 else {
            give(buffer)
            return count
        }
        condition.lock()
        filled.append((buffer, count))
        condition.broadcast()
        condition.unlock()
        return count
    }

    func finish() throws {
        close()
        if let consumerError { throw consumerError }
    }

    private func give(_ buffer: UnsafeMutableRawBufferPointer) {
        condition.lock()
        free.append(buffer)
        condition.broadcast()
        condition.unlock()
    }

    /// Tells the other thread there is nothing more to come and waits for it to stop.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        condition.unlock()
    }

    /// The other thread: consumes filled buffers in order until closed (or a failure).
    func run() {
        condition.lock()
        while true {
            while filled.isEmpty, !isClosed { condition.wait() }
            if filled.isEmpty { break }
            let (buffer, count) = filled.removeFirst()
            condition.unlock()
            var failure: (any Error)?
            do { try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) } catch { failure = error }
            condition.lock()
            free.append(buffer)
            if let failure {
                consumerError = failure
                free += filled.map(\.buffer)
                filled.removeAll()
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
