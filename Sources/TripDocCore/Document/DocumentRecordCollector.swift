import Foundation

/// The sink that keeps a whole document as records: ``DocumentRecords``. Each entity's records
/// are laid out by the schema's entity: a record the reader decoded that way is kept as it is;
/// any other record, and a snapshot handed over as a dictionary, is laid out anew.
public struct DocumentRecordCollector: DocumentDecodingSink {
    private var header: DocumentHeader?
    private var schema = Schema([])
    private var history = DocumentHistory()
    private var recordsByEntity: [String: [SnapshotRecord]] = [:]
    /// The layout of each entity's records, made from the schema.
    private var plans: [String: EntityCodingPlan] = [:]

    /// An empty collector.
    public init() {}

    init(header: DocumentHeader, schema: Schema, history: DocumentHistory) {
        self.header = header
        self.schema = schema
        self.history = history
    }

    /// The records collected, each entity's sorted by primary key unless they came in order.
    ///
    /// - Precondition: ``begin(header:schema:history:)`` has been called.
    public consuming func finish() -> DocumentRecords {
        for (entity, records) in recordsByEntity {
            recordsByEntity[entity] = records.sortedUnlessInOrder { PrimaryKeyOrder.precedes($0.primaryKey, $1.primaryKey) }
        }
        return DocumentRecords(header: header!, schema: schema, history: history, recordsByEntity: recordsByEntity)
    }

    /// Keeps `snapshot` laid out by its entity's plan; a snapshot of an entity the schema lacks
    /// is left out.
    mutating func collect(_ snapshot: DefaultSnapshot) {
        guard let plan = plan(of: snapshot.entityName) else { return }
        recordsByEntity[plan.name, default: []].append(SnapshotRecord.of(snapshot, plan: plan).record)
    }

    private mutating func plan(of entity: String) -> EntityCodingPlan? {
        if let plan = plans[entity] { return plan }
        guard let declared = schema.entity(named: entity) else { return nil }
        let plan = EntityCodingPlan(declared)
        plans[entity] = plan
        return plan
    }

    public mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        self.header = header
        self.schema = schema
        self.history = history ?? DocumentHistory()
    }

    public mutating func beginEntity(_ entity: Schema.Entity) throws {}

    public mutating func add(_ snapshot: DefaultSnapshot) throws { collect(snapshot) }

    public mutating func add(record: consuming SnapshotRecord) throws {
        guard let plan = plan(of: record.entityName), plan.hasTheLayout(of: record.plan) else {
            return collect(record.snapshot)
        }
        recordsByEntity[plan.name, default: []].append(consume record)
    }

    public mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}

    public mutating func lateHistory(_ history: DocumentHistory) throws { self.history = history }
}
