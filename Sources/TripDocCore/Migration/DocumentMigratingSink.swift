import Foundation

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
            var value = current.sources[property.name].flatMap { snapshot[$0] } ?? .null
            if value == .null, let fill = current.fills[property.name] { value = fill }
            if let migration, migration.renamesEntities, current.relationshipNames.contains(property.name) {
                value = value.remappingReferences(migration.migratedReference)
            }
            values[property.name] = value
        }
        try refuseMissingValue(current.changeMissingAValue { values[$1] })
        let migrated = DefaultSnapshot(persistentIdentifier: current.migrated(snapshot.persistentIdentifier), values: values)
        try uniqueness?.add(migrated.persistentIdentifier) { migrated[$0] ?? .null }
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
        if steps!.keepsRecords, uniqueness == nil, current.valuesNeeded.isEmpty {
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
        try refuseMissingValue(current.changeMissingAValue { index, _ in values[index] })
        let migrated = SnapshotRecord(
            plan: current.plan, store: record.store, primaryKey: record.primaryKey, values: values,
            valuesFitPlan: record.valuesFitPlan)
        try uniqueness?.add(migrated.persistentIdentifier) { migrated[$0] ?? .null }
        try next.add(record: migrated)
    }

    /// Refuses a model without a value for a property made (or added) required without a
    /// default: `change` names it.
    private func refuseMissingValue(_ change: SchemaChange?) throws {
        guard let change, let migration else { return }
        throw SchemaMigrationError.notLightweight(
            from: migration.source.version, to: migration.destination.version, changes: [change])
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
