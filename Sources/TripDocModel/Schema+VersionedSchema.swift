import Foundation
import TripDocCore

extension Schema {
    /// The schema of a versioned schema's models, with its version (SwiftData's
    /// `Schema(versionedSchema:)`).
    public init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// Whether the two schemas have the same entities, whatever their versions.
    func hasTheEntities(of other: Schema) -> Bool { entities == other.entities }
}

extension MigrationStage {
    /// The version the stage migrates from.
    public var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from
        }
    }

    /// The version the stage migrates to.
    public var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): to
        }
    }

    /// `lightweight 1.0.0 → 2.0.0`, as errors name a stage.
    var summary: String {
        let kind = if case .lightweight = self { "lightweight" } else { "custom" }
        return "\(kind) stage \(fromVersion.versionIdentifier) → \(toVersion.versionIdentifier)"
    }
}
