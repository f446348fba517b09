import Foundation

/// What changes from one schema to another: which entities and properties of the new schema
/// come from which of the old one (by name, or through `originalName`), and every difference,
/// each saying whether a lightweight migration makes it on its own.
///
/// Matching follows SwiftData's inference: an entity or property keeps its name, or names the
/// one it was in `originalName`; an entity or property of the old schema that nothing matches
/// was removed; one of the new schema that matches nothing was added.
public struct SchemaDifference: Hashable, Sendable {
    /// The schema migrated from.
    public let source: Schema
    /// The schema migrated to.
    public let destination: Schema
    /// Every difference, entity by entity in the new schema's order, then the removed entities.
    public let changes: [SchemaChange]
    /// For each entity of the new schema that existed before, the name it had.
    public let entitySources: [String: String]
    /// For each entity of the new schema that existed before, each of its properties that
    /// existed before and the name it had.
    public let propertySources: [String: [String: String]]

    /// Compares `source` with `destination`.
    public init(from source: Schema, to destination: Schema) {
        self.source = source
        self.destination = destination
        var changes: [SchemaChange] = []
        var entitySources: [String: String] = [:]
        var propertySources: [String: [String: String]] = [:]
        let oldByName = source.entitiesByName
        let newNames = Set(destination.entities.map(\.name))
        var claimed: Set<String> = []
        // Entities: by name first, then through originalName (a later version keeps the
        // original name it once needed, so the name wins when both match).
        for entity in destination.entities where oldByName[entity.name] != nil {
            entitySources[entity.name] = entity.name
            claimed.insert(entity.name)
        }
        for entity in destination.entities where entitySources[entity.name] == nil {
            if let original = entity.originalName, oldByName[original] != nil, !claimed.contains(original),
                !newNames.contains(original)
            {
                entitySources[entity.name] = original
                claimed.insert(original)
            }
        }
        let removed = source.entities.filter { !claimed.contains($0.name) }
        var renamedWithoutOriginalName: [String: String] = [:]
        for entity in destination.entities where entitySources[entity.name] == nil {
            // An added entity whose attributes are exactly those of a removed one is that
            // entity renamed, only without the originalName that would say so.
            if !entity.attributes.isEmpty,
                let lookalike = removed.first(where: {
                    Self.attributeSignature($0) == Self.attributeSignature(entity)
                        && !renamedWithoutOriginalName.values.contains($0.name)
                })
            {
                renamedWithoutOriginalName[entity.name] = lookalike.name
            }
        }
        for entity in destination.entities {
            guard let sourceName = entitySources[entity.name], let old = oldByName[sourceName] else {
                if let lookalike = renamedWithoutOriginalName[entity.name] {
                    changes.append(SchemaChange(entity: entity.name, kind: .entityRenamedWithoutOriginalName(from: lookalike)))
                } else {
                    changes.append(SchemaChange(entity: entity.name, kind: .entityAdded))
                }
                continue
            }
            if sourceName != entity.name {
                changes.append(SchemaChange(entity: entity.name, kind: .entityRenamed(from: sourceName)))
            }
            var sources: [String: String] = [:]
            changes += Self.attributeChanges(from: old, to: entity, sources: &sources)
            changes += Self.relationshipChanges(
                from: old, to: entity, entitySources: entitySources, sources: &sources)
            propertySources[entity.name] = sources
        }
        // Relationships' inverses and constraints need every entity's property sources.
        for entity in destination.entities {
            guard let sourceName = entitySources[entity.name], let old = oldByName[sourceName] else { continue }
            let sources = propertySources[entity.name] ?? [:]
            for relationship in entity.relationships {
                guard let oldName = sources[relationship.name], let oldRelationship = old.relationship(named: oldName)
                else { continue }
                // By the inverse's old name; an inverse that is new cannot have been the old one.
                let inverseSource = relationship.inverseName.map {
                    propertySources[relationship.destination]?[$0] ?? "\u{0}new:" + $0
                }
                if inverseSource != oldRelationship.inverseName {
                    changes.append(
                        SchemaChange(
                            entity: entity.name, property: relationship.name,
                            kind: .inverseChanged(from: oldRelationship.inverseName, to: relationship.inverseName)))
                }
            }
            changes += Self.listChanges(
                old.uniquenessConstraints, entity.uniquenessConstraints, sources: sources, entity: entity.name,
                added: SchemaChange.Kind.uniquenessConstraintAdded, removed: SchemaChange.Kind.uniquenessConstraintRemoved)
            changes += Self.listChanges(
                old.indices, entity.indices, sources: sources, entity: entity.name,
                added: SchemaChange.Kind.indexAdded, removed: SchemaChange.Kind.indexRemoved)
        }
        for entity in removed where !renamedWithoutOriginalName.values.contains(entity.name) {
            changes.append(SchemaChange(entity: entity.name, kind: .entityRemoved))
        }
        self.changes = changes
        self.entitySources = entitySources
        self.propertySources = propertySources
    }

    /// Whether a lightweight migration makes every change (refusing, still, to add a
    /// uniqueness constraint that existing models break).
    public var isLightweight: Bool { changes.allSatisfy(\.isLightweight) }

    /// The changes a lightweight migration cannot make.
    public var changesNeedingCustomStage: [SchemaChange] { changes.filter { !$0.isLightweight } }

    /// Whether the schemas differ at all, their versions aside.
    public var isEmpty: Bool { changes.isEmpty }

    private static func attributeSignature(_ entity: Schema.Entity) -> [String] {
        entity.attributes.map { "\($0.name):\($0.type.name)" }.sorted()
    }

    private static func attributeChanges(
        from old: Schema.Entity, to new: Schema.Entity, sources: inout [String: String]
    ) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let newNames = Set(new.attributes.map(\.name))
        var claimed: Set<String> = []
        for attribute in new.attributes where old.attribute(named: attribute.name) != nil {
            sources[attribute.name] = attribute.name
            claimed.insert(attribute.name)
        }
        for attribute in new.attributes where sources[attribute.name] == nil {
            guard let original = attribute.originalName, old.attribute(named: original) != nil,
                !claimed.contains(original), !newNames.contains(original)
            else { continue }
            sources[attribute.name] = original
            claimed.insert(original)
        }
        for attribute in new.attributes {
            func change(_ kind: SchemaChange.Kind) {
                changes.append(SchemaChange(entity: new.name, property: attribute.name, kind: kind))
            }
            let hasDefault = attribute.defaultValue.map { $0 != .null } ?? false
            guard let sourceName = sources[attribute.name], let before = old.attribute(named: sourceName) else {
                change(attribute.isOptional || hasDefault ? .attributeAdded : .requiredAttributeAddedWithoutDefault)
                if attribute.isUnique { change(.uniqueAdded) }
                continue
            }
            if sourceName != attribute.name { change(.attributeRenamed(from: sourceName)) }
            if before.type != attribute.type { change(.typeChanged(from: before.type, to: attribute.type)) }
            if before.isOptional && !attribute.isOptional { change(hasDefault ? .madeRequired : .madeRequiredWithoutDefault) }
            if !before.isOptional && attribute.isOptional { change(.madeOptional) }
            if (before.defaultValue ?? .null) != (attribute.defaultValue ?? .null) { change(.defaultValueChanged) }
            if !before.isUnique && attribute.isUnique { change(.uniqueAdded) }
            if before.isUnique && !attribute.isUnique { change(.uniqueRemoved) }
            if before.usesExternalStorage != attribute.usesExternalStorage {
                change(.externalStorageChanged(isExternal: attribute.usesExternalStorage))
            }
            let transformerBefore = before.options.first { $0.rawValue.hasPrefix("transformable:") }?.rawValue.dropFirst(14)
            let transformerAfter = attribute.options.first { $0.rawValue.hasPrefix("transformable:") }?.rawValue.dropFirst(14)
            if transformerBefore != transformerAfter {
                change(.transformerChanged(from: transformerBefore.map(String.init), to: transformerAfter.map(String.init)))
            }
            let handled: Set<Schema.Attribute.Option> = [.unique, .externalStorage]
            let optionsBefore = Set(before.options.filter { !handled.contains($0) && !$0.rawValue.hasPrefix("transformable:") })
            let optionsAfter = Set(attribute.options.filter { !handled.contains($0) && !$0.rawValue.hasPrefix("transformable:") })
            if optionsBefore != optionsAfter {
                change(
                    .optionsChanged(
                        added: optionsAfter.subtracting(optionsBefore).map(\.rawValue).sorted(),
                        removed: optionsBefore.subtracting(optionsAfter).map(\.rawValue).sorted()))
            }
            if before.hashModifier != attribute.hashModifier { change(.hashModifierChanged) }
        }
        for attribute in old.attributes where !claimed.contains(attribute.name) {
            changes.append(SchemaChange(entity: new.name, property: attribute.name, kind: .attributeRemoved))
        }
        return changes
    }

    private static func relationshipChanges(
        from old: Schema.Entity, to new: Schema.Entity, entitySources: [String: String], sources: inout [String: String]
    ) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let newNames = Set(new.relationships.map(\.name))
        var claimed: Set<String> = []
        for relationship in new.relationships where old.relationship(named: relationship.name) != nil {
            sources[relationship.name] = relationship.name
            claimed.insert(relationship.name)
        }
        for relationship in new.relationships where sources[relationship.name] == nil {
            guard let original = relationship.originalName, old.relationship(named: original) != nil,
                !claimed.contains(original), !newNames.contains(original)
            else { continue }
            sources[relationship.name] = original
            claimed.insert(original)
        }
        for relationship in new.relationships {
            func change(_ kind: SchemaChange.Kind) {
                changes.append(SchemaChange(entity: new.name, property: relationship.name, kind: kind))
            }
            guard let sourceName = sources[relationship.name], let before = old.relationship(named: sourceName) else {
                change(.relationshipAdded)
                continue
            }
            if sourceName != relationship.name { change(.relationshipRenamed(from: sourceName)) }
            if entitySources[relationship.destination] != before.destination {
                change(.destinationChanged(from: before.destination, to: relationship.destination))
            }
            if before.isToMany != relationship.isToMany { change(.cardinalityChanged(isToMany: relationship.isToMany)) }
            if before.deleteRule != relationship.deleteRule {
                change(.deleteRuleChanged(from: before.deleteRule, to: relationship.deleteRule))
            }
            if before.minimumModelCount != relationship.minimumModelCount
                || before.maximumModelCount != relationship.maximumModelCount
            {
                change(.modelCountChanged)
            }
        }
        for relationship in old.relationships where !claimed.contains(relationship.name) {
            changes.append(SchemaChange(entity: new.name, property: relationship.name, kind: .relationshipRemoved))
        }
        return changes
    }

    /// Added and removed name lists (constraints, indexes), compared by the old names of their
    /// properties, in any order.
    private static func listChanges(
        _ old: [[String]], _ new: [[String]], sources: [String: String], entity: String,
        added: ([String]) -> SchemaChange.Kind, removed: ([String]) -> SchemaChange.Kind
    ) -> [SchemaChange] {
        let oldKeys = Set(old.map { $0.sorted() })
        // A list naming a property that is new cannot have existed before.
        let newKeys = new.map { list in list.map { sources[$0] ?? "\u{0}new:" + $0 }.sorted() }
        var changes: [SchemaChange] = []
        for (list, key) in zip(new, newKeys) where !oldKeys.contains(key) {
            changes.append(SchemaChange(entity: entity, kind: added(list)))
        }
        let kept = Set(newKeys)
        for list in old where !kept.contains(list.sorted()) {
            changes.append(SchemaChange(entity: entity, kind: removed(list)))
        }
        return changes
    }
}
