import Foundation
import TripDoc

/// `tripdoc schema diff A B` as a library: the differences between two schemas and whether a
/// lightweight migration covers them.
public struct SchemaDiffReport: Encodable {
    /// One difference, as `--json` writes it.
    public struct Change: Encodable, Hashable {
        /// The entity (its new name; the old one when removed).
        public var entity: String
        /// The property (its new name; the old one when removed), if any.
        public var property: String?
        /// The kind of change, such as `attributeRenamed` (`SchemaChange.Kind.name`).
        public var change: String
        /// What changed, in words.
        public var description: String
        /// Whether a lightweight migration makes it.
        public var lightweight: Bool
    }

    /// The first schema's source.
    public var from: String
    /// The second schema's source.
    public var to: String
    /// The first schema's version.
    public var fromVersion: String
    /// The second schema's version.
    public var toVersion: String
    /// Whether a lightweight migration covers every change.
    public var lightweight: Bool
    /// The changes.
    public var changes: [Change]

    /// Compares the schemas of the documents or schema files at `first` and `second`.
    public static func compare(_ first: String, _ second: String, limits: DocumentLimits = .standard) throws
        -> SchemaDiffReport
    {
        let a = try SchemaSource.read(first, limits: limits)
        let b = try SchemaSource.read(second, limits: limits)
        return SchemaDiffReport(from: a, to: b)
    }

    /// The report of the difference between two sources' schemas.
    public init(from first: SchemaSource, to second: SchemaSource) {
        let difference = SchemaDifference(from: first.schema, to: second.schema)
        from = first.path
        to = second.path
        fromVersion = first.schema.version.description
        toVersion = second.schema.version.description
        lightweight = difference.isLightweight
        changes = difference.changes.map {
            Change(
                entity: $0.entity, property: $0.property, change: $0.kind.name, description: $0.summary,
                lightweight: $0.isLightweight)
        }
    }

    /// Whether the schemas are the same, their versions aside.
    public var isEmpty: Bool { changes.isEmpty }

    /// The report as JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The report as text: a line saying whether a lightweight migration covers the changes,
    /// then one line per change (those it cannot make marked).
    public var text: String {
        guard !changes.isEmpty else {
            return "The schemas of \(from) (\(fromVersion)) and \(to) (\(toVersion)) are the same"
                + (fromVersion == toVersion ? "" : " apart from their versions") + "\n"
        }
        var lines = [
            "Schema \(fromVersion) (\(from)) → \(toVersion) (\(to)): \(changes.count) change\(changes.count == 1 ? "" : "s"); "
                + (lightweight
                    ? "a lightweight migration covers them"
                    : "a lightweight migration does not cover those marked 'needs a custom stage'")
        ]
        for change in changes {
            let place = change.property.map { "\(change.entity).\($0)" } ?? change.entity
            lines.append("  \(place): \(change.description)" + (change.lightweight ? "" : "  [needs a custom stage]"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
