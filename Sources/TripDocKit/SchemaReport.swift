import Foundation
import TripDoc

/// `tripdoc schema FILE` as a library: a document's or schema file's schema and version, as
/// text for a terminal or as JSON in the document coding.
public struct SchemaReport {
    /// Where the schema came from.
    public var source: SchemaSource

    /// Reads the schema of the document or schema file at `path`.
    public static func read(path: String, limits: DocumentLimits = .standard) throws -> SchemaReport {
        SchemaReport(source: try SchemaSource.read(path, limits: limits))
    }

    /// Creates a report.
    public init(source: SchemaSource) {
        self.source = source
    }

    /// The schema in the document coding (docs/FORMATS.md 2.3): a schema file `tripdoc migrate
    /// --schema` reads.
    public func jsonData() -> Data { SchemaSource.jsonData(of: source.schema) }

    /// The schema as text: the version, then each entity with its attributes (type, `?` when
    /// optional, options, default value, original name), relationships, constraints and indexes.
    public var text: String {
        let schema = source.schema
        var lines = ["Schema version \(schema.version) (\(source.header == nil ? "schema file" : "document") \(source.path))"]
        for entity in schema.entities {
            lines.append("")
            lines.append(entity.name + (entity.originalName.map { " (originalName \($0))" } ?? ""))
            for attribute in entity.attributes {
                var notes: [String] = attribute.options.map(\.rawValue)
                if let value = attribute.defaultValue, value != .null { notes.append("default \(Self.describe(value))") }
                if let original = attribute.originalName { notes.append("originalName \(original)") }
                if let modifier = attribute.hashModifier { notes.append("hashModifier \(modifier)") }
                lines.append(
                    "  \(attribute.name): \(attribute.type.name)\(attribute.isOptional ? "?" : "")"
                        + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")"))
            }
            for relationship in entity.relationships {
                var notes = ["deleteRule \(relationship.deleteRule.rawValue)"]
                if let inverse = relationship.inverseName { notes.insert("inverse \(inverse)", at: 0) }
                if relationship.minimumModelCount > 0 { notes.append("minimum \(relationship.minimumModelCount)") }
                if relationship.maximumModelCount > 0 { notes.append("maximum \(relationship.maximumModelCount)") }
                if let original = relationship.originalName { notes.append("originalName \(original)") }
                let type = relationship.isToMany ? "[\(relationship.destination)]" : "\(relationship.destination)?"
                lines.append("  \(relationship.name): \(type)  (" + notes.joined(separator: ", ") + ")")
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("  #Unique(" + constraint.joined(separator: ", ") + ")")
            }
            for index in entity.indices {
                lines.append("  #Index(" + index.joined(separator: ", ") + ")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ value: SnapshotValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .uint(let number): String(number)
        case .double(let number): String(number)
        case .float(let number): String(number)
        case .decimal(let number): number.description
        case .date(let date): DateCoding.string(from: date) ?? date.description
        case .uuid(let uuid): uuid.uuidString
        case .url(let url): url.absoluteString
        default: value.kindDescription
        }
    }
}

/// `tripdoc schema diff A B` as a library: the differences between two schemas and whether a
/// lightweight migration covers them.
public struct SchemaDiffReport: Encodable {
    /// One difference, as `--json` writes it.
    public struct Change: Encodable, Hashable {
        /// The entity (its new name; the old one when removed).
        public var entity: String
        /// The property (its new name; the old one when removed), if any.
        public var property: String?
        /// The kind of change, such as `attributeRenamed` (``SchemaChange/Kind/name``).
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
