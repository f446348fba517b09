import Foundation
import TripDocCore

extension Document {
    /// The document migrated to `schema`, through `migrationPlan`'s stages when there is one
    /// (SwiftData's migration of a store on open); what ``DocumentStore`` does when it opens a
    /// document of another schema, and what a custom store holding a ``Document`` calls from
    /// its `init(_:migrationPlan:)`.
    ///
    /// Without a plan, the lightweight migration inferred from the two schemas
    /// (``SchemaMigration``). With one, the stages from the document's version to `schema`'s
    /// run in order: a lightweight stage migrates to its `toVersion`; a custom stage calls
    /// `willMigrate` with a context on its `fromVersion` models, migrates, then calls
    /// `didMigrate` with a context on its `toVersion` models (what the contexts save is kept,
    /// history included). Every stage works on a copy in memory: the document is returned only
    /// when all have succeeded, and the same store identifier and history tokens stay.
    ///
    /// - Throws: ``MigrationError/versionsDoNotConnect(document:current:stuckAt:stages:)`` when
    ///   no chain of stages leads to `schema`'s version; ``MigrationError/stageFailed(stage:phase:cause:)``
    ///   naming the stage and the cause; ``SchemaMigrationError`` without a plan.
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

extension MigrationStage {
    /// The document after this stage.
    func run(on document: Document) throws -> Document {
        let fromSchema = Schema(versionedSchema: fromVersion)
        let toSchema = Schema(versionedSchema: toVersion)
        var document = document
        switch self {
        case .lightweight:
            return try Self.phase(summary, "lightweight migration") {
                try SchemaMigration(from: document.schema, to: toSchema).migrate(document)
            }
        case .custom(_, _, let willMigrate, let didMigrate):
            if let willMigrate {
                document = try Self.phase(summary, "lightweight migration to \(fromSchema.version)") {
                    try document.schema == fromSchema ? document : SchemaMigration(from: document.schema, to: fromSchema).migrate(document)
                }
                document = try Self.phase(summary, "willMigrate") {
                    try MigrationStageStore.run(willMigrate, on: document, schema: fromSchema)
                }
            }
            document = try Self.phase(summary, "lightweight migration") {
                try SchemaMigration(from: document.schema, to: toSchema).migrate(document)
            }
            if let didMigrate {
                document = try Self.phase(summary, "didMigrate") {
                    try MigrationStageStore.run(didMigrate, on: document, schema: toSchema)
                }
            }
            return document
        }
    }

    /// `body`'s result, or its error wrapped to name the stage and phase.
    static func phase<T>(_ stage: String, _ phase: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError.stageFailed(stage: stage, phase: phase, cause: error)
        }
    }
}
