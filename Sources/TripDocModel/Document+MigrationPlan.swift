import Foundation
import TripDocCore

extension Document {
    /// The document migrated to `schema`, through `migrationPlan`'s stages when there is one
    /// (SwiftData's migration of a store on open); what ``DocumentStore`` does when it opens a
    /// document of another schema, and what a custom store holding a ``Document`` calls from
    /// its `init(_:migrationPlan:)`.
    ///
    /// Without a plan, the lightweight migration inferred from the two schemas
    /// (`SchemaMigration`). With one, the stages from the document's version to `schema`'s
    /// run in order: a lightweight stage migrates to its `toVersion`; a custom stage calls
    /// `willMigrate` with a context on its `fromVersion` models, migrates, then calls
    /// `didMigrate` with a context on its `toVersion` models (what the contexts save is kept,
    /// history included). Every stage works on a copy in memory: the document is returned only
    /// when all have succeeded, and the same store identifier and history tokens stay.
    ///
    /// - Throws: ``MigrationError/versionsDoNotConnect(document:current:stuckAt:stages:)`` when
    ///   no chain of stages leads to `schema`'s version; ``MigrationError/stageFailed(stage:phase:cause:)``
    ///   naming the stage and the cause; `SchemaMigrationError` without a plan.
    public func migrated(to schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> Document {
        if self.schema == schema { return self }
        guard let migrationPlan, self.schema.version != schema.version else {
            return try SchemaMigration(from: self.schema, to: schema).migrate(self)
        }
        let stages = migrationPlan.stages
        var document = self
        var version = self.schema.version
        var stagesRun = 0
        while version != schema.version {
            guard stagesRun < stages.count,
                let stage = stages.first(where: { $0.fromVersion.versionIdentifier == version })
            else {
                throw MigrationError.versionsDoNotConnect(
                    document: self.schema.version, current: schema.version, stuckAt: version, stages: stages.map(\.summary))
            }
            document = try stage.run(on: document)
            version = stage.toVersion.versionIdentifier
            stagesRun += 1
        }
        if document.schema != schema {
            // The plan's last version, as the container's models declare it.
            document = try MigrationStage.phase("the last stage's", "lightweight migration") {
                try SchemaMigration(from: document.schema, to: schema).migrate(document)
            }
        }
        return document
    }
}
