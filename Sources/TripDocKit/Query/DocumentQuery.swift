import Foundation
import TripDoc

/// What `tripdoc show` selects from a document and how: an entity, a condition (`--where`), an
/// order (`--sort`, `--reverse`), a limit, one object by identifier (`--id`) and what it
/// references (`--follow`). ``select(from:format:file:limits:)`` reads the document in passes
/// that each keep only what they need, so memory stays bounded on large documents: the schema
/// first; then, when the condition or order reads through to-one relationships, those related
/// snapshots' few properties; then the selection itself; with `--follow`, the referenced objects.
public struct DocumentQuery: Sendable {
    /// The entity to show (`nil` for all; required by a condition or an order).
    public var entityName: String?
    /// A `--where` expression over the entity's properties.
    public var condition: String?
    /// A `--sort` list of properties.
    public var sort: String?
    /// Whether the order is reversed.
    public var reversed = false
    /// How many snapshots to show per entity.
    public var limit: Int?
    /// One object to show, as `Entity/key`.
    public var identifier: String?
    /// Whether to show, after the object(s), the objects they reference.
    public var follow = false

    /// A query for `entityName`'s snapshots (all entities' when `nil`) that meet `condition`, in the order `sort` gives (reversed when `reversed`), at most `limit` per entity, or the one object `identifier`, and with `follow` the objects they reference.
    public init(
        entityName: String? = nil, condition: String? = nil, sort: String? = nil, reversed: Bool = false,
        limit: Int? = nil, identifier: String? = nil, follow: Bool = false
    ) {
        self.entityName = entityName
        self.condition = condition
        self.sort = sort
        self.reversed = reversed
        self.limit = limit
        self.identifier = identifier
        self.follow = follow
    }

    /// What a query selected: the document's header and schema with the kept snapshots, and
    /// the tables to print (the followed objects' after the selected ones).
    public struct Selection {
        /// The document's header and schema with the snapshots kept.
        public var document: Document
        /// The tables to print: the selected objects', then the followed ones'.
        public var tables: [SnapshotTable]
    }

    /// Reads `data` (a document of `format`, named `file` in errors) and selects from it.
    ///
    /// - Throws: ``QueryError`` for an expression that does not parse or fit the schema,
    ///   ``TripDocError`` for an unknown entity or a malformed identifier, or what reading throws.
    public func select(from data: Data, format: any DocumentFormat, file: String, limits: DocumentLimits) throws
        -> Selection
    {
        if follow, identifier == nil, condition == nil {
            throw TripDocError.invalidArgument("--follow shows what the selected objects reference: give --id or --where")
        }
        let wantedKeys = try identifier.map { try Self.parseIdentifier($0, entityName: entityName) }
        let selectedEntity: String? = entityName ?? wantedKeys?.keys.first
        if selectedEntity == nil, condition != nil || sort != nil {
            throw TripDocError.invalidArgument("--where and --sort apply to one entity: give --entity")
        }
        var selection = SnapshotSelection(entityName: selectedEntity, limit: limit)
        selection.wantedKeys = wantedKeys
        if condition != nil || sort != nil || wantedKeys != nil {
            let schema = try Self.readSchema(from: data, format: format, file: file, limits: limits)
            guard let selectedEntity, let entity = schema.entity(named: selectedEntity) else {
                throw TripDocError.unknownEntity(name: selectedEntity ?? "", path: file, known: schema.entities.map(\.name))
            }
            selection.condition = try condition.map { try SnapshotQuery($0, entity: entity, schema: schema) }
            selection.order = try sort.map { try SnapshotOrder($0, entity: entity, schema: schema, reversed: reversed) }
            let needed: [String: Set<String>] = (selection.condition?.relatedProperties ?? [:])
                .merging(selection.order?.relatedProperties ?? [:]) { first, second in first.union(second) }
            if !needed.isEmpty {
                var collector = RelatedSnapshotCollector(properties: needed)
                try format.readDocument(from: data, file: file, limits: limits, into: &collector)
                selection.related = collector.related
            }
        }
        try Self.read(data, format: format, file: file, limits: limits, into: &selection)
        guard let document = selection.document else {
            throw TripDocError.invalidArgument("\(file) ended before its schema")
        }
        try DocumentFile(path: file, format: format, size: data.count, document: document).checkEntity(selectedEntity)
        if let identifier, selection.matches.values.reduce(0, +) == 0 {
            throw TripDocError.unknownObject(identifier: identifier, path: file)
        }
        var tables = SnapshotTable.tables(for: selection)
        let selected: [DefaultSnapshot] = tables.flatMap { $0.snapshots }
        if follow {
            var referenced = SnapshotSelection(entityName: nil, limit: nil)
            referenced.wantedKeys = Self.references(of: selected)
            if referenced.wantedKeys?.isEmpty == false {
                try Self.read(data, format: format, file: file, limits: limits, into: &referenced)
                tables += SnapshotTable.tables(for: referenced)
            }
        }
        return Selection(document: document, tables: tables)
    }

    /// `Entity/key` as wanted keys; the entity must agree with `--entity` when both are given.
    static func parseIdentifier(_ text: String, entityName: String?) throws -> [String: Set<String>] {
        guard let slash = text.firstIndex(of: "/"), slash != text.startIndex, text.index(after: slash) != text.endIndex
        else {
            throw TripDocError.invalidArgument("--id takes an object's identifier as Entity/key (Trip/42), not '\(text)'")
        }
        let entity = String(text[..<slash])
        if let entityName, entityName != entity {
            throw TripDocError.invalidArgument("--id \(text) is a \(entity), but --entity asks for \(entityName)")
        }
        return [entity: [String(text[text.index(after: slash)...])]]
    }

    /// The primary keys, by entity, that `snapshots` reference.
    static func references(of snapshots: [DefaultSnapshot]) -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for snapshot in snapshots {
            for value in snapshot.slots {
                switch value {
                case .reference(let identifier): keys[identifier.entityName, default: []].insert(identifier.primaryKey)
                case .references(let identifiers):
                    for identifier in identifiers { keys[identifier.entityName, default: []].insert(identifier.primaryKey) }
                default: break
                }
            }
        }
        return keys
    }

    /// Reads into `selection` in one pass; a document whose snapshots are out of order is read
    /// whole and selected from in memory.
    private static func read(
        _ data: Data, format: any DocumentFormat, file: String, limits: DocumentLimits,
        into selection: inout SnapshotSelection
    ) throws {
        let fresh = selection
        do {
            try format.readDocument(from: data, file: file, limits: limits, into: &selection)
        } catch is SnapshotSelection.OutOfOrder {
            selection = fresh
            try selection.select(from: DocumentFile.read(data, path: file, limits: limits).document)
        }
    }

    /// The document's schema, read without its snapshots.
    private static func readSchema(from data: Data, format: any DocumentFormat, file: String, limits: DocumentLimits)
        throws -> Schema
    {
        var reader = SchemaReader()
        do {
            try format.readDocument(from: data, file: file, limits: limits, into: &reader)
        } catch is SchemaReader.Done {}
        guard let schema = reader.schema else { throw TripDocError.invalidArgument("\(file) ended before its schema") }
        return schema
    }
}

/// Stops reading once the schema has been read.
private struct SchemaReader: DocumentDecodingSink {
    struct Done: Error {}
    var schema: Schema?

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        self.schema = schema
        throw Done()
    }
    mutating func beginEntity(_ entity: Schema.Entity) throws {}
    mutating func add(_ snapshot: DefaultSnapshot) throws {}
    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
    mutating func lateHistory(_ history: DocumentHistory) throws {}
    func wantsSnapshots(of entity: Schema.Entity) -> Bool { false }
}

/// Keeps the few properties a query reads of the snapshots it reaches through to-one
/// relationships.
private struct RelatedSnapshotCollector: DocumentDecodingSink {
    let properties: [String: Set<String>]
    var related = RelatedSnapshots()

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {}
    mutating func beginEntity(_ entity: Schema.Entity) throws {}
    mutating func add(_ snapshot: DefaultSnapshot) throws {
        if let wanted = properties[snapshot.entityName] { related.keep(snapshot, properties: wanted) }
    }
    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
    mutating func lateHistory(_ history: DocumentHistory) throws {}
    func wantsSnapshots(of entity: Schema.Entity) -> Bool { properties[entity.name] != nil }
}
