import Foundation
import TripDocCore

extension SchemaMigrationPlan {
    /// The plan's version of `schema` (the container's models): `schema` with the version of
    /// the last of the plan's schemas that has the same entities.
    ///
    /// - Throws: ``MigrationError/currentSchemaNotInPlan(versions:)``.
    static func currentSchema(matching schema: Schema) throws -> Schema {
        let versions = schemas.map { Schema(versionedSchema: $0) }
        guard let match = versions.last(where: { $0.hasTheEntities(of: schema) }) else {
            throw MigrationError.currentSchemaNotInPlan(versions: versions.map(\.version))
        }
        return match
    }
}
