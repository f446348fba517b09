import Foundation
import TripDoc

extension DocumentDiff {
    /// Keeps, of `entity`'s differences, only those about objects that meet `condition` (a
    /// `--where` expression) on either side: an added object that meets it in B, a removed one
    /// that meets it in A, a changed one that meets it before or after the change. The schemas'
    /// differences and the other entities' stay as they are.
    ///
    /// - Throws: ``QueryError`` when the condition does not parse or does not fit either
    ///   document's schema.
    public mutating func restrict(
        to condition: String, entity: String, a recordsA: DocumentRecords, b recordsB: DocumentRecords
    ) throws {
        func matching(_ records: DocumentRecords) throws -> Set<PersistentIdentifier> {
            guard let described = records.schema.entity(named: entity) else { return [] }
            let query = try SnapshotQuery(condition, entity: described, schema: records.schema)
            return query.matchingIdentifiers { records.records(of: $0).map(\.snapshot) }
        }
        let inA = try matching(recordsA)
        let inB = try matching(recordsB)
        entities = entities.map { differences in
            guard differences.entity == entity else { return differences }
            var kept = differences
            kept.added = differences.added.filter { inB.contains($0.persistentIdentifier) }
            kept.removed = differences.removed.filter { inA.contains($0.persistentIdentifier) }
            kept.removedInTermsOfB = differences.removedInTermsOfB.filter { inA.contains($0.persistentIdentifier) }
            kept.changed = differences.changed.filter { inA.contains($0.a) || inB.contains($0.b) }
            return kept
        }
    }
}
