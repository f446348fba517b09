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
        (Schema([Schema.Entity(name: "A", uniquenessConstraints: [["missing"]])]), "not an attribute"),
        (Schema([Schema.Entity(name: "A", attributes: [.init("x", .int8, defaultValue: .int(300))])]), "default value"),
        (
            Schema([Schema.Entity(name: "A", attributes: [.init("x", .string, options: [.init(rawValue: "fast")])])]),
            "unknown option 'fast'"
        ),
    ])
    func inconsistentSchemasAreRefusedWithTheReason(schema: Schema, reason: String) {
        #expect {
            try schema.validate()
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(EdgeCaseDocuments.schema)
        #expect(try JSONDecoder().decode(Schema.self, from: data) == EdgeCaseDocuments.schema)
    }
}
