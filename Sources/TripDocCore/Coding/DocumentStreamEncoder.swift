import Foundation

/// The shared coding's writing side, one piece at a time: the same bytes as
/// ``DocumentEncoder/encode(_:to:)`` for the same document, without the document ever being
/// whole in memory. The caller hands over the header, schema and history, then the snapshots
/// in document order (entities in byte order of their names, each entity's snapshots by primary
/// key); the encoder writes an empty array for every entity that gets none.
///
/// It refuses snapshots out of order with ``DocumentStreamOrderError``, since the document they
/// would make is not the one tripdoc writes; a caller that cannot promise the order sorts first.
public struct DocumentStreamEncoder {
    /// The schema the snapshots follow.
    public let schema: Schema
    private let encoder = DocumentEncoder()
    /// The entities in the order documents list them.
    private let entities: [Schema.Entity]
    /// The next entity that may begin.
    private var nextEntity = 0
    /// The entity whose snapshots are being written.
    private var current: EntityStreamEncoder?

    /// An encoder for documents of `schema`.
    public init(schema: Schema) {
        self.schema = schema
        entities = schema.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// Opens the document and writes everything but the snapshots.
    ///
    /// - Throws: ``SchemaError`` when the schema is not consistent (a reader would refuse the
    ///   document), before anything is written; ``DocumentWriteError`` for a history value that
    ///   does not fit it.
    public mutating func begin<W: StructuredWriter>(
        header: DocumentHeader, history: DocumentHistory, to writer: inout W
    ) throws {
        try begin(header: header, history: history, changes: { _, _ in }, afterChange: { _ in }, to: &writer)
    }

    /// Opens the document and writes everything but the snapshots, with a history whose
    /// transactions also have the changes `changes` hands over (after those their records
    /// hold); `afterChange` gets the writer after each change written, of either kind, to
    /// empty a full buffer.
    ///
    /// - Throws: As ``begin(header:history:to:)``, and what `changes` and `afterChange` throw.
    public mutating func begin<W: StructuredWriter>(
        header: DocumentHeader, history: DocumentHistory, changes: HistoryChangeStream,
        afterChange: (inout W) throws -> Void, to writer: inout W
    ) throws {
        try schema.validate()
        writer.beginObject()
        writer.key("header")
        encoder.encodeHeader(header, to: &writer)
        if !history.isEmpty {
            writer.key("history")
            try encoder.encodeHistory(history, schema: schema, changes: changes, afterChange: afterChange, to: &writer)
        }
        writer.key("schema")
        encoder.encodeSchema(schema, to: &writer)
        writer.key("snapshots")
        writer.beginObject()
    }

    /// Starts the snapshots of the entity `name`.
    ///
    /// - Throws: ``DocumentStreamOrderError`` when the schema has no such entity or it comes
    ///   before one already written.
    public mutating func beginEntity<W: StructuredWriter>(_ name: String, to writer: inout W) throws {
        guard current == nil,
            let index = entities[nextEntity...].firstIndex(where: { $0.name == name })
        else { throw DocumentStreamOrderError(message: "the snapshots of \(name) are not in document order") }
        while nextEntity < index { writeEmptyEntity(to: &writer) }
        writer.key(name)
        let entity = EntityStreamEncoder(entity: entities[index])
        entity.begin(to: &writer)
        current = entity
        nextEntity = index + 1
    }

    /// Writes the next snapshot of the current entity.
    ///
    /// - Throws: ``DocumentStreamOrderError`` when it does not follow the previous one in
    ///   document order (or is of another entity); ``DocumentWriteError`` when a value does not
    ///   fit the schema.
    public mutating func add<W: StructuredWriter>(_ snapshot: DefaultSnapshot, to writer: inout W) throws {
        guard current != nil else {
            throw DocumentStreamOrderError(message: "\(snapshot.persistentIdentifier) comes outside its entity's snapshots")
        }
        try current!.add(snapshot, to: &writer)
    }

    /// Writes the next snapshot of the current entity, from its record.
    ///
    /// - Throws: As ``add(_:to:)``.
    public mutating func add<W: StructuredWriter>(record: SnapshotRecord, to writer: inout W) throws {
        guard current != nil else {
            throw DocumentStreamOrderError(message: "\(record.persistentIdentifier) comes outside its entity's snapshots")
        }
        try current!.add(record: record, to: &writer)
    }

    /// Ends the current entity's snapshots.
    public mutating func endEntity<W: StructuredWriter>(to writer: inout W) {
        current?.end(to: &writer)
        current = nil
    }

    /// Writes the entities that got no snapshots and closes the document.
    public mutating func finish<W: StructuredWriter>(to writer: inout W) {
        endEntity(to: &writer)
        while nextEntity < entities.count { writeEmptyEntity(to: &writer) }
        writer.endObject()
        writer.endObject()
    }

    private mutating func writeEmptyEntity<W: StructuredWriter>(to writer: inout W) {
        writer.key(entities[nextEntity].name)
        writer.beginArray()
        writer.endArray()
        CodingProgress.finishEntity(0)
        nextEntity += 1
    }
}

/// One entity's array of snapshots, written one snapshot at a time in document order (what a
/// document's `snapshots` member holds per entity, and a bundle's `snapshots/ENTITY.json`).
public struct EntityStreamEncoder {
    private let plan: EntityCodingPlan
    private let encoder = DocumentEncoder()
    /// How many snapshots have been written.
    public private(set) var count = 0
    private var lastKey: String?
    /// ``lastKey``'s value when it is a canonical number: the next key is compared by value
    /// (without reading the last one's digits again, for every snapshot).
    private var lastNumber: Int64?
    /// The last plan of another schema whose records were found laid out like this one's.
    private var compatiblePlan: EntityCodingPlan?
    /// The last plan of another schema whose entity was found to be this one's.
    private var samePlan: EntityCodingPlan?

    /// An encoder for snapshots of `entity`.
    public init(entity: Schema.Entity) {
        plan = EntityCodingPlan(entity)
    }

    /// Opens the array.
    public func begin<W: StructuredWriter>(to writer: inout W) {
        writer.beginArray()
    }

    /// Writes the next snapshot.
    ///
    /// - Throws: ``DocumentStreamOrderError`` when it is of another entity or comes before the
    ///   previous one in document order; ``DocumentWriteError`` when a value does not fit.
    public mutating func add<W: StructuredWriter>(_ snapshot: DefaultSnapshot, to writer: inout W) throws {
        try add(SnapshotRecord.of(snapshot, plan: plan).record, identifier: snapshot.persistentIdentifier, to: &writer)
    }

    /// Writes the next snapshot, from its record.
    ///
    /// - Throws: As ``add(_:to:)``.
    public mutating func add<W: StructuredWriter>(record: SnapshotRecord, to writer: inout W) throws {
        try add(record, identifier: nil, to: &writer)
    }

    private mutating func add<W: StructuredWriter>(
        _ record: SnapshotRecord, identifier: PersistentIdentifier?, to writer: inout W
    ) throws {
        guard record.plan.internedName == plan.internedName else {
            throw DocumentStreamOrderError(
                message: "\(identifier ?? record.persistentIdentifier) comes outside its entity's snapshots")
        }
        // Equal keys pass: a duplicate is the integrity checker's to report.
        let number = PrimaryKeyOrder.canonicalNumber(record.primaryKey)
        if let lastKey, PrimaryKeyOrder.precedes(record.primaryKey, number, lastKey, lastNumber) {
            throw DocumentStreamOrderError(
                message: "\(identifier ?? record.persistentIdentifier) comes after \(plan.name)/\(lastKey)")
        }
        if record.plan !== plan, record.plan !== compatiblePlan, plan.hasTheLayout(of: record.plan) {
            compatiblePlan = record.plan
            if record.plan.entity == plan.entity { samePlan = record.plan }
        }
        try encoder.encodeRecord(
            record, plan: plan, identifier: identifier, layoutChecked: record.plan === plan || record.plan === compatiblePlan,
            valuesChecked: record.valuesFitPlan && (record.plan === plan || record.plan === samePlan), to: &writer)
        count += 1
        lastKey = record.primaryKey
        lastNumber = number
        CodingProgress.tick(count)
    }

    /// Closes the array.
    public func end<W: StructuredWriter>(to writer: inout W) {
        writer.endArray()
        CodingProgress.finishEntity(count)
    }
}

/// Snapshots handed to a streaming writer out of document order.
public struct DocumentStreamOrderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What came out of order.
    public var message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
