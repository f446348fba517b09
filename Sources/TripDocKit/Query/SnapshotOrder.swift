import Foundation
import TripDoc

/// A `--sort` list checked against one entity: properties (or paths through to-one
/// relationships) whose values have an order, compared in turn; `nil` sorts first, and
/// snapshots that tie keep their document order.
public struct SnapshotOrder: Sendable {
    /// The entity whose snapshots it orders.
    public let entityName: String
    /// The properties reached through to-one relationships, as ``SnapshotQuery/relatedProperties``.
    public let relatedProperties: [String: Set<String>]
    /// Whether the order is reversed (descending).
    public let isReversed: Bool
    private let keys: [QueryNode]

    /// Checks `text` (`startDate`, `name,startDate`, `livingAccommodation.placeName`) against
    /// `entity`; throws a ``QueryError`` naming the column of a property that is unknown or whose
    /// values have no order.
    public init(_ text: String, entity: Schema.Entity, schema: Schema, reversed: Bool = false) throws {
        var checker = QueryChecker(text: text, option: "--sort", schema: schema)
        var keys: [QueryNode] = []
        var column = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let leading = part.prefix(while: \.isWhitespace).count
            let name = part.trimmingCharacters(in: .whitespaces)
            let span = QuerySpan(start: column + leading, end: column + leading + max(1, name.count))
            column += part.count + 1
            guard !name.isEmpty, name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(Self.isName) else {
                throw QueryError(option: "--sort", expression: text, span: span, message: "expected a property name (or a path like livingAccommodation.placeName)")
            }
            let node = try checker.path(name.split(separator: ".").map(String.init), span: span, in: entity)
            guard node.type.isOrdered else {
                throw QueryError(option: "--sort", expression: text, span: span, message: "\(name) is \(node.type.description), which has no order")
            }
            keys.append(node)
        }
        self.entityName = entity.name
        self.keys = keys
        self.isReversed = reversed
        self.relatedProperties = checker.relatedProperties
    }

    /// Whether `text` is a name the expression language can write.
    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// Whether `lhs` comes before `rhs`.
    public func precedes(_ lhs: DefaultSnapshot, _ rhs: DefaultSnapshot, related: RelatedSnapshots) -> Bool {
        for key in keys {
            let a = key.evaluate(lhs, related)
            let b = key.evaluate(rhs, related)
            let result: ComparisonResult
            switch (a, b) {
            case (.null, .null): result = .orderedSame
            case (.null, _): result = .orderedAscending
            case (_, .null): result = .orderedDescending
            default: result = QueryValue.order(a, b) ?? .orderedSame
            }
            if result != .orderedSame { return isReversed ? result == .orderedDescending : result == .orderedAscending }
        }
        return false
    }
}
