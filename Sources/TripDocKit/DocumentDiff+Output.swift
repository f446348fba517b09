import Foundation
import TripDoc

extension DocumentDiff {
    /// The number of added, removed and changed objects over all entities.
    public var summary: (added: Int, removed: Int, changed: Int) {
        entities.reduce((0, 0, 0)) { ($0.0 + $1.added.count, $0.1 + $1.removed.count, $0.2 + $1.changed.count) }
    }

    /// The differences as text, like `git diff`: `+` added, `-` removed, `~` changed, with ANSI
    /// colours when `colour` is set. Empty when the documents are identical.
    public func text(colour: Bool) -> String {
        guard !isIdentical else { return "" }
        func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var lines = [
            paint("--- \(a.file)  (store \(a.storeIdentifier))", "1"),
            paint("+++ \(b.file)  (store \(b.storeIdentifier))", "1"),
        ]
        if let lineage = lineageSentence { lines.append(paint("lineage: \(lineage)", "36")) }
        for difference in schemaDifferences { lines.append(paint("schema: \(difference)", "36")) }
        if let history {
            for (transactions, side, mark, code) in [(history.onlyInA, a, "-", "31"), (history.onlyInB, b, "+", "32")] {
                for transaction in transactions {
                    let time = DateCoding.string(from: transaction.timestamp) ?? "\(transaction.timestamp.timeIntervalSinceReferenceDate)"
                    lines.append(
                        paint(
                            "\(mark) history \(transaction.token(in: side.storeIdentifier))  \(time)  "
                                + "\(transaction.author ?? "(no author)")  \(transaction.changes.count) changes", code))
                }
            }
        }
        for entity in entities where !entity.isEmpty {
            var counts: [String] = []
            if !entity.added.isEmpty { counts.append("\(entity.added.count) added") }
            if !entity.removed.isEmpty { counts.append("\(entity.removed.count) removed") }
            if !entity.changed.isEmpty { counts.append("\(entity.changed.count) changed") }
            lines.append(paint("@@ \(entity.entity) (matched by \(entity.strategy.rawValue)): " + counts.joined(separator: ", ") + " @@", "36"))
            for snapshot in entity.removed {
                lines.append(paint("- \(snapshot.persistentIdentifier)  \(render(snapshot, ownNumbering: true))", "31"))
            }
            for snapshot in entity.added {
                lines.append(paint("+ \(snapshot.persistentIdentifier)  \(render(snapshot, ownNumbering: true))", "32"))
            }
            for object in entity.changed {
                let was = object.a.primaryKey == object.b.primaryKey ? "" : "  (\(object.a) in \(a.file))"
                lines.append(paint("~ \(object.b)\(was)", "33"))
                for change in object.attributes + object.relationships {
                    lines.append("    \(change.name): \(render(change.old)) → \(render(change.new))")
                }
            }
        }
        let total = summary
        lines.append("\(total.added) added, \(total.removed) removed, \(total.changed) changed")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How two stores of one lineage are related, for the text form's `lineage:` line; `nil`
    /// unless the sides are two stores of one lineage.
    var lineageSentence: String? {
        guard let root = sharedLineage else { return nil }
        let relation: String
        if let token = b.derivedFrom, token.storeIdentifier == a.storeIdentifier {
            relation = "\(b.file) was converted from \(a.file)'s store at transaction \(token.transactionIdentifier)"
        } else if let token = a.derivedFrom, token.storeIdentifier == b.storeIdentifier {
            relation = "\(a.file) was converted from \(b.file)'s store at transaction \(token.transactionIdentifier)"
        } else {
            relation = "both were converted from store \(root) (\(a.file) at transaction "
                + "\(a.derivedFrom?.transactionIdentifier ?? 0), \(b.file) at \(b.derivedFrom?.transactionIdentifier ?? 0))"
        }
        let byKey = !entities.isEmpty && entities.allSatisfy { $0.strategy == .key }
        return relation + (byKey ? "; objects matched by primary key" : "")
    }

    /// A snapshot's values for the text form. An added or removed object's references are in
    /// its own document's numbering (`ownNumbering`); a changed object's, in B's where the
    /// target is matched, marked where it is only in A.
    private func render(_ snapshot: DefaultSnapshot, ownNumbering: Bool = false) -> String {
        snapshot.values.sorted { $0.key < $1.key }.filter { $0.value != .null }
            .map { "\($0.key): \(render($0.value, ownNumbering: ownNumbering))" }
            .joined(separator: ", ")
    }

    /// A value for the text form: strings quoted, references as `Entity/key` (unless
    /// `ownNumbering`, marked when the target exists only in A).
    private func render(_ value: SnapshotValue, ownNumbering: Bool = false) -> String {
        func reference(_ id: PersistentIdentifier) -> String {
            ownNumbering || id.storeIdentifier == b.storeIdentifier || a.storeIdentifier == b.storeIdentifier
                ? id.description : "\(id) (only in \(a.file))"
        }
        switch value {
        case .string(let text): return Self.quoted(text)
        case .reference(let id): return reference(id)
        case .references(let ids): return "[" + ids.map(reference).joined(separator: ", ") + "]"
        case .array(let elements): return "[" + elements.map { render($0, ownNumbering: ownNumbering) }.joined(separator: ", ") + "]"
        default: return SnapshotTable.render(value)
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                result += scalar.properties.generalCategory == .control
                    ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return result + "\""
    }

    /// The differences as JSON (see `tripdoc diff --help` for the shape); values in the
    /// document coding of docs/FORMATS.md, so they are exact.
    public func jsonData(schemaA: Schema, schemaB: Schema) throws -> Data {
        var writer = JSONWriter(compactLevel: 4)
        let encoder = DocumentEncoder()
        writer.beginObject()
        writer.key("a")
        writeSide(a, to: &writer)
        writer.key("b")
        writeSide(b, to: &writer)
        writer.key("entities")
        writer.beginObject()
        for entity in entities.sorted(by: { $0.entity.utf8.lexicographicallyPrecedes($1.entity.utf8) }) {
            writer.key(entity.entity)
            writer.beginObject()
            writer.key("added")
            try encoder.encodeEntitySnapshots(entity.added[...], of: schemaB.entity(named: entity.entity)!, to: &writer)
            writer.key("changed")
            writer.beginArray()
            let attributeTypes = Dictionary(
                (schemaB.entity(named: entity.entity)?.attributes ?? []).map { ($0.name, $0.type) },
                uniquingKeysWith: { x, _ in x })
            for object in entity.changed {
                writer.beginObject()
                writer.key("a")
                writer.writeString(object.a.primaryKey)
                writer.key("attributes")
                writer.beginObject()
                for change in object.attributes {
                    // A field of a composite value has the type its composite declares; a field
                    // of a Codable value describes itself.
                    let type = change.field.isEmpty ? attributeTypes[change.property] : Self.fieldType(
                        attributeTypes[change.property], path: change.field)
                    writer.key(change.name)
                    writer.beginObject()
                    writer.key("new")
                    writeValue(change.new, type: type, encoder: encoder, to: &writer)
                    writer.key("old")
                    writeValue(change.old, type: type, encoder: encoder, to: &writer)
                    writer.endObject()
                }
                writer.endObject()
                writer.key("b")
                writer.writeString(object.b.primaryKey)
                writer.key("relationships")
                writer.beginObject()
                for change in object.relationships {
                    writer.key(change.property)
                    writer.beginObject()
                    writer.key("new")
                    writeReferences(change.new, to: &writer)
                    writer.key("old")
                    writeReferences(change.old, to: &writer)
                    writer.endObject()
                }
                writer.endObject()
                writer.endObject()
            }
            writer.endArray()
            writer.key("match")
            writer.writeString(entity.strategy.rawValue)
            writer.key("removed")
            try encoder.encodeEntitySnapshots(entity.removed[...], of: schemaA.entity(named: entity.entity)!, to: &writer)
            writer.endObject()
        }
        writer.endObject()
        if let history {
            writer.key("history")
            writer.beginObject()
            writer.key("onlyInA")
            writer.beginArray()
            for transaction in history.onlyInA { writer.writeString(transaction.token(in: a.storeIdentifier).description) }
            writer.endArray()
            writer.key("onlyInB")
            writer.beginArray()
            for transaction in history.onlyInB { writer.writeString(transaction.token(in: b.storeIdentifier).description) }
            writer.endArray()
            writer.endObject()
        }
        writer.key("identical")
        writer.writeBool(isIdentical)
        writer.key("lineage")
        if let sharedLineage { writer.writeString(sharedLineage) } else { writer.writeNull() }
        writer.key("schema")
        writer.beginArray()
        for difference in schemaDifferences { writer.writeString(difference) }
        writer.endArray()
        let total = summary
        writer.key("summary")
        writer.beginObject()
        writer.key("added")
        writer.writeInt(Int64(total.added))
        writer.key("changed")
        writer.writeInt(Int64(total.changed))
        writer.key("removed")
        writer.writeInt(Int64(total.removed))
        writer.endObject()
        writer.endObject()
        return writer.data
    }

    private func writeSide(_ side: Side, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("derivedFrom")
        if let derivedFrom = side.derivedFrom { writer.writeString(derivedFrom.description) } else { writer.writeNull() }
        writer.key("file")
        writer.writeString(side.file)
        writer.key("storeIdentifier")
        writer.writeString(side.storeIdentifier)
        writer.endObject()
    }

    /// The type of the field at `path` (`.a.b[2]`) inside a value of `type`.
    private static func fieldType(_ type: AttributeType?, path: String) -> AttributeType? {
        guard var type else { return nil }
        var rest = Substring(path)
        while let first = rest.first {
            if case .codable = type { return .codable }
            rest = rest.dropFirst()
            if first == "[" {
                guard case .array(let element) = type else { return nil }
                type = element
                rest = rest.drop { $0 != "]" }.dropFirst()
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                guard case .composite(let fields) = type, let field = fields.first(where: { $0.name == rest[..<end] })
                else { return nil }
                type = field.type
                rest = rest[end...]
            }
        }
        return type
    }

    private func writeValue(_ value: SnapshotValue, type: AttributeType?, encoder: DocumentEncoder, to writer: inout JSONWriter) {
        // JSON has null; a nil value is written as null here (documents omit it instead).
        guard value != .null, let type else {
            writer.writeString("")
            return
        }
        encoder.encodeValue(value, as: type, to: &writer)
    }

    /// References as `Entity/key` (B's identity), or `a:Entity/key` for a target only in A;
    /// a to-many relationship as an array, an empty to-one as "".
    private func writeReferences(_ value: SnapshotValue, to writer: inout JSONWriter) {
        func name(_ id: PersistentIdentifier) -> String {
            id.storeIdentifier == b.storeIdentifier || a.storeIdentifier == b.storeIdentifier
                ? id.description : "a:\(id)"
        }
        switch value {
        case .reference(let id): writer.writeString(name(id))
        case .references(let ids):
            writer.beginArray()
            for id in ids { writer.writeString(name(id)) }
            writer.endArray()
        default: writer.writeString("")
        }
    }
}
