import Foundation
import TripDoc

/// A `--where` expression checked against one entity of a document's schema, ready to test that
/// entity's snapshots.
///
/// Checking gives every part of the expression a type from the schema (an attribute's type, a
/// to-one relationship's destination, the number a `count` is) and refuses, with the column,
/// what cannot be evaluated: an unknown property, a comparison of a string with a number, an
/// order asked of values that have none, a method on something that is not a string. A path
/// through a to-one relationship (`livingAccommodation.placeName`) reads the related snapshot,
/// which the caller supplies (``relatedProperties`` says which ones are needed).
public struct SnapshotQuery: Sendable {
    /// The entity the query tests.
    public let entityName: String
    /// For each entity reached through a to-one relationship, the properties the query reads of
    /// it: what ``RelatedSnapshots`` must hold.
    public let relatedProperties: [String: Set<String>]
    private let condition: QueryNode

    /// Checks `text` against `entity` of `schema`; throws a ``QueryError`` naming the column of
    /// the first part that does not parse or does not fit.
    public init(_ text: String, entity: Schema.Entity, schema: Schema, option: String = "--where") throws {
        let expression = try QueryParser.parse(text, option: option)
        var checker = QueryChecker(text: text, option: option, schema: schema)
        let node = try checker.check(expression, in: entity)
        guard node.type == .bool else {
            throw QueryError(
                option: option, expression: text, span: expression.span,
                message: "the expression is \(node.type.description), not a condition; compare it (==, <, …) or test it (contains(…))")
        }
        self.entityName = entity.name
        self.relatedProperties = checker.relatedProperties
        self.condition = node
    }

    /// Whether `snapshot` matches; `related` holds the snapshots reached through to-one
    /// relationships (those the query needs).
    public func matches(_ snapshot: DefaultSnapshot, related: RelatedSnapshots = RelatedSnapshots()) -> Bool {
        condition.evaluate(snapshot, related).isTrue
    }
}

/// Snapshots reached through to-one relationships, by identifier, holding only the properties a
/// query reads (see ``SnapshotQuery/relatedProperties``).
public struct RelatedSnapshots: Sendable {
    /// The snapshots reached, by identifier.
    public private(set) var snapshots: [PersistentIdentifier: DefaultSnapshot] = [:]

    /// No snapshots yet.
    public init() {}

    /// Keeps `snapshot`'s values of `properties`.
    public mutating func keep(_ snapshot: DefaultSnapshot, properties: Set<String>) {
        // Picked by position in the snapshot's layout, without a dictionary of its values:
        // `diff --where` keeps one for every object its condition reads through.
        var names: [String] = []
        var kept: [SnapshotValue] = []
        snapshot.forEachValue { name, value in
            if properties.contains(name) {
                names.append(name)
                kept.append(value)
            }
        }
        snapshots[snapshot.persistentIdentifier] = DefaultSnapshot(
            persistentIdentifier: snapshot.persistentIdentifier, layout: SnapshotLayout.of(namesInOrder: names),
            slots: kept)
    }

    subscript(_ identifier: PersistentIdentifier) -> DefaultSnapshot? { snapshots[identifier] }
}

/// A checked part of an expression: its type and how to evaluate it on a snapshot.
struct QueryNode: Sendable {
    /// What the language knows of a value's type.
    enum ValueType: Hashable, CustomStringConvertible {
        case bool, number, string, date, data, uuid, url
        /// An attribute type the language compares only for equality (arrays, composite values).
        case other(String)
        /// A to-one relationship (its destination), compared only with `nil`.
        case reference(String)
        /// The literal `nil`.
        case null

        var description: String {
            switch self {
            case .bool: "a Bool"
            case .number: "a number"
            case .string: "a String"
            case .date: "a Date"
            case .data: "Data"
            case .uuid: "a UUID"
            case .url: "a URL"
            case .other(let name): "a \(name)"
            case .reference(let destination): "a reference to \(destination)"
            case .null: "nil"
            }
        }

        var isOrdered: Bool {
            switch self {
            case .bool, .number, .string, .date, .uuid, .url: true
            default: false
            }
        }

        init(_ type: AttributeType) {
            switch type {
            case .bool: self = .bool
            case .string: self = .string
            case .date: self = .date
            case .data: self = .data
            case .uuid: self = .uuid
            case .url: self = .url
            case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64, .double, .float, .decimal:
                self = .number
            default: self = .other(type.name)
            }
        }
    }

    var type: ValueType
    /// Whether the value may be `nil` (an optional attribute, or one read through a to-one
    /// relationship that may be empty).
    var isOptional: Bool
    /// The attribute type behind a path, when it is one (to read number literals the way the
    /// attribute holds them).
    var attributeType: AttributeType?
    var evaluate: @Sendable (DefaultSnapshot, RelatedSnapshots) -> QueryValue
}

extension SnapshotQuery {
    /// The snapshots the query reads through to-one relationships, from a document held in
    /// memory whose snapshots of an entity `snapshotsOf` gives.
    public func relatedSnapshots(snapshotsOf: (String) -> [DefaultSnapshot]) -> RelatedSnapshots {
        var related = RelatedSnapshots()
        for (entity, properties) in relatedProperties {
            for snapshot in snapshotsOf(entity) { related.keep(snapshot, properties: properties) }
        }
        return related
    }

    /// The identifiers of the snapshots of ``entityName`` that match, in a document held in
    /// memory whose snapshots of an entity `snapshotsOf` gives.
    public func matchingIdentifiers(snapshotsOf: (String) -> [DefaultSnapshot]) -> Set<PersistentIdentifier> {
        let related = relatedSnapshots(snapshotsOf: snapshotsOf)
        return Set(snapshotsOf(entityName).filter { matches($0, related: related) }.map(\.persistentIdentifier))
    }
}
