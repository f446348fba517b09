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
    ///   change a lightweight migration cannot make.
    public init(from source: Schema, to destination: Schema) throws {
        do {
            try destination.validate()
        } catch let error as SchemaError {
            throw SchemaMigrationError.invalidDestination(error)
        }
        let difference = SchemaDifference(from: source, to: destination)
        guard difference.isLightweight else {
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
            entities[oldName] = EntityMigration(
                old: old, new: entity, sources: difference.propertySources[entity.name] ?? [:], uniqueness: uniqueness)
        }
        self.entities = entities
        renamesEntities = difference.entitySources.contains { $0.key != $0.value }
    }

    /// The document migrated to ``destination``, same store, history kept.
    ///
    /// - Throws: ``SchemaMigrationError/documentSchemaMismatch(expected:found:)`` when the
    ///   document's schema is not ``source``; ``SchemaMigrationError/duplicateValues(entity:properties:duplicates:count:)``
    ///   when a uniqueness constraint being added is broken by existing models.
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

    init(old: Schema.Entity, new: Schema.Entity, sources: [String: String], uniqueness: [[String]]) {
        oldName = old.name
        entity = new
        plan = EntityCodingPlan(new)
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

/// Migrates a document on its way from a reader to another sink, one snapshot at a time: the
/// header, schema and history when they come, each snapshot as it comes. Entities that were
/// removed are not read at all. Adding a uniqueness constraint keeps a table of the
/// constraint's values for the entity (only then).
///
/// The next sink gets entities in the old schema's order, under their new names: a renamed
/// entity may come out of the order a stream writer needs, which it then refuses with
/// ``DocumentStreamOrderError``.
public struct DocumentMigratingSink<Next: DocumentDecodingSink>: DocumentDecodingSink {
    /// Where the migrated document goes.
    public var next: Next
    /// The migration, once known: given, or inferred when the document's schema arrives.
    public private(set) var migration: SchemaMigration?
    /// The schema to infer a migration to, when none was given.
    private let destination: Schema?
    private var current: EntityMigration?
    /// The steps for records of the last plan seen, that plan, and whether they leave its
    /// records as they are (then records go on unchanged, not copied).
    private var steps: (plan: EntityCodingPlan, steps: [EntityMigration.Step], keepsRecords: Bool)?
    private var uniqueness: UniquenessTracker?

    /// A sink migrating with `migration` into `next`.
    public init(migration: SchemaMigration, next: Next) {
        self.migration = migration
        destination = nil
        self.next = next
    }

    /// A sink migrating into `next` with the lightweight migration from the document's schema
    /// (known when it arrives) to `destination`.
    public init(to destination: Schema, next: Next) {
        migration = nil
        self.destination = destination
        self.next = next
    }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        if migration == nil, let destination { migration = try SchemaMigration(from: schema, to: destination) }
        let migration = migration!
        guard schema == migration.source else {
            throw SchemaMigrationError.documentSchemaMismatch(expected: migration.source.version, found: schema.version)
        }
        try next.begin(
            header: migration.migrated(header), schema: migration.destination, history: history.map(migration.migrated))
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {
        current = migration!.entities[entity.name]
        guard let current else { return }
        uniqueness = current.uniqueness.isEmpty ? nil : UniquenessTracker(entity: current)
        try next.beginEntity(current.entity)
    }

    public mutating func add(_ snapshot: DefaultSnapshot) throws {
        guard let current else { return }
        var values: [String: SnapshotValue] = [:]
        values.reserveCapacity(current.plan.propertiesInKeyOrder.count)
        for property in current.plan.propertiesInKeyOrder {
            var value = current.sources[property.name].flatMap { snapshot.values[$0] } ?? .null
            if value == .null, let fill = current.fills[property.name] { value = fill }
            if let migration, migration.renamesEntities, current.relationshipNames.contains(property.name) {
                value = value.remappingReferences(migration.migratedReference)
            }
            values[property.name] = value
        }
        let migrated = DefaultSnapshot(persistentIdentifier: current.migrated(snapshot.persistentIdentifier), values: values)
        try uniqueness?.add(migrated.persistentIdentifier) { migrated.values[$0] ?? .null }
        try next.add(migrated)
    }

    public mutating func add(record: consuming SnapshotRecord) throws {
        guard let current else { return }
        if steps?.plan !== record.plan {
            let steps = current.steps(from: record.plan)
            let keepsRecords =
                !migration!.renamesEntities && steps.count == record.plan.propertiesInKeyOrder.count
                && steps.enumerated().allSatisfy { place, step in
                    if case .copy(let index) = step { index == place } else { false }
                }
            self.steps = (record.plan, steps, keepsRecords)
        }
        if steps!.keepsRecords, uniqueness == nil {
            // An entity whose properties are all kept as they were: its records go on as read.
            return try next.add(record: record)
        }
        let record = record
        let migration = migration!
        let renames = migration.renamesEntities
        let values = steps!.steps.map { step -> SnapshotValue in
            let value: SnapshotValue
            switch step {
            case .copy(let index): value = record.values[index]
            case .copyFilling(let index, let fill):
                if case .null = record.values[index] { value = fill } else { value = record.values[index] }
            case .fill(let fill): value = fill
            }
            return renames ? value.remappingReferences(migration.migratedReference) : value
        }
        let migrated = SnapshotRecord(
            plan: current.plan, store: record.store, primaryKey: record.primaryKey, values: values,
            valuesFitPlan: record.valuesFitPlan)
        try uniqueness?.add(migrated.persistentIdentifier) { migrated[$0] ?? .null }
        try next.add(record: migrated)
    }

    public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
        guard let current else { return }
        try uniqueness?.finish()
        uniqueness = nil
        try next.endEntity(current.entity, count: count)
    }

    public mutating func lateHistory(_ history: DocumentHistory) throws {
        try next.lateHistory(migration!.migrated(history))
    }

    public func wantsSnapshots(of entity: Schema.Entity) -> Bool {
        guard let migrated = migration?.entities[entity.name] else { return false }
        return next.wantsSnapshots(of: migrated.entity)
    }

    public var wantsMoreSnapshots: Bool {
        mutating get { next.wantsMoreSnapshots }
    }

    public mutating func skipped(primaryKey: String?) throws {
        try next.skipped(primaryKey: primaryKey)
    }
}

/// The values of the uniqueness constraints being added to one entity, and the models that
/// share them (models with a `nil` among the values share nothing, as in the integrity check).
struct UniquenessTracker {
    let entity: EntityMigration
    private var duplicates: [[SchemaMigrationError.DuplicatePair]]
    private var counts: [Int]
    private var tables: [[[SnapshotValue]: PersistentIdentifier]]
    /// How many pairs an error names.
    static let named = 5

    init(entity: EntityMigration) {
        self.entity = entity
        duplicates = Array(repeating: [], count: entity.uniqueness.count)
        counts = Array(repeating: 0, count: entity.uniqueness.count)
        tables = Array(repeating: [:], count: entity.uniqueness.count)
    }

    mutating func add(_ identifier: PersistentIdentifier, value: (String) -> SnapshotValue) throws {
        for (index, constraint) in entity.uniqueness.enumerated() {
            let key = constraint.map(value)
            if key.contains(.null) { continue }
            if let first = tables[index][key] {
                counts[index] += 1
                if duplicates[index].count < Self.named {
                    duplicates[index].append(SchemaMigrationError.DuplicatePair(first: first, duplicate: identifier))
                }
            } else {
                tables[index][key] = identifier
            }
        }
    }

    func finish() throws {
        for (index, constraint) in entity.uniqueness.enumerated() where counts[index] > 0 {
            throw SchemaMigrationError.duplicateValues(
                entity: entity.entity.name, properties: constraint, duplicates: duplicates[index], count: counts[index])
        }
    }
}
