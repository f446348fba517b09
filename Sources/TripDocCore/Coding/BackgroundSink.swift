import Foundation

/// Runs a ``DocumentDecodingSink`` on a thread of its own, so that decoding a document and what
/// is done with it (encoding it again, for a conversion) use two cores. The decoding thread hands
/// the calls over in batches of snapshots through a short queue, so memory holds a few batches
/// at most (of 64 records at first, doubling to 512); it waits when the queue is full.
///
/// Use ``run(_:decode:)``: it starts the thread, calls `decode` with a sink to decode into, and
/// returns the inner sink when both sides are done. An error of the inner sink stops the
/// decoding (its next hand-over throws) and is the one thrown; an error of `decode` lets the
/// inner sink finish what is queued, and is then thrown.
public final class BackgroundSink<Inner: DocumentDecodingSink>: @unchecked Sendable {
    private enum Call {
        case begin(DocumentHeader, Schema, DocumentHistory?)
        case beginEntity(Schema.Entity)
        case records(RecordBatch)
        case snapshot(DefaultSnapshot)
        case endEntity(Schema.Entity, Int)
        case lateHistory(DocumentHistory)
        case end
    }

    /// Why the decoding side stopped: the inner sink failed (its error is thrown instead).
    private struct Stopped: Error {}

    private let condition = NSCondition()
    private var queue: [Call] = []
    /// How many batches may wait: sixteen (about 8,000 records, ten milliseconds of decoding),
    /// so that a stage the system leaves without a core for a time slice, on a machine with
    /// fewer cores than a conversion has threads, does not leave the others waiting (with four,
    /// converting the 200,000-trip plist to a bundle took more wall time on two busy cores).
    private let capacity = 16
    private var innerError: (any Error)?
    /// Batches the other thread has emptied, for the decoding side to fill again: a new batch
    /// each time would be memory touched for the first time, slow on a virtual machine.
    private var emptiedBatches: [RecordBatch] = []
    private var finished = false
    private var inner: Inner

    private init(_ inner: Inner) {
        self.inner = inner
    }

    /// Decodes with `decode` into `inner`, which runs on another thread; returns `inner` after
    /// the last call.
    ///
    /// - Throws: The first error of `decode` or of `inner`.
    public static func run(_ inner: Inner, decode: (inout Feeder) throws -> Void) throws -> Inner {
        let sink = BackgroundSink(inner)
        // Through a protocol that is not generic: a closure sent to another thread may not
        // capture the metadata of `Inner`, which is not known to be sendable.
        let drainer: any Draining = sink
        let thread = Thread { drainer.drain() }
        thread.stackSize = 8 << 20
        thread.start()
        var feeder = Feeder(sink: sink)
        var decodeError: (any Error)?
        do {
            try decode(&feeder)
            try feeder.flush()
        } catch is Stopped {
            // The inner sink failed; its error is thrown below.
        } catch {
            decodeError = error
        }
        sink.close()
        sink.condition.lock()
        while !sink.finished { sink.condition.wait() }
        sink.condition.unlock()
        if let innerError = sink.innerError { throw innerError }
        if let decodeError { throw decodeError }
        return sink.inner
    }

    /// Queues a call, waiting while the queue is full.
    ///
    /// - Throws: `Stopped` once the inner sink has failed.
    private func put(_ call: Call) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, innerError == nil { condition.wait() }
        guard innerError == nil else { throw Stopped() }
        queue.append(call)
        condition.broadcast()
    }

    /// Queues the end, whatever the queue holds.
    private func close() {
        condition.lock()
        queue.append(.end)
        condition.broadcast()
        condition.unlock()
    }

    /// The other thread: applies the calls to the inner sink until the end or an error.
    fileprivate func drain() {
        var failed = false
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let call = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            if case .end = call { break }
            guard !failed else { continue }
            do {
                switch call {
                case .begin(let header, let schema, let history): try inner.begin(header: header, schema: schema, history: history)
                case .beginEntity(let entity): try inner.beginEntity(entity)
                case .records(let records):
                    while let record = records.takeNext() { try inner.add(record: consume record) }
                    handBack(records)
                case .snapshot(let snapshot): try inner.add(snapshot)
                case .endEntity(let entity, let count): try inner.endEntity(entity, count: count)
                case .lateHistory(let history): try inner.lateHistory(history)
                case .end: break
                }
            } catch {
                failed = true
                condition.lock()
                innerError = error
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Keeps an emptied batch for ``emptiedBatch(capacity:)``; a few at most (those in the queue and
    /// the one being filled are all there can be in use).
    private func handBack(_ batch: RecordBatch) {
        batch.reset()
        condition.lock()
        if emptiedBatches.count < capacity + 2 { emptiedBatches.append(batch) }
        condition.unlock()
    }

    /// An emptied batch of `capacity` records, or a new one.
    fileprivate func emptiedBatch(capacity: Int) -> RecordBatch {
        condition.lock()
        defer { condition.unlock() }
        // Batches only grow: smaller ones would never be asked for again.
        emptiedBatches.removeAll { $0.capacity < capacity }
        if let index = emptiedBatches.lastIndex(where: { $0.capacity == capacity }) {
            return emptiedBatches.remove(at: index)
        }
        return RecordBatch(capacity: capacity)
    }

    /// The decoding side: collects snapshots into batches and queues the calls.
    public struct Feeder: DocumentDecodingSink {
        fileprivate let sink: BackgroundSink
        /// Batches start small, so that the other thread starts soon (a small document is then
        /// worked on by both threads too), and double up to ``largestBatch``.
        private var batch = RecordBatch(capacity: Self.firstBatch)
        private static var firstBatch: Int { 64 }
        private static var largestBatch: Int { 512 }

        fileprivate init(sink: BackgroundSink) {
            self.sink = sink
        }

        /// Hands the snapshots collected so far to the other thread (done anyway at the end).
        public mutating func flush() throws {
            guard !batch.isEmpty else { return }
            let capacity = min(2 * batch.capacity, Self.largestBatch)
            try sink.put(.records(batch))
            batch = sink.emptiedBatch(capacity: capacity)
        }

        public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            try sink.put(.begin(header, schema, history))
        }

        public mutating func beginEntity(_ entity: Schema.Entity) throws {
            try sink.put(.beginEntity(entity))
        }

        /// Snapshots (from a reader that does not make records) go one by one, in order.
        public mutating func add(_ snapshot: DefaultSnapshot) throws {
            try flush()
            try sink.put(.snapshot(snapshot))
        }

        public mutating func add(record: consuming SnapshotRecord) throws {
            batch.append(consume record)
            if batch.isFull { try flush() }
        }

        public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
            try flush()
            try sink.put(.endEntity(entity, count))
        }

        public mutating func lateHistory(_ history: DocumentHistory) throws {
            try flush()
            try sink.put(.lateHistory(history))
        }
    }
}

/// Records on their way from the decoding thread to the other: moved in, moved out, never
/// copied (a copy of a record counts references to objects both threads use). One thread at a
/// time uses a batch: the decoding thread fills it, the queue hands it over, the other empties it.
final class RecordBatch: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<SnapshotRecord>
    /// How many records the batch holds when full.
    let capacity: Int
    private var count = 0
    /// How many have been taken out, from the front.
    private var taken = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == taken }
    var isFull: Bool { count == capacity }

    /// Adds a record; the batch must not be full.
    func append(_ record: consuming SnapshotRecord) {
        precondition(count < capacity, "a full batch of records")
        (storage + count).initialize(to: consume record)
        count += 1
    }

    /// The next record, in the order they were added, or `nil` when all have been taken.
    func takeNext() -> SnapshotRecord? {
        guard taken < count else { return nil }
        defer { taken += 1 }
        return (storage + taken).move()
    }

    /// Makes an emptied batch ready to be filled again.
    func reset() {
        precondition(isEmpty, "a batch with records left in it")
        count = 0
        taken = 0
    }

    deinit {
        (storage + taken).deinitialize(count: count - taken)
        storage.deallocate()
    }
}

/// What the thread of a ``BackgroundSink`` runs.
private protocol Draining: AnyObject, Sendable {
    func drain()
}

extension BackgroundSink: Draining {}
