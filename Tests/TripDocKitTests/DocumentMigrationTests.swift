import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// `tripdoc migrate`'s library: the one-pass migration writes exactly what migrating the whole
/// document in memory and writing it gives, from each format into each format.
@Suite struct DocumentMigrationTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("migrate")
    }

    /// `schema` with, in each entity (or only the first), a new optional attribute and the
    /// first attribute that no constraint or index names renamed through `originalName`; the
    /// other entities' records pass through unchanged.
    static func nextVersion(of schema: Schema, changingEveryEntity: Bool = true) -> Schema {
        let entities = schema.entities.enumerated().map { place, entity -> Schema.Entity in
            guard changingEveryEntity || place == 0 else { return entity }
            var entity = entity
            let listed = Set((entity.uniquenessConstraints + entity.indices).flatMap { $0 })
            let names = Set(entity.propertyNames)
            if let index = entity.attributes.firstIndex(where: { !listed.contains($0.name) && !$0.isUnique }),
                !names.contains(entity.attributes[index].name + "Renamed")
            {
                entity.attributes[index].originalName = entity.attributes[index].name
                entity.attributes[index].name += "Renamed"
            }
            if !names.contains("addedNote") { entity.attributes.append(.init("addedNote", .string, isOptional: true)) }
            return entity
        }
        return Schema(entities, version: Schema.Version(schema.version.major + 1, 0, 0))
    }

    @Test(arguments: 1...8)
    func onePassGivesTheBytesOfTheMigrationInMemory(seed: Int) throws {
        var generator = RandomDocuments(seed: UInt64(seed))
        let document = generator.document()
        let target = Self.nextVersion(of: document.schema, changingEveryEntity: seed.isMultiple(of: 2))
        let expected = try SchemaMigration(from: document.schema, to: target).migrate(document)
        for input in Self.formats {
            let inputPath = scratch.file("in-\(seed).\(input.fileExtensions[0])").path
            try input.writeDocument(document).write(to: URL(fileURLWithPath: inputPath))
            for output in Self.formats {
                let outputPath = scratch.file("out-\(seed)-\(input.name).\(output.fileExtensions[0])").path
                let migration = try DocumentMigration.migrate(
                    inputPath, to: target, writingTo: OutputDestination(path: outputPath, force: false), format: output)
                #expect(migration.snapshotCount == document.snapshots.count)
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: outputPath)) == output.writeDocument(expected),
                    "seed \(seed): \(input.name) → \(output.name)")
            }
        }
    }

    /// `schema` with `.externalStorage` turned on or off for every `Data` attribute, and
    /// nothing else changed: records pass through, and the bundle keeps the values apart or not.
    static func externalStorageToggled(in schema: Schema) -> Schema {
        let entities = schema.entities.map { entity -> Schema.Entity in
            var entity = entity
            for index in entity.attributes.indices where entity.attributes[index].type == .data {
                if entity.attributes[index].usesExternalStorage {
                    entity.attributes[index].options.removeAll { $0 == .externalStorage }
                } else {
                    entity.attributes[index].options.append(.externalStorage)
                }
            }
            return entity
        }
        return Schema(entities, version: Schema.Version(schema.version.major + 1, 0, 0))
    }

    @Test(arguments: 1...4)
    func recordsPassedOnUnchangedGiveTheBytesOfTheMigrationInMemory(seed: Int) throws {
        var generator = RandomDocuments(seed: UInt64(seed))
        let document = generator.document()
        let target = Self.externalStorageToggled(in: document.schema)
        let expected = try SchemaMigration(from: document.schema, to: target).migrate(document)
        let inputPath = scratch.file("in-\(seed).json").path
        try JSONFormat().writeDocument(document).write(to: URL(fileURLWithPath: inputPath))
        for output in Self.formats {
            let outputPath = scratch.file("out-\(seed).\(output.fileExtensions[0])").path
            _ = try DocumentMigration.migrate(
                inputPath, to: target, writingTo: OutputDestination(path: outputPath, force: false), format: output)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: outputPath)) == output.writeDocument(expected),
                "seed \(seed): json → \(output.name)")
        }
    }

    @Test func aDryRunWritesNothingAndReportsTheChanges() throws {
        var generator = RandomDocuments(seed: 3)
        let document = generator.document()
        let path = scratch.file("in.json").path
        try JSONFormat().writeDocument(document).write(to: URL(fileURLWithPath: path))
        let target = Self.nextVersion(of: document.schema)
        let migration = try DocumentMigration.migrate(path, to: target, writingTo: nil, format: JSONFormat())
        #expect(migration.output == nil)
        #expect(migration.difference == SchemaDifference(from: document.schema, to: target))
        #expect(migration.text.hasPrefix("Would migrate \(path) from schema"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["in.json"])
    }
}
