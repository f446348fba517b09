import Foundation
import Testing
import TripDocCore
import TripDocTestSupport

@Suite struct SchemaValidationTests {
    @Test func edgeCaseSchemaIsValid() throws {
        try EdgeCaseDocuments.schema.validate()
    }

    @Test(arguments: [
        (
            Schema([Schema.Entity(name: "A", relationships: [.init("b", destination: "B")])]),
            "destination entity 'B' does not exist"
        ),
        (
            Schema([
                Schema.Entity(name: "A", relationships: [.init("b", destination: "B", inverse: "a")]),
                Schema.Entity(name: "B", relationships: [.init("a", destination: "B")]),
            ]),
            "does not point back"
        ),
        (Schema([Schema.Entity(name: "A", attributes: [.init("$id", .string)])]), "reserved"),
        (Schema([Schema.Entity(name: "A", attributes: [.init("x", .string), .init("x", .int)])]), "declared twice"),
        (Schema([Schema.Entity(name: "A", uniquenessConstraints: [["missing"]])]), "neither an attribute nor a to-one relationship"),
        (
            Schema([
                Schema.Entity(
                    name: "A", attributes: [.init("slot", .int)], relationships: [.init("bs", destination: "B", isToMany: true)],
                    uniquenessConstraints: [["bs", "slot"]]),
                Schema.Entity(name: "B"),
            ]),
            "'bs', a to-many relationship"
        ),
        (Schema([Schema.Entity(name: "A", attributes: [.init("x", .int8, defaultValue: .int(300))])]), "default value"),
        (
            Schema([Schema.Entity(name: "A", attributes: [.init("x", .string, options: [.init(rawValue: "fast")])])]),
            "unknown option 'fast'"
        ),
        (Schema([Schema.Entity(name: "A", attributes: [.init("x", .array(.codable))])]), "Codable may only be"),
        (
            Schema([Schema.Entity(name: "A", attributes: [.init("x", .composite([CompositeField(name: "f", type: .codable)]))])]),
            "A.x.f: Codable may only be"
        ),
    ])
    func inconsistentSchemasAreRefusedWithTheReason(schema: Schema, reason: String) {
        #expect {
            try schema.validate()
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aUniquenessConstraintMayNameAToOneRelationship() throws {
        let schema = Schema([
            Schema.Entity(
                name: "Outlet", attributes: [.init("slot", .int)], relationships: [.init("device", destination: "Device")],
                uniquenessConstraints: [["device", "slot"]]),
            Schema.Entity(name: "Device"),
        ])
        try schema.validate()
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(EdgeCaseDocuments.schema)
        #expect(try JSONDecoder().decode(Schema.self, from: data) == EdgeCaseDocuments.schema)
    }
}

@Suite struct SchemaNamingTests {
    @Test func namesMustBeInNormalizationFormC() {
        let decomposed = "Cafe\u{301}"
        #expect(throws: SchemaError.self) { try Schema([Schema.Entity(name: decomposed)]).validate() }
        #expect(throws: SchemaError.self) {
            try Schema([Schema.Entity(name: "A", attributes: [.init(decomposed, .string)])]).validate()
        }
        #expect(throws: Never.self) { try Schema([Schema.Entity(name: "Caf\u{E9}")]).validate() }
    }

    @Test func compositeFieldsNeedDistinctNames() {
        let type = AttributeType.composite([CompositeField(name: "x", type: .int), CompositeField(name: "x", type: .string)])
        #expect(throws: SchemaError.self) {
            try Schema([Schema.Entity(name: "A", attributes: [.init("point", .array(type))])]).validate()
        }
    }

    @Test(arguments: ["1.0", "01.+2.0", "1.0.0.0", "a.b.c", "1..0", " 1.0.0"])
    func versionsAreThreeRunsOfDigits(text: String) {
        #expect(Schema.Version(text) == nil)
        #expect(Schema.Version("10.20.30") == Schema.Version(10, 20, 30))
    }

    @Test func entitiesAreOrderedByTheBytesOfTheirNames() {
        let schema = Schema([Schema.Entity(name: "\u{E9}a"), Schema.Entity(name: "Zoo"), Schema.Entity(name: "ex")])
        #expect(schema.entities.map(\.name) == ["Zoo", "ex", "\u{E9}a"])
    }
}

extension SchemaNamingTests {
    @Test func namesMayNotHoldControlCharacters() {
        #expect(throws: SchemaError.self) { try Schema([Schema.Entity(name: "Trip\u{1}")]).validate() }
    }
}
