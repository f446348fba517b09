import Foundation
import TripDocCore

/// Why a store's document could not be migrated to the current schema. The document is never
/// changed then: a migration is worked out in memory and written only when every stage is done.
public enum MigrationError: Error, CustomStringConvertible {
    /// The plan's stages do not lead from the document's version to the current one.
    case versionsDoNotConnect(document: Schema.Version, current: Schema.Version, stuckAt: Schema.Version, stages: [String])
    /// The container's models are none of the plan's versioned schemas.
    case currentSchemaNotInPlan(versions: [Schema.Version])
    /// A stage failed: `phase` is `willMigrate`, `didMigrate` or `lightweight migration`.
    case stageFailed(stage: String, phase: String, cause: any Error)
    /// The document needs migrating, but the configuration does not allow saving.
    case saveNotAllowed(configuration: String, document: Schema.Version, current: Schema.Version)

    public var description: String {
        switch self {
        case .versionsDoNotConnect(let document, let current, let stuckAt, let stages):
            "the migration plan does not connect the document's schema version \(document) to the current one, "
                + "\(current): no stage starts from version \(stuckAt)"
                + (stages.isEmpty ? " (the plan has no stages)" : " (its stages: " + stages.joined(separator: "; ") + ")")
                + "; add a stage from \(stuckAt), or list the document's version in the plan"
        case .currentSchemaNotInPlan(let versions):
            "the container's models are none of the migration plan's versioned schemas ("
                + versions.map(\.description).joined(separator: ", ")
                + "); open the container with the models of the plan's current version"
        case .stageFailed(let stage, let phase, let cause):
            "the migration's \(stage) failed in \(phase): \(cause); the document was not changed"
        case .saveNotAllowed(let configuration, let document, let current):
            "the store '\(configuration)' holds schema version \(document) and needs migrating to \(current), "
                + "but its configuration does not allow saving; open it once with allowsSave: true"
        }
    }
}
