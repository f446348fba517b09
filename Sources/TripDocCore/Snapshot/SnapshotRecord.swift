import Foundation

/// A snapshot as the shared coding works on it: the primary key and the values in the order of
/// the entity's property names, with no dictionary, so that decoding, checking and encoding a
/// snapshot look its values up by position. A ``DefaultSnapshot`` is made from it on demand.
///
/// Readers hand records to sinks (``DocumentDecodingSink/add(record:)``); a sink that only
/// passes snapshots on (a conversion) never makes the dictionary.
public struct SnapshotRecord: Sendable {
    /// The entity's coding plan: the property names in key order.
    let plan: EntityCodingPlan
    /// The store the snapshot belongs to.
    let store: InternedName
    /// The store the snapshot belongs to.
    public var storeIdentifier: String { store.text }
    /// The model's primary key.
    public let primaryKey: String
    /// The values in the plan's key order; `.null` for a nil attribute or an empty to-one.
    let values: [SnapshotValue]
    /// Whether the values were decoded by the plan's types: each attribute's value fits its
    /// type, and every non-optional attribute has one. A check against the same schema need
    /// not look again.
    let valuesFitPlan: Bool

    init(
        plan: EntityCodingPlan, store: InternedName, primaryKey: String, values: [SnapshotValue],
        valuesFitPlan: Bool
    ) {
        self.plan = plan
        self.store = store
        self.primaryKey = primaryKey
        self.values = values
        self.valuesFitPlan = valuesFitPlan
    }

    /// The entity the snapshot belongs to.
    public var entityName: String { plan.name }

    /// The snapshot's identifier.
    public var persistentIdentifier: PersistentIdentifier {
        PersistentIdentifier(store: store, entity: plan.internedName, primaryKey: primaryKey)
    }

    /// The value of the property `name`, or `nil` when the entity has no such property.
    public subscript(name: String) -> SnapshotValue? {
        plan.propertiesByName[name].map { values[$0.index] }
    }

    /// Where the property `name` is among the record's values, or `nil` when its entity has no
    /// such property; with ``value(at:)``, a lookup by name made once for many records laid out
    /// alike (as ``DocumentRecords`` keeps each entity's).
    public func position(of name: String) -> Int? { plan.propertiesByName[name]?.index }

    /// The value at `position`.
    ///
    /// - Precondition: `position` is from ``position(of:)`` of a record laid out alike (of the
    ///   same entity in one ``DocumentRecords``).
    public func value(at position: Int) -> SnapshotValue {
        precondition(values.indices.contains(position), "position \(position) is not one of \(plan.name)'s properties")
        return values[position]
    }

    /// The snapshot with its values keyed by name.
    public var snapshot: DefaultSnapshot {
        if let layout = plan.snapshotLayout {
            return DefaultSnapshot(persistentIdentifier: persistentIdentifier, layout: layout, slots: values)
        }
        var dictionary: [String: SnapshotValue] = [:]
        dictionary.reserveCapacity(values.count)
        for property in plan.propertiesInKeyOrder { dictionary[property.name] = values[property.index] }
        return DefaultSnapshot(persistentIdentifier: persistentIdentifier, values: dictionary)
    }

    /// The record of `snapshot` in `plan`'s order, with the names of the properties it holds
    /// that the plan does not have (left out). Properties it lacks are `.null`.
    static func of(_ snapshot: DefaultSnapshot, plan: EntityCodingPlan) -> (record: SnapshotRecord, unknown: [String]) {
        if let layout = plan.snapshotLayout, snapshot.layout === layout {
            let record = SnapshotRecord(
                plan: plan, store: snapshot.persistentIdentifier.store ?? InternedName(""),
                primaryKey: snapshot.persistentIdentifier.primaryKey, values: snapshot.slots, valuesFitPlan: false)
            return (record, [])
        }
        var found = 0
        var values: [SnapshotValue] = []
        values.reserveCapacity(plan.propertiesInKeyOrder.count)
        for property in plan.propertiesInKeyOrder {
            if let value = snapshot[property.name] {
                values.append(value)
                found += 1
            } else {
                values.append(.null)
            }
        }
        let unknown =
            found == snapshot.count
            ? [] : snapshot.layout.names.filter { plan.propertiesByName[$0] == nil }.sorted()
        let record = SnapshotRecord(
            plan: plan, store: snapshot.persistentIdentifier.store ?? InternedName(""),
            primaryKey: snapshot.persistentIdentifier.primaryKey, values: values, valuesFitPlan: false)
        return (record, unknown)
    }
}
