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
