import Foundation

/// Where the bytes of a document written piece by piece go: a file being written atomically,
/// or memory. Called with pieces of about ``DocumentStreamWriter/pieceSize`` bytes.
public typealias DocumentByteSink = (UnsafeRawBufferPointer) throws -> Void

/// The changes of a history's transactions handed over one at a time instead of held, for a
/// history too long to hold (one whose first transaction inserts every model of a large
/// document): called once per transaction, in order, with the transaction's index in the
/// history and a function that takes the transaction's next change. The changes it hands over
/// follow those the transaction's record holds.
public typealias HistoryChangeStream = (_ transaction: Int, _ add: (HistoryChangeRecord) throws -> Void) throws -> Void

/// A format's writer for documents too large to hold in memory: it takes the header, schema and
/// history, then the snapshots in document order (see ``DocumentStreamEncoder``), and hands its
/// bytes to a ``DocumentByteSink`` as it goes. The bytes are exactly those of
/// ``DocumentFormat/writeDocument(_:)`` for the same document.
///
/// When a call throws, what was handed to the sink so far is not a document and must be
/// discarded (an atomic file write does).
public protocol DocumentStreamWriter {
    /// Writes everything but the snapshots.
    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws
    /// Writes everything but the snapshots, with a history whose transactions also have the
    /// changes `changes` hands over (after those their records hold): the bytes of
    /// ``begin(header:schema:history:)`` for the history holding them all. By default, the
    /// changes are collected into the history first; the formats tripdoc provides write them as
    /// they come, never holding them.
    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory, changes: HistoryChangeStream) throws
    /// Starts the snapshots of `entity`; entities come in byte order of their names.
    mutating func beginEntity(_ entity: Schema.Entity) throws
    /// Writes the next snapshot of the current entity, in primary-key order.
    mutating func add(_ snapshot: DefaultSnapshot) throws
    /// Writes the next snapshot of the current entity from its record (what readers hand
    /// over), in primary-key order. By default, through ``add(_:)``.
    mutating func add(record: consuming SnapshotRecord) throws
    /// Ends the current entity's snapshots.
    mutating func endEntity() throws
    /// Ends the document and hands over the last bytes.
    mutating func finish() throws
}

extension DocumentStreamWriter {
    public mutating func add(record: consuming SnapshotRecord) throws {
        try add(record.snapshot)
    }

    public mutating func begin(
        header: DocumentHeader, schema: Schema, history: DocumentHistory, changes: HistoryChangeStream
    ) throws {
        var whole = history
        for index in whole.transactions.indices {
            try changes(index) { whole.transactions[index].changes.append($0) }
        }
        try begin(header: header, schema: schema, history: whole)
    }

    /// The size of the pieces writers hand to their sink: small enough that the buffer a writer
    /// fills stays in the processor's cache and costs few pages to set up (a piece of 1 MiB in a
    /// buffer that grew by doubling was a third of the memory a small conversion touched), large
    /// enough that a system call per piece is nothing.
    public static var pieceSize: Int { 1 << 18 }

    /// Writes a whole document in memory through the stream.
    public mutating func write(_ document: Document) throws {
        try begin(header: document.header, schema: document.schema, history: document.history)
        for (entity, snapshots) in DocumentEncoder.groupedByEntity(document.orderedSnapshots, schema: document.schema)
        where !snapshots.isEmpty {
            try beginEntity(entity)
            for snapshot in snapshots { try add(snapshot) }
            try endEntity()
        }
        try finish()
    }
}

/// The stream writer of a text format: the shared ``DocumentStreamEncoder`` over the format's
/// ``DrainableStructuredWriter``, emptied into the sink whenever a piece is full.
public struct StructuredDocumentStreamWriter<Writer: DrainableStructuredWriter>: DocumentStreamWriter {
    private var writer: Writer
    private var encoder: DocumentStreamEncoder?
    private let sink: DocumentByteSink
    /// Checks each snapshot once it is written into the buffer, before the buffer goes to the
    /// sink (a format's own limits, which its writer may track); throws to refuse it.
    private let check: ((() -> DefaultSnapshot, inout Writer) throws -> Void)?

    /// A stream writer over `writer`, handing bytes to `sink`. `check` gets the snapshot on
    /// demand (it is made from a record only when asked for).
    public init(
        writer: Writer, sink: @escaping DocumentByteSink,
        check: ((() -> DefaultSnapshot, inout Writer) throws -> Void)? = nil
    ) {
        self.writer = writer
        self.sink = sink
        self.check = check
    }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory) throws {
        // Emptied as the history is written too: a bulk insert's transaction lists a change
        // per model (70 MB of JSON for 700,000), which would otherwise be buffered whole.
        try begin(header: header, schema: schema, history: history, changes: { _, _ in })
    }

    public mutating func begin(
        header: DocumentHeader, schema: Schema, history: DocumentHistory, changes: HistoryChangeStream
    ) throws {
        var encoder = DocumentStreamEncoder(schema: schema)
        let sink = sink
        try encoder.begin(
            header: header, history: history, changes: changes,
            afterChange: { writer in
                if writer.bufferedByteCount >= Self.pieceSize { try writer.drain(into: sink) }
            }, to: &writer)
        self.encoder = encoder
        try drainIfFull()
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {
        try encoder!.beginEntity(entity.name, to: &writer)
    }

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        try encoder!.add(snapshot, to: &writer)
        try check?({ snapshot }, &writer)
        try drainIfFull()
    }

    public mutating func add(record: consuming SnapshotRecord) throws {
        try encoder!.add(record: record, to: &writer)
        try check?({ record.snapshot }, &writer)
        try drainIfFull()
    }

    public mutating func endEntity() throws {
        encoder!.endEntity(to: &writer)
    }

    public mutating func finish() throws {
        encoder!.finish(to: &writer)
        try writer.drain(into: sink)
    }

    private mutating func drainIfFull() throws {
        if writer.bufferedByteCount >= Self.pieceSize { try writer.drain(into: sink) }
    }
}
