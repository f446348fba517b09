import Foundation
import TripDoc

/// A semantic comparison of two documents, in any formats: which objects were added, removed or
/// changed, matched by identity rather than by position, plus differences of schema.
///
/// Identity, per entity (``MatchStrategy``): the same store → primary keys; a remap table from
/// `convert --remap-table` → its mapping; two stores of one lineage (one converted from the
/// other, or both from one store: `DocumentHeader.lineage`) → primary keys, which `convert`
/// keeps; an entity with a uniqueness constraint → the
/// constraint's values; otherwise a content fingerprint (attribute values and to-one references
/// to objects already matched). Relationship changes are told in terms of the matched objects,
/// once per inverse pair (on the to-one side), so re-pointing one item shows as one change.
public struct DocumentDiff {
    /// How objects of one entity were matched.
    public enum MatchStrategy: String, Sendable, CaseIterable {
        /// Choose per entity: key (one store), map (a remap table), key (one lineage), unique or
        /// content, in that order of preference.
        case auto
        /// Equal primary keys.
        case key
        /// Equal values on the entity's first uniqueness constraint.
        case unique
        /// The mapping of a remap table.
        case map
        /// Equal attribute values and to-one references.
        case content
    }

    /// One side of the comparison.
    public struct Side: Sendable {
        /// The file, as the caller named it.
        public var file: String
        /// The side's store identifier.
        public var storeIdentifier: String
        /// Where the side's document came from (`DocumentHeader.derivedFrom`), if `convert`
        /// made it.
        public var derivedFrom: DefaultHistoryToken? = nil
        /// The store whose keys the side's document keeps (`DocumentHeader.lineage`).
        public var lineage: String
        /// The side's schema.
        public var schema: Schema
    }

    /// A changed value: the property and its value in A and in B. A composite or `Codable`
    /// value changes field by field: `field` is then the path to the changed field inside the
    /// property's value (`.address.city`, `.stops[2]`), and `old` and `new` are the field's values
    /// (`.null` where one side has no such field).
    public struct ValueChange: Sendable {
        /// The property that changed.
        public var property: String
        /// The value in A (`.null` for nil or no such field).
        public var old: SnapshotValue
        /// The value in B (`.null` for nil or no such field).
        public var new: SnapshotValue
        /// The path inside the value, empty for the whole value.
        public var field: String = ""

        /// The property and the path, as the output names the change (`home.city`).
        public var name: String { property + field }

        /// The changes between two values of `property`: field by field where both are objects,
        /// element by element where both are arrays of one length inside one (or, with
        /// `descendingArrays`, a Codable attribute's own array), else the whole value.
        static func changes(
            of property: String, from old: SnapshotValue, to new: SnapshotValue, field: String = "",
            descendingArrays: Bool = false
        ) -> [ValueChange] {
            switch (old, new) {
            case (.composite(let a), .composite(let b)):
                let names = Set(a.keys).union(b.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                return names.flatMap {
                    changes(of: property, from: a[$0] ?? .null, to: b[$0] ?? .null, field: field + "." + $0)
                }
            case (.array(let a), .array(let b)) where a.count == b.count && (field != "" || descendingArrays):
                return a.indices.flatMap { changes(of: property, from: a[$0], to: b[$0], field: field + "[\($0)]") }
            default:
                return old == new ? [] : [ValueChange(property: property, old: old, new: new, field: field)]
            }
        }
    }

    /// An object present in both documents whose values differ.
    public struct ChangedObject: Sendable {
        /// The object's identifier in A.
        public var a: PersistentIdentifier
        /// The object's identifier in B.
        public var b: PersistentIdentifier
        /// Attribute changes, composite and `Codable` values field by field.
        public var attributes: [ValueChange]
        /// Relationship changes; references are given as B's identifiers where the target is
        /// matched, A's where it was removed.
        public var relationships: [ValueChange]
    }

    /// The differences within one entity.
    public struct EntityDifferences: Sendable {
        /// The entity's name.
        public var entity: String
        /// How the entity's objects were matched.
        public var strategy: MatchStrategy
        /// The objects only B has, as B holds them.
        public var added: [DefaultSnapshot]
        /// The objects only A has, as A holds them: their references are A's identifiers (their
        /// own document's numbering).
        public var removed: [DefaultSnapshot]
        /// The objects both have whose values differ, in B's order.
        public var changed: [ChangedObject]
        /// ``removed`` with each reference to a matched object given as B's identifier (what a
        /// patch names), in the same order.
        var removedInTermsOfB: [DefaultSnapshot] = []

        /// Whether nothing was added, removed or changed.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    /// The first document (the old one).
    public var a: Side
    /// The second document (the new one).
    public var b: Side
    /// The store both documents derive from when they are two stores of one lineage (one
    /// converted from the other, or both from one store), so that `auto` matched them by primary
    /// key; `nil` when they are one store, or unrelated.
    public var sharedLineage: String? {
        guard a.storeIdentifier != b.storeIdentifier, a.lineage == b.lineage else { return nil }
        return a.lineage
    }
    /// Differences of schema, one sentence each.
    public var schemaDifferences: [String]
    /// Per entity present in both schemas, in schema order.
    public var entities: [EntityDifferences]
    /// With `history`: the transactions only A has and only B has (compared by identifier, time,
    /// author and the kinds and entities of their changes); `nil` when history was not compared.
    public var history: (onlyInA: [HistoryTransactionRecord], onlyInB: [HistoryTransactionRecord])?
    /// Per entity, B's primary key → A's for the matched objects the differences refer to whose
    /// keys differ (what a ``DocumentPatch`` needs to name B's objects in A's terms).
    var differingKeys: [String: [String: String]] = [:]

    /// How the documents were read for the comparison.
    enum Reading {
        /// Both whole, as records.
        case whole
        /// Once each, as a merge of their objects in primary-key order.
        case merged
        /// Twice each: for the fingerprints that match objects, then for the matched pairs.
        case twoPasses
    }

    /// How the documents were read (what the tests of the streamed comparisons look at).
    var reading = Reading.whole

    /// Whether the documents have the same content (and history, when compared).
    public var isIdentical: Bool {
        schemaDifferences.isEmpty && entities.allSatisfy(\.isEmpty)
            && (history.map { $0.onlyInA.isEmpty && $0.onlyInB.isEmpty } ?? true)
    }

    /// Compares `a` with `b`.
    ///
    /// - Parameters:
    ///   - a: The first document (the old one, for the changes' direction).
    ///   - b: The second document.
    ///   - match: How to match objects; `auto` chooses per entity.
    ///   - remapTable: The mapping `convert --remap-table` wrote from A to B, if any.
    ///   - entity: Compare only this entity.
    ///   - ignoring: Attribute names (or `Entity.attribute`) to leave out.
    ///   - compareHistory: Whether to list the history transactions only one side has.
    /// - Throws: ``TripDocError`` when the request cannot be met (an unknown entity, `unique`
    ///   for an entity without a constraint, `map` without a table, a remap table for other stores).
    public init(
        _ a: DocumentFile, _ b: DocumentFile, match: MatchStrategy = .auto, remapTable: RemapTable? = nil,
        entity: String? = nil, ignoring: Set<String> = [], history compareHistory: Bool = false
    ) throws {
        let (recordsA, recordsB) = TwoThreads.run({ DocumentRecords(a.document) }, { DocumentRecords(b.document) })
        try self.init(
            recordsA, at: a.path, recordsB, at: b.path, match: match, remapTable: remapTable, entity: entity,
            ignoring: ignoring, history: compareHistory)
    }

    /// Compares `a`, read from `pathA`, with `b`, read from `pathB` (the paths name the sides);
    /// see ``DocumentFile/readRecordsOfBoth(_:_:limits:)``.
    ///
    /// - Throws: As ``init(_:_:match:remapTable:entity:ignoring:history:)``.
    public init(
        _ a: DocumentRecords, at pathA: String, _ b: DocumentRecords, at pathB: String, match: MatchStrategy = .auto,
        remapTable: RemapTable? = nil, entity: String? = nil, ignoring: Set<String> = [],
        history compareHistory: Bool = false
    ) throws {
        self.a = Side(
            file: pathA, storeIdentifier: a.storeIdentifier, derivedFrom: a.header.derivedFrom, lineage: a.header.lineage,
            schema: a.schema)
        self.b = Side(
            file: pathB, storeIdentifier: b.storeIdentifier, derivedFrom: b.header.derivedFrom, lineage: b.header.lineage,
            schema: b.schema)
        let schemaA = a.schema
        let schemaB = b.schema
        if let entity, schemaA.entity(named: entity) == nil || schemaB.entity(named: entity) == nil {
            throw TripDocError.unknownEntity(
                name: entity, path: schemaA.entity(named: entity) == nil ? pathA : pathB,
                known: (schemaA.entity(named: entity) == nil ? schemaA : schemaB).entities.map(\.name))
        }
        if let remapTable, remapTable.fromStore != a.storeIdentifier || remapTable.toStore != b.storeIdentifier {
            throw TripDocError.invalidArgument(
                "the remap table maps store \(remapTable.fromStore) to \(remapTable.toStore), but the documents are "
                    + "stores \(a.storeIdentifier) and \(b.storeIdentifier)")
        }
        if match == .map, remapTable == nil {
            throw TripDocError.invalidArgument("--match map needs --map REMAP.json (written by convert --remap-table)")
        }
        schemaDifferences = Self.schemaDifferences(schemaA, schemaB, only: entity)

        var comparison = Comparison(
            a: a, b: b, requested: match, remapTable: remapTable, ignoring: ignoring,
            onlyEntity: entity)
        try comparison.matchAll()
        entities = comparison.entityNames.filter { entity == nil || $0 == entity }.map { comparison.differences(of: $0) }
        differingKeys = comparison.differingKeys(referencedBy: entities)
        if compareHistory { history = Self.historyDifferences(a.history, b.history) }
    }
}
