import Foundation

/// A lightweight migration from one schema to another: a function from a document of the old
/// schema to a document of the new one, inferred from the two schemas as SwiftData infers it.
///
/// Every store and tool migrates through this one engine: the typed layer's migration plans
/// (between custom stages), `tripdoc migrate`, and any store that holds a ``Document``.
/// Renamed entities and properties are renamed everywhere, history included; removed ones go,
/// with their values; added ones get their default value (or `nil`, or no destinations).
/// The store identifier, the transactions and their identifiers stay, so history tokens keep
/// working across the migration.
///
/// ```swift
/// let migration = try SchemaMigration(from: document.schema, to: newSchema)
/// let migrated = try migration.migrate(document)
/// ```
///
/// A document too large for memory migrates one snapshot at a time through
/// ``DocumentMigratingSink``.
public struct SchemaMigration: Sendable {
    /// The differences the migration makes, all of them lightweight.
    public let difference: SchemaDifference
    /// How each entity of the old schema that is kept migrates, by its old name.
    let entities: [String: EntityMigration]
    /// Whether an entity is renamed (references change with it).
    public let renamesEntities: Bool

    /// The schema migrated from.
    public var source: Schema { difference.source }
    /// The schema migrated to.
    public var destination: Schema { difference.destination }

    /// Infers the migration from `source` to `destination`.
    ///
    /// - Throws: ``SchemaMigrationError/invalidDestination(_:)`` when `destination` is not
    ///   consistent; ``SchemaMigrationError/notLightweight(from:to:changes:)`` naming every
    ///   change a lightweight migration cannot make. A change that needs a value in every model
    ///   (``SchemaChange/needsAValueInEveryModel``) is refused by ``migrate(_:)`` instead, and
    ///   only when a model of the document lacks the value.
    public init(from source: Schema, to destination: Schema) throws {
        do {
            try destination.validate()
        } catch let error as SchemaError {
            throw SchemaMigrationError.invalidDestination(error)
        }
        let difference = SchemaDifference(from: source, to: destination)
        // A change that needs a value in every model is checked model by model as they migrate.
        guard difference.changes.allSatisfy({ $0.isLightweight || $0.needsAValueInEveryModel }) else {
            throw SchemaMigrationError.notLightweight(
                from: source.version, to: destination.version, changes: difference.changesNeedingCustomStage)
        }
        self.difference = difference
        var entities: [String: EntityMigration] = [:]
        let oldByName = source.entitiesByName
        for entity in destination.entities {
            guard let oldName = difference.entitySources[entity.name], let old = oldByName[oldName] else { continue }
            let uniqueness = difference.changes.compactMap { change -> [String]? in
                guard change.entity == entity.name else { return nil }
                switch change.kind {
                case .uniqueAdded: return change.property.map { [$0] }
                case .uniquenessConstraintAdded(let names): return names
                default: return nil
                }
            }
            let valuesNeeded = difference.changes.filter { $0.entity == entity.name && $0.needsAValueInEveryModel }
            entities[oldName] = EntityMigration(
                old: old, new: entity, sources: difference.propertySources[entity.name] ?? [:], uniqueness: uniqueness,
                valuesNeeded: valuesNeeded)
        }
        self.entities = entities
        renamesEntities = difference.entitySources.contains { $0.key != $0.value }
    }

    /// The document migrated to ``destination``, same store, history kept.
    ///
    /// - Throws: ``SchemaMigrationError/documentSchemaMismatch(expected:found:)`` when the
    ///   document's schema is not ``source``; ``SchemaMigrationError/duplicateValues(entity:properties:duplicates:count:)``
    ///   when a uniqueness constraint being added is broken by existing models;
    ///   ``SchemaMigrationError/notLightweight(from:to:changes:)`` naming the change when a model
    ///   has no value for a property made required (or added required) without a default.
    public func migrate(_ document: Document) throws -> Document {
        var sink = DocumentMigratingSink(migration: self, next: DocumentCollector())
        try sink.begin(header: document.header, schema: document.schema, history: document.history)
        for (entity, snapshots) in DocumentEncoder.groupedByEntity(document.orderedSnapshots, schema: document.schema) {
            guard sink.wantsSnapshots(of: entity) else { continue }
            try sink.beginEntity(entity)
            for snapshot in snapshots { try sink.add(snapshot) }
            try sink.endEntity(entity, count: snapshots.count)
        }
        return sink.next.document!
    }

    /// The header of the migrated document: the new schema version, and the next primary keys
    /// of the entities kept, under their new names.
    public func migrated(_ header: DocumentHeader) -> DocumentHeader {
        var copy = header
        copy.schemaVersion = destination.version
        copy.generator = TripDocVersion.generator
        copy.nextPrimaryKeys = [:]
        for (name, key) in header.nextPrimaryKeys {
            guard let entity = entities[name] else { continue }
            copy.nextPrimaryKeys[entity.entity.name] = key
        }
        return copy
    }

    /// The history of the migrated document: the same transactions, identifiers and deletion
    /// point (so tokens stay valid); changes of removed entities left out, entities and
    /// properties renamed, removed properties left out of updates (and updates of nothing
    /// else) and tombstones.
    public func migrated(_ history: DocumentHistory) -> DocumentHistory {
        var copy = history
        copy.transactions = history.transactions.map { transaction in
            var migrated = transaction
            migrated.changes = transaction.changes.compactMap { self.migrated($0) }
            return migrated
        }
        return copy
    }

    /// One history change migrated, or `nil` when its entity was removed (or, for an update,
    /// every property it names).
    public func migrated(_ change: HistoryChangeRecord) -> HistoryChangeRecord? {
        let identifier = change.changedPersistentIdentifier
        guard let entity = entities[identifier.entityName] else { return nil }
        let newIdentifier = entity.migrated(identifier)
        switch change {
        case .insert:
            return .insert(newIdentifier)
        case .update(_, let names, let values):
            let kept = names.compactMap { entity.newNames[$0] }
            // An update of removed properties only is about nothing the document still holds.
            if kept.isEmpty, !names.isEmpty { return nil }
            return .update(newIdentifier, updatedAttributes: kept, values: entity.migratedAttributeValues(values))
        case .delete(_, let tombstone):
            return .delete(newIdentifier, tombstone: entity.migratedAttributeValues(tombstone))
        }
    }

    /// A reference's identifier under its entity's new name.
    func migratedReference(_ identifier: PersistentIdentifier) -> PersistentIdentifier {
        entities[identifier.entityName]?.migrated(identifier) ?? identifier
    }
}
