import Foundation
import TripDocCore

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
