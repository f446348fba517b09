import Foundation

/// The values of the uniqueness constraints being added to one entity, and the models that
/// share them (models with a `nil` among the values share nothing, as in the integrity check).
struct UniquenessTracker {
    let entity: EntityMigration
    private var duplicates: [[SchemaMigrationError.DuplicatePair]]
    private var counts: [Int]
    private var tables: [[[SnapshotValue]: PersistentIdentifier]]
    /// How many pairs an error names.
    static let named = 5

    init(entity: EntityMigration) {
        self.entity = entity
        duplicates = Array(repeating: [], count: entity.uniqueness.count)
        counts = Array(repeating: 0, count: entity.uniqueness.count)
        tables = Array(repeating: [:], count: entity.uniqueness.count)
    }

    mutating func add(_ identifier: PersistentIdentifier, value: (String) -> SnapshotValue) throws {
        for (index, constraint) in entity.uniqueness.enumerated() {
            let key = constraint.map(value)
            if key.contains(.null) { continue }
            if let first = tables[index][key] {
                counts[index] += 1
                if duplicates[index].count < Self.named {
                    duplicates[index].append(SchemaMigrationError.DuplicatePair(first: first, duplicate: identifier))
                }
            } else {
                tables[index][key] = identifier
            }
        }
    }

    func finish() throws {
        for (index, constraint) in entity.uniqueness.enumerated() where counts[index] > 0 {
            throw SchemaMigrationError.duplicateValues(
                entity: entity.entity.name, properties: constraint, duplicates: duplicates[index], count: counts[index])
        }
    }
}
