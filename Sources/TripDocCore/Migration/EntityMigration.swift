import Foundation

/// How the models of one entity migrate: where each new property's value comes from, what
/// fills a property that has none, and which uniqueness constraints must be checked.
final class EntityMigration: Sendable {
    /// What a property of the new entity gets, in the new coding plan's order.
    enum Step: Sendable {
        /// The old value at this place.
        case copy(Int)
        /// The old value at this place, or `fill` when it is `nil`.
        case copyFilling(Int, SnapshotValue)
        /// Always this value (a property that is new).
        case fill(SnapshotValue)
    }

    let oldName: String
    /// The entity in the new schema.
    let entity: Schema.Entity
    let plan: EntityCodingPlan
    /// For each property of the new entity that existed, its old name.
    let sources: [String: String]
    /// For each property of the old entity that is kept, its new name.
    let newNames: [String: String]
    /// What replaces `nil` for a property of the new entity.
    let fills: [String: SnapshotValue]
    /// The constraints being added, by new property names.
    let uniqueness: [[String]]
    /// The relationships of the new entity, by name.
    let relationshipNames: Set<String>
    /// The properties every migrated model must have a value for (made or added required
    /// without a default), each with its place in ``plan`` and the change that needs it.
    let valuesNeeded: [(index: Int, name: String, change: SchemaChange)]

    init(
        old: Schema.Entity, new: Schema.Entity, sources: [String: String], uniqueness: [[String]],
        valuesNeeded: [SchemaChange] = []
    ) {
        oldName = old.name
        entity = new
        let plan = EntityCodingPlan(new)
        self.plan = plan
        self.sources = sources
        newNames = Dictionary(sources.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        var fills: [String: SnapshotValue] = [:]
        for attribute in new.attributes {
            let defaultValue = attribute.defaultValue ?? .null
            // A new attribute takes its default; a kept one only where it may not be nil.
            if defaultValue != .null, sources[attribute.name] == nil || !attribute.isOptional {
                fills[attribute.name] = defaultValue
            }
        }
        for relationship in new.relationships where relationship.isToMany { fills[relationship.name] = .references([]) }
        self.fills = fills
        self.uniqueness = uniqueness
        relationshipNames = Set(new.relationships.map(\.name))
        self.valuesNeeded = valuesNeeded.compactMap { change in
            guard let name = change.property, let index = plan.propertiesInKeyOrder.firstIndex(where: { $0.name == name })
            else { return nil }
            return (index, name, change)
        }
    }

    /// The first change whose property has no value among `value(index, name)`, the values of a
    /// migrated model.
    func changeMissingAValue(_ value: (Int, String) -> SnapshotValue?) -> SchemaChange? {
        valuesNeeded.first { needed in (value(needed.index, needed.name) ?? .null) == .null }?.change
    }

    /// `identifier` under the new entity name.
    func migrated(_ identifier: PersistentIdentifier) -> PersistentIdentifier {
        guard oldName != entity.name else { return identifier }
        return PersistentIdentifier(store: identifier.store, entity: plan.internedName, primaryKey: identifier.primaryKey)
    }

    /// Attribute values (of an update or a tombstone) under their new names, removed ones left out.
    func migratedAttributeValues(_ values: [String: SnapshotValue]) -> [String: SnapshotValue] {
        var result: [String: SnapshotValue] = [:]
        for (name, value) in values {
            if let newName = newNames[name] { result[newName] = value }
        }
        return result
    }

    /// The steps that turn a record laid out by `oldPlan` into one of ``plan``.
    func steps(from oldPlan: EntityCodingPlan) -> [Step] {
        plan.propertiesInKeyOrder.map { property in
            let fill = fills[property.name]
            guard let oldName = sources[property.name], let old = oldPlan.propertiesByName[oldName] else {
                return .fill(fill ?? .null)
            }
            return fill.map { .copyFilling(old.index, $0) } ?? .copy(old.index)
        }
    }
}
