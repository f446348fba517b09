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
