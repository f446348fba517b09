import Foundation

/// Why a document cannot be migrated from one schema to another.
public enum SchemaMigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Changes a lightweight migration cannot make (a type change, an entity renamed without
    /// `originalName`, …), each naming its entity, property and change.
    case notLightweight(from: Schema.Version, to: Schema.Version, changes: [SchemaChange])
    /// A uniqueness constraint is added, and existing models already share its values.
    case duplicateValues(entity: String, properties: [String], duplicates: [DuplicatePair], count: Int)
    /// The document's schema is not the one the migration starts from.
    case documentSchemaMismatch(expected: Schema.Version, found: Schema.Version)
    /// The new schema is not consistent.
    case invalidDestination(SchemaError)

    /// Two models that share the values of a uniqueness constraint being added.
    public struct DuplicatePair: Hashable, Sendable, CustomStringConvertible {
        /// The model kept first, in document order.
        public var first: PersistentIdentifier
        /// The model with the same values.
        public var duplicate: PersistentIdentifier

        /// Creates a pair.
        public init(first: PersistentIdentifier, duplicate: PersistentIdentifier) {
            self.first = first
            self.duplicate = duplicate
        }

        /// `Trip/4 duplicates Trip/1`
        public var description: String { "\(duplicate) duplicates \(first)" }
    }

    public var description: String {
        switch self {
        case .notLightweight(let from, let to, let changes):
            "cannot migrate from schema \(from) to \(to) with a lightweight migration: "
                + changes.map(\.description).joined(separator: "; ")
                + ". Make these changes in a custom stage (MigrationStage.custom): add the new property or "
                + "entity beside the old one, copy the values in didMigrate, and remove the old one in a later version"
        case .duplicateValues(let entity, let properties, let duplicates, let count):
            "cannot add the uniqueness constraint on \(entity) (\(properties.joined(separator: ", "))): "
                + "\(count) model(s) have the values of another: "
                + duplicates.map(\.description).joined(separator: ", ") + (count > duplicates.count ? ", …" : "")
                + ". Remove or change the duplicates first (in a custom stage's willMigrate, or in the app), then migrate"
        case .documentSchemaMismatch(let expected, let found):
            "the document's schema (version \(found)) is not the one the migration starts from (version \(expected))"
        case .invalidDestination(let error):
            "the new schema cannot be migrated to: \(error)"
        }
    }
}
