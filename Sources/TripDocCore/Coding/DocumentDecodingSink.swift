import Foundation

/// Where ``DocumentDecoder`` hands a document as it reads it: the header, schema and history
/// first, then the snapshots one at a time, entity by entity, so that nothing but the snapshot
/// in hand need be in memory.
///
/// The calls come in this order: ``begin(header:schema:history:)`` once; for each entity the
/// document lists, ``beginEntity(_:)``, ``add(_:)`` per snapshot in document order, and
/// ``endEntity(_:count:)``; and ``lateHistory(_:)`` when the document lists its history after
/// its snapshots (tripdoc writes it before them). An error a sink throws stops the reading and
/// reaches the caller unchanged.
public protocol DocumentDecodingSink {
    /// The header and schema (already checked against each other), and the history when the
    /// document lists it before its snapshots (`nil` when it comes after them or not at all).
    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws
    /// The snapshots of `entity` follow.
    mutating func beginEntity(_ entity: Schema.Entity) throws
    /// The next snapshot, in document order.
    mutating func add(_ snapshot: DefaultSnapshot) throws
    /// The next snapshot as the reader decoded it, in document order. By default its
    /// ``SnapshotRecord/snapshot`` goes to ``add(_:)``; a sink that passes snapshots on (a
    /// conversion) takes the record and never makes the dictionary. The record is the sink's
    /// to keep (or hand on) without a copy.
    mutating func add(record: consuming SnapshotRecord) throws
    /// The snapshots of `entity` are done; the document holds `count` (more than were handed
    /// over when ``wantsMoreSnapshots`` said no).
    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws
    /// The history, when the document lists it after the snapshots.
    mutating func lateHistory(_ history: DocumentHistory) throws
    /// Whether the sink wants the history at all (default `true`). When it does not, a reader
    /// may skip it (read for its syntax only; a bundle does not even inflate its entry):
    /// ``begin(header:schema:history:)`` is then given `nil` and ``lateHistory(_:)`` is not
    /// called. A reader that does not skip it hands it over as usual.
    var wantsHistory: Bool { get }
    /// Whether the sink wants only where the history stands (default `false`; asked only when
    /// ``wantsHistory``): the identifier the next transaction gets, which is all a save
    /// appended to a journal needs of it. A reader that honours it reads the transactions'
    /// identifiers only (the rest for its syntax) and hands over a history without
    /// transactions whose ``DocumentHistory/deletedThrough`` is the newest identifier (or the
    /// document's `deletedThrough`, when larger); one that does not hands over the whole
    /// history, whose ``DocumentHistory/nextTransactionIdentifier`` is the same.
    var wantsHistoryPositionOnly: Bool { get }
    /// Whether the sink, though it does not want the history (``wantsHistory`` is `false`),
    /// takes where the history stands when the reader knows it without reading the history
    /// (default `false`): a bundle whose manifest records it. Such a reader then hands
    /// ``begin(header:schema:history:)`` the history ``wantsHistoryPositionOnly`` would have
    /// (no transactions, its ``DocumentHistory/deletedThrough`` the last identifier); a reader
    /// that would have to read the history to know it hands over `nil`, as to any sink that
    /// does not want it.
    var takesHistoryPositionWhenKnown: Bool { get }
    /// Whether the sink takes the history through ``lateHistory(_:)`` whatever the document's
    /// order (default `false`): ``begin(header:schema:history:)`` is then given `nil` and the
    /// history comes after the snapshots, and a reader may decode it on another core while it
    /// decodes the snapshots.
    var acceptsLateHistory: Bool { get }
    /// Whether the sink wants the snapshots of `entity` at all (default `true`). A reader skips
    /// the snapshots of an entity it is not wanted for: no calls are made for it, and a bundle
    /// does not even inflate its entry.
    func wantsSnapshots(of entity: Schema.Entity) -> Bool
    /// Whether the sink wants more snapshots of the current entity (default `true`); asked
    /// before each one. Once it says no, the reader skips the rest of the entity's snapshots
    /// (counting them, not decoding them) and ends the entity.
    /// (Mutating only so that a reader asks it without copying the sink.)
    var wantsMoreSnapshots: Bool { mutating get }
    /// The primary key of a snapshot skipped after ``wantsMoreSnapshots`` said no (`nil` when
    /// it has none), so that a sink relying on document order can tell it was not (default:
    /// nothing).
    mutating func skipped(primaryKey: String?) throws
}

extension DocumentDecodingSink {
    public mutating func add(record: consuming SnapshotRecord) throws {
        try add(record.snapshot)
    }

    public func wantsSnapshots(of entity: Schema.Entity) -> Bool { true }
    public var wantsHistory: Bool { true }
    public var wantsHistoryPositionOnly: Bool { false }
    public var takesHistoryPositionWhenKnown: Bool { false }
    public var acceptsLateHistory: Bool { false }
    public var wantsMoreSnapshots: Bool { true }
    public mutating func skipped(primaryKey: String?) throws {}
}

/// The sink that keeps everything: the whole ``Document``.
public struct DocumentCollector: DocumentDecodingSink {
    /// The document, once ``begin(header:schema:history:)`` has been called.
    public var document: Document?

    /// An empty collector.
    public init() {}

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        document = Document(header: header, schema: schema, history: history ?? DocumentHistory())
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {}

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        document!.snapshots.append(snapshot)
    }

    public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}

    public mutating func lateHistory(_ history: DocumentHistory) throws {
        document!.history = history
    }

    /// The collector takes the history whenever it comes.
    public var acceptsLateHistory: Bool { true }
}
