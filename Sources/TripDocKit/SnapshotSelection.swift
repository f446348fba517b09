import Foundation
import TripDoc

/// What `tripdoc show` keeps of a document read piece by piece: the header and schema, and the
/// first `limit` snapshots of each entity it shows, with each entity's total. The readers skip
/// the rest: other entities are not decoded (nor, in a bundle, inflated), and an entity's
/// snapshots past the limit are only counted.
///
/// Snapshots are kept in document order, which is primary-key order in every document tripdoc
/// writes; for a document that is not in that order, ``add(_:)`` throws ``OutOfOrder`` and the
/// caller reads the whole document instead.
public struct SnapshotSelection: DocumentDecodingSink {
    /// Thrown when the document's snapshots are not in primary-key order.
    public struct OutOfOrder: Error {}

    /// The entity to show (`nil` for all).
    public let entityName: String?
    /// How many snapshots of each entity to keep (`nil` for all).
    public let limit: Int?
    /// The document's header and schema, once read.
    public private(set) var header: DocumentHeader?
    public private(set) var schema: Schema?
    /// The kept snapshots by entity name, and how many each entity has.
    public private(set) var snapshots: [String: [DefaultSnapshot]] = [:]
    public private(set) var totals: [String: Int] = [:]
    /// The entity being read: its name, how many of its snapshots were kept, the last primary key.
    private var current: (name: String, kept: Int, lastKey: String?)?

    /// A selection of `entityName` (or every entity), `limit` snapshots each (or all).
    public init(entityName: String?, limit: Int?) {
        self.entityName = entityName
        self.limit = limit
    }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        self.header = header
        self.schema = schema
    }

    public func wantsSnapshots(of entity: Schema.Entity) -> Bool {
        entityName == nil || entity.name == entityName
    }

    public var wantsMoreSnapshots: Bool {
        guard let limit, let current else { return true }
        return current.kept < limit
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {
        current = (entity.name, 0, nil)
    }

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        guard var entity = current else { return }
        try entity.lastKey = checkedOrder(snapshot.persistentIdentifier.primaryKey, after: entity.lastKey)
        snapshots[entity.name, default: []].append(snapshot)
        entity.kept += 1
        current = entity
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
        current = nil
    }

    public mutating func lateHistory(_ history: DocumentHistory) throws {}

    /// The kept snapshots as a document (header, schema, snapshots; no history).
    public var document: Document? {
        guard let header, let schema else { return nil }
        return Document(
            header: header, schema: schema,
            snapshots: schema.entities.flatMap { snapshots[$0.name] ?? [] })
    }
}
