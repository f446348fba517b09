import Foundation
import TripDocCore

/// Random but reproducible documents for property-based tests: random schemas (every attribute
/// type, optional or not, arrays and composites), values at the edges, self-references and
/// cycles, a parent/children pair kept consistent both ways, empty entities, and now and then a
/// to-many relationship of thousands.
public struct RandomDocuments {
    private var random: SplitMix

    /// A generator whose documents are the same for the same `seed`.
    public init(seed: UInt64) { random = SplitMix(seed: seed) }

    private mutating func next() -> UInt64 { random.next() }
    private mutating func below(_ bound: Int) -> Int { random.below(bound) }
    private mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
    private mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    static let scalarTypes: [AttributeType] = [
        .string, .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64, .double, .float,
        .decimal, .date, .data, .uuid, .url,
    ]

    static let strings = [
        "", "plain", "Zürich", "東京", "\u{1F5FC}\u{1F3EF}", "quote \" and \\ backslash", "line\nfeed\rreturn\ttab",
        "nul\u{0}inside", "\u{1F}\u{7F}\u{FFFD}", "]]> <tag> &amp; &#13;", " leading and trailing ", "e\u{301}",
    ]

    private mutating func type(depth: Int = 0) -> AttributeType {
        // Codable only as an attribute's own type (docs/FORMATS.md 2.4).
        switch below(depth > 1 ? 10 : depth == 0 ? 13 : 12) {
        case 12: return .codable
        case 10: return .array(type(depth: depth + 1))
        case 11:
            return .composite(
                (0..<(1 + below(3))).map { CompositeField(name: "f\($0)", type: type(depth: depth + 1), isOptional: chance(30)) })
        default: return pick(Self.scalarTypes)
        }
    }

    private mutating func value(_ type: AttributeType) -> SnapshotValue {
        switch type {
        case .string: return .string(pick(Self.strings))
        case .bool: return .bool(chance(50))
        case .int, .int64: return .int(pick([Int64.min, Int64.max, 0, -1, 1, Int64(below(1_000_000)) - 500_000]))
        case .int8: return .int(Int64(pick([Int8.min, Int8.max, 0])))
        case .int16: return .int(Int64(pick([Int16.min, Int16.max, -7])))
        case .int32: return .int(Int64(pick([Int32.min, Int32.max, 12345])))
        case .uint, .uint64: return .uint(pick([UInt64.max, 0, 1 << 53 + 1]))
        case .uint8: return .uint(UInt64(pick([UInt8.max, 0])))
        case .uint16: return .uint(UInt64(pick([UInt16.max, 1])))
        case .uint32: return .uint(UInt64(pick([UInt32.max, 2])))
        case .double:
            return .double(
                pick([.nan, .infinity, -.infinity, -0.0, 0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, Double(bitPattern: next() >> 2)]))
        case .float: return .float(pick([.nan, -.infinity, -0.0, 0.1, .leastNonzeroMagnitude, Float(bitPattern: UInt32(truncatingIfNeeded: next() >> 34))]))
        case .decimal: return .decimal(pick([Decimal(string: "0.1")!, Decimal(string: "-12345678901234567890.5")!, Decimal(0), .nan]))
        case .date:
            return .date(
                Date(
                    timeIntervalSinceReferenceDate: pick([
                        0, -0.0, 0.5, -0.25, 757_382_400.123_456_7, -63_113_904_000, 1e15, Double(below(1 << 30)) / 7,
                    ])))
        case .data: return .data(Data((0..<below(40)).map { _ in UInt8(truncatingIfNeeded: next()) }))
        case .uuid: return .uuid(UUID(uuid: (0..<16).map { _ in UInt8(truncatingIfNeeded: next()) }.withUnsafeBytes { $0.load(as: uuid_t.self) }))
        case .url: return .url(URL(string: pick(["https://example.com/a%20b?q=1#f", "file:///tmp/x", "mailto:a@b.c", "relative/path"]))!)
        case .array(let element): return .array((0..<below(4)).map { _ in value(element) })
        case .composite(let fields):
            var values: [String: SnapshotValue] = [:]
            for field in fields where !(field.isOptional && chance(40)) { values[field.name] = value(field.type) }
            return .composite(values)
        case .codable: return codableValue(depth: 0)
        }
    }

    /// A value of a Codable attribute: objects, arrays, nil inside them, and scalars at the edges.
    private mutating func codableValue(depth: Int) -> SnapshotValue {
        switch below(depth > 2 ? 7 : 9) {
        case 0 where depth > 0: return .null
        case 0: return .composite([:])
        case 1: return .bool(chance(50))
        case 2: return .int(pick([Int64.min, Int64.max, 0, -1]))
        case 3: return .uint(pick([UInt64.max, UInt64(Int64.max) + 1]))
        case 4: return .double(pick([-0.0, 0.5, 1e300, .leastNonzeroMagnitude, 3.0]))
        case 5, 6: return .string(pick(Self.strings + ["NaN", "Infinity"]))
        case 7: return .array((0..<below(4)).map { _ in codableValue(depth: depth + 1) })
        default:
            var members: [String: SnapshotValue] = [:]
            for _ in 0..<below(4) {
                members[pick(["a", "flight", "", "Zürich", "1", "$id", "k e y", "&<>"])] = codableValue(depth: depth + 1)
            }
            return .composite(members)
        }
    }

    /// A consistent document: its integrity checker finds nothing.
    public mutating func document() -> Document {
        let entityCount = 1 + below(3)
        var entities: [Schema.Entity] = (0..<entityCount).map { index in
            Schema.Entity(
                name: "E\(index)",
                attributes: (0..<below(7)).map { Schema.Attribute("a\($0)", type(), isOptional: chance(30)) })
        }
        // A self-referencing to-one (cycles) on E0, and a parent/children pair between E0 and the last entity.
        entities[0].relationships.append(.init("next", destination: "E0"))
        let child = entityCount - 1
        entities[0].relationships.append(.init("children", destination: "E\(child)", isToMany: true, inverse: "parent"))
        entities[child].relationships.append(.init("parent", destination: "E0", inverse: "children"))
        if chance(50), entityCount > 1 { entities[0].uniquenessConstraints = [] }
        let schema = Schema(entities, version: Schema.Version(1, below(3), 0))
        var document = Document.empty(schema: schema, storeIdentifier: "RANDOM-\(next() % 1000)")

        var counts = (0..<entityCount).map { _ in below(6) }
        if chance(20) { counts[child] = 2000 + below(500) }  // a to-many of thousands
        if entityCount > 2 { counts[1] = 0 }  // an empty entity
        counts[0] = max(counts[0], 1)
        var snapshots: [[DefaultSnapshot]] = []
        for (index, entity) in schema.entities.enumerated() {
            snapshots.append(
                (0..<counts[index]).map { key in
                    var values: [String: SnapshotValue] = [:]
                    for attribute in entity.attributes {
                        values[attribute.name] = attribute.isOptional && chance(40) ? .null : value(attribute.type)
                    }
                    for relationship in entity.relationships {
                        values[relationship.name] = relationship.isToMany ? .references([]) : .null
                    }
                    return DefaultSnapshot(
                        persistentIdentifier: document.identifier(entityName: entity.name, primaryKey: String(key + 1)),
                        values: values)
                })
        }
        // Cycles: each E0 points at a random E0 (itself sometimes).
        for index in snapshots[0].indices {
            snapshots[0][index]["next"] = .reference(snapshots[0][below(snapshots[0].count)].persistentIdentifier)
        }
        // Children get a parent, and the parent lists them.
        for index in snapshots[child].indices where chance(90) {
            let parent = below(snapshots[0].count)
            let childID = snapshots[child][index].persistentIdentifier
            snapshots[child][index]["parent"] = .reference(snapshots[0][parent].persistentIdentifier)
            guard case .references(var list) = snapshots[0][parent]["children"] ?? .references([]) else { continue }
            list.append(childID)
            snapshots[0][parent]["children"] = .references(list)
        }
        document.snapshots = snapshots.flatMap { $0 }
        for (index, entity) in schema.entities.enumerated() {
            document.header.nextPrimaryKeys[entity.name] = Int64(counts[index] + 1)
        }
        return document
    }
}
