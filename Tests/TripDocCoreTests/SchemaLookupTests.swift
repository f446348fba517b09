import Foundation
import Testing
import TripDocCore

/// `Schema.entity(named:)`, `Entity.attribute(named:)` and `Entity.relationship(named:)` find a
/// name at a cost that does not grow with the schema: passes over every entity of a large
/// schema, or every property of a wide entity, that look each one up (reading, checking,
/// comparing, migrating) stay linear. They match names as a search with `==` would.
@Suite struct SchemaLookupTests {
    /// 100,000 lookups in a schema of 100,000 entities, and in an entity of 100,000 attributes
    /// and relationships: a search of the list for each compares names 5×10^9 times (minutes,
    /// more in a debug build); a table finds them all in a fraction of a second. The bound is
    /// a hundred times what the table takes.
    @Test func lookingUpEveryNameOfAHugeSchemaIsLinear() throws {
        let count = 100_000
        let names = (0..<count).map { "N\($0)" }
        let schema = Schema(names.map { Schema.Entity(name: $0) })
        let wide = Schema.Entity(
            name: "Wide", attributes: names.map { Schema.Attribute($0, .int) },
            relationships: names.map { Schema.Relationship("r" + $0, destination: "Wide") })
        var found = 0
        let elapsed = ContinuousClock().measure {
            for name in names {
                if schema.entity(named: name)?.name == name { found += 1 }
                if wide.attribute(named: name)?.name == name { found += 1 }
                if wide.relationship(named: "r" + name)?.name == "r" + name { found += 1 }
            }
        }
        #expect(found == 3 * count)
        #expect(elapsed < .seconds(20))
        #expect(schema.entity(named: "missing") == nil)
        #expect(wide.attribute(named: "rN0") == nil)
        #expect(wide.relationship(named: "N0") == nil)
    }

    /// The first of two equal names wins, and canonically equivalent spellings match, as
    /// `first { $0.name == name }` matched them.
    @Test func namesMatchAsSwiftComparesThem() throws {
        let entity = Schema.Entity(
            name: "Caf\u{E9}", attributes: [.init("x", .int), .init("x", .string), .init("Caf\u{E9}", .bool)],
            relationships: [.init("r", destination: "A"), .init("r", destination: "B")])
        #expect(entity.attribute(named: "x")?.type == .int)
        #expect(entity.attribute(named: "Cafe\u{301}")?.type == .bool)
        #expect(entity.relationship(named: "r")?.destination == "A")
        let schema = Schema([entity, Schema.Entity(name: "A")])
        #expect(schema.entity(named: "Cafe\u{301}")?.name == "Caf\u{E9}")
    }

    /// The tables follow the lists they index: after a change of the attributes or
    /// relationships, lookups see the change; equality, hashing and coding see only the lists.
    @Test func lookupsFollowChangesAndTakeNoPartInTheValue() throws {
        var entity = Schema.Entity(name: "A", attributes: [.init("x", .int)])
        entity.attributes.append(.init("y", .string))
        entity.attributes[0].name = "z"
        #expect(entity.attribute(named: "x") == nil)
        #expect(entity.attribute(named: "z")?.type == .int)
        #expect(entity.attribute(named: "y")?.type == .string)
        entity.relationships = [.init("r", destination: "A")]
        #expect(entity.relationship(named: "r") != nil)

        let same = Schema.Entity(name: "A", attributes: [.init("z", .int), .init("y", .string)], relationships: [.init("r", destination: "A")])
        #expect(entity == same)
        #expect(entity.hashValue == same.hashValue)
        let schema = Schema([entity], version: Schema.Version(2, 0, 0))
        let decoded = try JSONDecoder().decode(Schema.self, from: try JSONEncoder().encode(schema))
        #expect(decoded == schema)
        #expect(decoded.entity(named: "A")?.attribute(named: "y")?.type == .string)
        let keys = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(entity)) as? [String: Any]).keys.sorted()
        #expect(keys == ["attributes", "indices", "name", "relationships", "uniquenessConstraints"])
    }
}
