import Foundation

/// A document with its snapshots kept as records (``SnapshotRecord``), entity by entity, each
/// entity's in primary-key order: what comparing two large documents holds. A record keeps its
/// values by position, so this takes about half the memory of ``Document``'s dictionaries, and
/// reading one does not hash every property name of every snapshot.
///
/// Read one with ``DocumentRecordCollector``, or make one of a ``Document`` in memory.
public struct DocumentRecords: Sendable {
    /// What the document says about itself.
    public var header: DocumentHeader
    /// The entities the snapshots follow.
    public var schema: Schema
    /// Every save's transaction, oldest first.
    public var history: DocumentHistory
    /// Each entity's records, in primary-key order.
    private var recordsByEntity: [String: [SnapshotRecord]]

    /// The store identifier, from the header.
    public var storeIdentifier: String { header.storeIdentifier }

    /// The records of `entity`, in primary-key order (none for an entity the schema lacks), all
    /// laid out alike: a ``SnapshotRecord/position(of:)`` of one is good for all.
    public func records(of entity: String) -> [SnapshotRecord] { recordsByEntity[entity] ?? [] }

    /// The record of the model `identifier` names, if the document holds it: found by its
    /// primary key in its entity's order, without a table of every record.
    public func record(for identifier: PersistentIdentifier) -> SnapshotRecord? {
        let records = records(of: identifier.entityName)
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if PrimaryKeyOrder.precedes(records[middle].primaryKey, identifier.primaryKey) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low < records.count, records[low].persistentIdentifier == identifier else { return nil }
        return records[low]
    }

    /// The records of `document`'s snapshots; snapshots of entities its schema lacks, and
    /// values of properties their entity lacks, are left out, and a property a snapshot lacks is
    /// nil. A record names its snapshot by store, entity and primary key (a temporary
    /// identifier, which no document holds, loses its mark).
    public init(_ document: Document) {
        var collector = DocumentRecordCollector(header: document.header, schema: document.schema, history: document.history)
        for snapshot in document.snapshots { collector.collect(snapshot) }
        self = collector.finish()
    }

    init(header: DocumentHeader, schema: Schema, history: DocumentHistory, recordsByEntity: [String: [SnapshotRecord]]) {
        self.header = header
        self.schema = schema
        self.history = history
        self.recordsByEntity = recordsByEntity
    }
}
