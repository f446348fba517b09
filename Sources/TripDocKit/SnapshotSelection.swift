import Foundation
import TripDoc

/// What `tripdoc show` keeps of a document read piece by piece: the header and schema, and the
/// snapshots it shows of each entity, with each entity's total. The readers skip the rest: other
/// entities are not decoded (nor, in a bundle, inflated), and without a condition or an order an
/// entity's snapshots past the limit are only counted.
///
/// With a condition (``condition``, `--where`) or wanted identifiers (``wantedKeys``, `--id`),
/// only the snapshots that match are kept, and ``matches`` counts them all. With an order
/// (``order``, `--sort`), the first `limit` in that order are kept, whatever the document order:
/// memory holds `limit` snapshots, not the entity.
///
/// Without an order, snapshots are kept in document order, which is primary-key order in every
/// document tripdoc writes; for a document that is not in that order, ``add(_:)`` throws
/// ``OutOfOrder`` and the caller reads the whole document instead (``select(from:)``).
public struct SnapshotSelection: DocumentDecodingSink {
    /// Thrown when the document's snapshots are not in primary-key order.
    public struct OutOfOrder: Error {}

    /// The entity to show (`nil` for all).
    public let entityName: String?
    /// How many snapshots of each entity to keep (`nil` for all).
    public let limit: Int?
    /// The condition a snapshot of ``entityName`` must meet to be kept.
    public var condition: SnapshotQuery?
    /// The order to keep the snapshots of ``entityName`` in.
    public var order: SnapshotOrder?
    /// The only snapshots to keep: primary keys by entity name (`nil` for all).
    public var wantedKeys: [String: Set<String>]?
    /// The snapshots ``condition`` and ``order`` read through to-one relationships.
    public var related = RelatedSnapshots()
    /// The document's header and schema, once read.
    public private(set) var header: DocumentHeader?
    /// The document's schema, once read.
    public private(set) var schema: Schema?
    /// The kept snapshots by entity name, how many each entity has, and how many met the
    /// condition and wanted keys (all of them when there are none).
    public private(set) var snapshots: [String: [DefaultSnapshot]] = [:]
    /// How many snapshots each entity has, by entity name.
    public private(set) var totals: [String: Int] = [:]
    /// How many of each entity's snapshots met the condition and the wanted keys, by entity name.
    public private(set) var matches: [String: Int] = [:]
    /// The entity being read: its name, how many of its snapshots were kept, the last primary key.
    private var current: (name: String, kept: Int, lastKey: String?)?

    /// A selection of `entityName` (or every entity), `limit` snapshots each (or all).
    public init(entityName: String?, limit: Int?) {
        self.entityName = entityName
        self.limit = limit
    }

    /// Whether every snapshot has to be decoded (to test it or to order it).
    private var testsEverySnapshot: Bool { condition != nil || order != nil || wantedKeys != nil }

    /// Whether the kept snapshots are a subset chosen by a condition or wanted keys.
    public var isFiltered: Bool { condition != nil || wantedKeys != nil }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        self.header = header
        self.schema = schema
    }

    public func wantsSnapshots(of entity: Schema.Entity) -> Bool {
        if let wantedKeys { return wantedKeys[entity.name] != nil }
        return entityName == nil || entity.name == entityName
    }

    public var wantsMoreSnapshots: Bool {
        guard let limit, let current, !testsEverySnapshot else { return true }
        return current.kept < limit
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {
        current = (entity.name, 0, nil)
    }

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        guard var entity = current else { return }
        defer { current = entity }
        if order == nil {
            try entity.lastKey = checkedOrder(snapshot.persistentIdentifier.primaryKey, after: entity.lastKey)
        }
        if let wantedKeys, wantedKeys[entity.name]?.contains(snapshot.persistentIdentifier.primaryKey) != true { return }
        if let condition, condition.entityName == entity.name, !condition.matches(snapshot, related: related) { return }
        if testsEverySnapshot { matches[entity.name, default: 0] += 1 }
        if let order, order.entityName == entity.name {
            keepInOrder(snapshot, order: order, entity: entity.name)
        } else if limit.map({ entity.kept < $0 }) ?? true {
            snapshots[entity.name, default: []].append(snapshot)
        } else {
            return
        }
        entity.kept = snapshots[entity.name]?.count ?? 0
    }

    /// Inserts `snapshot` where `order` puts it (after those it ties with), then drops the last
    /// one past the limit.
    private mutating func keepInOrder(_ snapshot: DefaultSnapshot, order: SnapshotOrder, entity: String) {
        var kept = snapshots[entity, default: []]
        snapshots[entity] = nil  // no second reference while it changes
        if let limit, kept.count == limit, let last = kept.last, !order.precedes(snapshot, last, related: related) {
            snapshots[entity] = kept
            return
        }
        var low = 0
        var high = kept.count
        while low < high {
            let middle = (low + high) / 2
            if order.precedes(snapshot, kept[middle], related: related) { high = middle } else { low = middle + 1 }
        }
        kept.insert(snapshot, at: low)
        if let limit, kept.count > limit { kept.removeLast() }
        snapshots[entity] = kept
    }

    /// Snapshots past the limit are only counted, but one that comes before the last one kept
    /// means the document is not in order, and the first ones kept are not the first ones.
    public mutating func skipped(primaryKey: String?) throws {
        guard let primaryKey, var entity = current else { return }
        try entity.lastKey = checkedOrder(primaryKey, after: entity.lastKey)
        current = entity
    }

    /// `key`, unless it comes before `last` in primary-key order.
    private func checkedOrder(_ key: String, after last: String?) throws -> String {
        if let last, PrimaryKeyOrder.precedes(key, last) { throw OutOfOrder() }
        return key
    }

    public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
        totals[entity.name, default: 0] += count
        if !testsEverySnapshot { matches[entity.name, default: 0] += count }
        current = nil
    }

    public mutating func lateHistory(_ history: DocumentHistory) throws {}

    /// Selects from a document already in memory (one whose snapshots were out of order),
    /// entity by entity in primary-key order.
    public mutating func select(from document: Document) throws {
        try begin(header: document.header, schema: document.schema, history: nil)
        let ordered = Dictionary(grouping: document.orderedSnapshots, by: \.entityName)
        for entity in document.schema.entities where wantsSnapshots(of: entity) {
            try beginEntity(entity)
            let all = ordered[entity.name] ?? []
            for snapshot in all {
                if wantsMoreSnapshots { try add(snapshot) } else { try skipped(primaryKey: snapshot.persistentIdentifier.primaryKey) }
            }
            try endEntity(entity, count: all.count)
        }
    }

    /// The kept snapshots as a document (header, schema, snapshots; no history).
    public var document: Document? {
        guard let header, let schema else { return nil }
        return Document(
            header: header, schema: schema,
            snapshots: schema.entities.flatMap { snapshots[$0.name] ?? [] })
    }
}
