import Foundation

/// A document read on a thread of its own and handed over as the reader goes, for a caller that
/// takes its records one at a time in document order: what comparing two documents as a merge
/// of two ordered streams needs (`tripdoc diff`), where a ``DocumentDecodingSink`` would push
/// both at once.
///
/// ``start(_:)`` starts the reading; ``begin()`` waits for the header, schema and history;
/// ``choose(entities:)`` says which entities' snapshots are wanted (the reader skips the others,
/// and a bundle does not even inflate their entries) and must be called once after
/// ``begin()`` (the reader waits for it; ``errorAtTheEnd()`` chooses all when it was not); then
/// ``nextEntity()`` and ``nextRecord()`` walk the document, entity by entity, in the order it
/// lists them. Each entity's records are
/// laid out alike, by the schema's entity, whatever the reader made (a
/// ``SnapshotRecord/position(of:)`` of one is good for all). Memory holds a few batches of at
/// most 512 records; the reader waits when they are not taken. An error of the reading is
/// thrown by the call that reaches it, after the records read before it. ``cancel()`` stops the
/// reading and waits for the thread to end; a stream must be cancelled or read to its end.
public final class DocumentRecordStream: @unchecked Sendable {
    private enum Item {
        case begin(DocumentHeader, Schema, DocumentHistory?)
        case beginEntity(Schema.Entity)
        case records([SnapshotRecord])
        case endEntity
        case lateHistory(DocumentHistory)
        case end
        case failed(any Error)
    }

    /// Why the reading side stopped: the stream was cancelled.
    private struct Cancelled: Error {}

    private let condition = NSCondition()
    private var queue: [Item] = []
    private let capacity = 4
    private var cancelled = false
    private var threadFinished = false
    /// The entities wanted, once chosen; `nil` for all.
    private var wanted: Set<String>?
    private var chosen = false
    /// The batch being taken from, on the caller's side.
    private var batch: [SnapshotRecord] = []
    private var batchIndex = 0
    /// Whether the caller is inside an entity's records.
    private var inEntity = false
    private var reachedEnd = false
    /// The history found after the snapshots, once the end is reached.
    public private(set) var lateHistory: DocumentHistory?

    private init() {}

    /// Starts reading on a thread of its own: `read` is called there with the sink to read into
    /// (typically `format.readDocument(from:file:limits:into:)`).
    public static func start(_ read: @escaping @Sendable (inout Feeder) throws -> Void) -> DocumentRecordStream {
        let stream = DocumentRecordStream()
        let thread = Thread {
            var feeder = Feeder(stream: stream)
            do {
                try read(&feeder)
                try feeder.flush()
                stream.put(.end, waiting: false)
            } catch is Cancelled {
                // Nobody is listening.
            } catch {
                stream.put(.failed(error), waiting: false)
            }
            stream.condition.lock()
            stream.threadFinished = true
            stream.condition.broadcast()
            stream.condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
        return stream
    }

    // MARK: The caller's side

    /// The header, schema and history (when the document lists it before its snapshots).
    ///
    /// - Throws: The reading's error.
    public func begin() throws -> (header: DocumentHeader, schema: Schema, history: DocumentHistory?) {
        switch try take() {
        case .begin(let header, let schema, let history): return (header, schema, history)
        default: preconditionFailure("a document stream starts with its header")
        }
    }

    /// Lets the reader go on, reading the snapshots of only `entities` (`nil`: all).
    public func choose(entities: Set<String>?) {
        condition.lock()
        wanted = entities
        chosen = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next entity whose records follow, skipping what is left of the current one; `nil`
    /// at the end of the document (``lateHistory`` is then set when the history came last).
    ///
    /// - Throws: The reading's error.
    public func nextEntity() throws -> Schema.Entity? {
        while inEntity { _ = try nextRecord() }
        while !reachedEnd {
            switch try take() {
            case .beginEntity(let entity):
                inEntity = true
                return entity
            case .lateHistory(let history): lateHistory = history
            case .end: reachedEnd = true
            default: continue
            }
        }
        return nil
    }

    /// The next record of the current entity, in document order; `nil` when its records are done.
    ///
    /// - Throws: The reading's error.
    public func nextRecord() throws -> SnapshotRecord? {
        guard inEntity else { return nil }
        while true {
            if batchIndex < batch.count {
                defer { batchIndex += 1 }
                return batch[batchIndex]
            }
            switch try take() {
            case .records(let records):
                batch = records
                batchIndex = 0
            case .endEntity:
                batch = []
                batchIndex = 0
                inEntity = false
                return nil
            default: preconditionFailure("an entity's records end before anything else comes")
            }
        }
    }

    /// Reads on to the end, dropping what comes, and returns the reading's error if there is one
    /// (also one already thrown).
    public func errorAtTheEnd() -> (any Error)? {
        condition.lock()
        let mustChoose = !chosen
        condition.unlock()
        if mustChoose { choose(entities: nil) }
        do {
            while try nextEntity() != nil {}
            return nil
        } catch {
            return error
        }
    }

    /// Stops the reading (the reader's next hand-over fails) and waits for its thread to end.
    public func cancel() {
        condition.lock()
        cancelled = true
        chosen = true
        queue.removeAll()
        condition.broadcast()
        while !threadFinished { condition.wait() }
        condition.unlock()
    }

    /// The next item, waiting for it; a failure is thrown (and stays the last item).
    private func take() throws -> Item {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty { condition.wait() }
        let item = queue[0]
        // A failure stays the last item: every later call throws it again.
        if case .failed(let error) = item { throw error }
        queue.removeFirst()
        condition.broadcast()
        return item
    }

    // MARK: The reader's side

    /// Queues an item, waiting while the queue is full (unless `waiting` is false: the last
    /// item); drops it once the stream has been cancelled.
    private func put(_ item: Item, waiting: Bool = true) {
        condition.lock()
        defer { condition.unlock() }
        if waiting { while queue.count >= capacity, !cancelled { condition.wait() } }
        guard !cancelled else { return }
        queue.append(item)
        condition.broadcast()
    }

    private var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Waits for ``choose(entities:)`` and returns the choice.
    private func awaitChoice() throws -> Set<String>? {
        condition.lock()
        defer { condition.unlock() }
        while !chosen { condition.wait() }
        if cancelled { throw Cancelled() }
        return wanted
    }

    /// The sink the reader reads into: it lays records out by the schema's entity and hands
    /// them over in batches.
    public struct Feeder: DocumentDecodingSink {
        fileprivate let stream: DocumentRecordStream
        private var batch: [SnapshotRecord] = []
        private var wanted: Set<String>?
        /// The layout of each entity's records, made from the schema.
        private var plans: [String: EntityCodingPlan] = [:]
        private var schema = Schema([])
        private var plan: EntityCodingPlan?
        private static var largestBatch: Int { 512 }

        fileprivate init(stream: DocumentRecordStream) {
            self.stream = stream
        }

        fileprivate mutating func flush() throws {
            guard !batch.isEmpty else { return }
            try hand(.records(batch))
            batch = []
            batch.reserveCapacity(Self.largestBatch)
        }

        private func hand(_ item: Item) throws {
            stream.put(item)
            if stream.isCancelled { throw Cancelled() }
        }

        public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            self.schema = schema
            try hand(.begin(header, schema, history))
            wanted = try stream.awaitChoice()
            batch.reserveCapacity(Self.largestBatch)
        }

        public func wantsSnapshots(of entity: Schema.Entity) -> Bool {
            wanted?.contains(entity.name) ?? true
        }

        public mutating func beginEntity(_ entity: Schema.Entity) throws {
            if let known = plans[entity.name] {
                plan = known
            } else {
                let made = EntityCodingPlan(schema.entity(named: entity.name) ?? entity)
                plans[entity.name] = made
                plan = made
            }
            try hand(.beginEntity(entity))
        }

        public mutating func add(_ snapshot: DefaultSnapshot) throws {
            guard let plan else { return }
            try append(SnapshotRecord.of(snapshot, plan: plan).record)
        }

        public mutating func add(record: consuming SnapshotRecord) throws {
            guard let plan else { return }
            if plan.hasTheLayout(of: record.plan) {
                try append(record)
            } else {
                try append(SnapshotRecord.of(record.snapshot, plan: plan).record)
            }
        }

        private mutating func append(_ record: consuming SnapshotRecord) throws {
            batch.append(record)
            if batch.count >= Self.largestBatch { try flush() }
        }

        public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
            try flush()
            plan = nil
            try hand(.endEntity)
        }

        public mutating func lateHistory(_ history: DocumentHistory) throws {
            try flush()
            try hand(.lateHistory(history))
        }
    }
}
