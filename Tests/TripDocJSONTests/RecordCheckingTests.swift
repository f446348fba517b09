import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// The integrity session trusts a reader's typing of values only when the record was decoded by
/// the same entity it checks against; records of another schema laid out alike are checked value
/// by value, as snapshots are.
@Suite struct RecordCheckingTests {
    /// Hands each decoded record to a session made for `schema`.
    private struct CheckingSink: DocumentDecodingSink {
        let schema: Schema
        var session: IntegrityChecker.Session?

        mutating func begin(header: DocumentHeader, schema _: Schema, history: DocumentHistory?) throws {
            session = IntegrityChecker.Session(schema: schema, storeIdentifier: header.storeIdentifier)
        }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws { session!.add(snapshot) }
        mutating func add(record: consuming SnapshotRecord) throws { session!.add(record: record) }
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
        mutating func lateHistory(_ history: DocumentHistory) throws {}
    }

    /// Keeps the decoded records.
    private struct RecordCollector: DocumentDecodingSink {
        var records: [SnapshotRecord] = []
        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {}
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws {}
        mutating func add(record: consuming SnapshotRecord) throws { records.append(record) }
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {}
        mutating func lateHistory(_ history: DocumentHistory) throws {}
    }

    /// The edge-case schema with `string` required to be a URL and `int8` a Bool: the same
    /// names and roles (the same layout), other types.
    private static let retypedSchema: Schema = {
        var entity = EdgeCaseDocuments.schema.entities[0]
        entity.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            if attribute.name == "string" { attribute.type = .url }
            if attribute.name == "int8" { attribute.type = .bool }
            return attribute
        }
        return Schema([entity], version: EdgeCaseDocuments.schema.version)
    }()

    private func problems(checkedAgainst schema: Schema) throws -> [IntegrityProblem] {
        let data = try JSONFormat().writeDocument(EdgeCaseDocuments.document())
        var sink = CheckingSink(schema: schema)
        try JSONFormat().readDocument(from: data, file: "doc.json", limits: .standard, into: &sink)
        return sink.session!.finish()
    }

    @Test func recordsDecodedByTheSameSchemaHaveNoProblems() throws {
        #expect(try problems(checkedAgainst: EdgeCaseDocuments.schema) == [])
    }

    @Test func recordsOfASchemaWithOtherTypesAreCheckedValueByValue() throws {
        let misfits = try problems(checkedAgainst: Self.retypedSchema).filter { $0.kind == .valueDoesNotFitSchema }
        #expect(Set(misfits.map(\.property)) == ["string", "int8"])
        #expect(misfits.count == 2 * EdgeCaseDocuments.document().snapshots.count)
    }

    @Test func anEncoderForAnotherSchemaChecksTheValuesOfRecords() throws {
        var collector = RecordCollector()
        let data = try JSONFormat().writeDocument(EdgeCaseDocuments.document())
        try JSONFormat().readDocument(from: data, file: "doc.json", limits: .standard, into: &collector)
        let record = try #require(collector.records.first)
        var writer = JSONWriter()
        var sameSchema = EntityStreamEncoder(entity: EdgeCaseDocuments.schema.entities[0])
        try sameSchema.add(record: record, to: &writer)
        var otherTypes = EntityStreamEncoder(entity: Self.retypedSchema.entities[0])
        #expect(throws: DocumentWriteError.self) { try otherTypes.add(record: record, to: &writer) }
    }
}
