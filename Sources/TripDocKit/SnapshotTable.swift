import Foundation
import TripDoc

/// `tripdoc show`'s readable form: one table per entity, a row per snapshot, a column per property.
public struct SnapshotTable {
    /// The widest a cell is shown; longer values end in `…`.
    public static let maximumCellWidth = 40

    /// The entity shown.
    public var entity: Schema.Entity
    /// The snapshots shown, in document order.
    public var snapshots: [DefaultSnapshot]
    /// How many snapshots the entity has in all.
    public var total: Int
    /// How many met the selection's condition or wanted identifiers (`nil` when it had none).
    public var matching: Int?

    /// The tables of the entities a selection kept, in schema order.
    public static func tables(for selection: SnapshotSelection) -> [SnapshotTable] {
        guard let schema = selection.schema else { return [] }
        return schema.entities.filter { selection.wantsSnapshots(of: $0) }.map { entity in
            SnapshotTable(
                entity: entity, snapshots: selection.snapshots[entity.name] ?? [], total: selection.totals[entity.name] ?? 0,
                matching: selection.isFiltered ? selection.matches[entity.name] ?? 0 : nil)
        }
    }

    /// The tables' snapshots as `show --json` prints them:
    /// `{"snapshots": {ENTITY: [SNAPSHOT, …]}, "storeIdentifier": ID}` in the document coding.
    public static func jsonData(for tables: [SnapshotTable], of document: Document) throws -> Data {
        try JSONFormat().writeSnapshots(
            tables.flatMap(\.snapshots), schema: Schema(tables.map(\.entity), version: document.schema.version),
            storeIdentifier: document.storeIdentifier)
    }

    /// The table as text: a title line, a header row, then aligned rows.
    public var text: String {
        let columns = ["$id"] + entity.attributes.map(\.name) + entity.relationships.map(\.name)
        var rows: [[String]] = [columns]
        for snapshot in snapshots {
            var row = [snapshot.persistentIdentifier.primaryKey]
            for attribute in entity.attributes { row.append(Self.render(snapshot[attribute.name] ?? .null)) }
            for relationship in entity.relationships {
                row.append(Self.render(snapshot[relationship.name] ?? .null))
            }
            rows.append(row.map(Self.truncated))
        }
        let widths = columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let count = matching.map { "\(snapshots.count) of \($0) matching, \(total) in all" } ?? "\(snapshots.count) of \(total)"
        var lines = ["\(entity.name) (\(count))"]
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            lines.append(cells.joined(separator: "  "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value as a table cell: text as is, dates in ISO 8601, data by size, references by key.
    public static func render(_ value: SnapshotValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let v): return String(v)
        case .int(let v): return String(v)
        case .uint(let v): return String(v)
        case .double(let v): return v.description
        case .float(let v): return v.description
        case .decimal(let v): return v.description
        case .string(let v):
            return v.replacingOccurrences(of: "\n", with: "⏎").replacingOccurrences(of: "\t", with: " ")
        case .date(let v): return DateCoding.string(from: v) ?? String(v.timeIntervalSinceReferenceDate)
        case .data(let v): return "<\(v.count) bytes>"
        case .uuid(let v): return v.uuidString
        case .url(let v): return v.absoluteString
        case .array(let elements): return "[" + elements.map(render).joined(separator: ", ") + "]"
        case .composite(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \(render($0.value))" }.joined(separator: ", ") + "}"
        case .reference(let id): return "→\(id.primaryKey)"
        case .references(let ids): return "[" + ids.map(\.primaryKey).joined(separator: ",") + "]"
        }
    }

    private static func truncated(_ cell: String) -> String {
        cell.count <= maximumCellWidth ? cell : String(cell.prefix(maximumCellWidth - 1)) + "…"
    }
}
