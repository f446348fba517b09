import Foundation
import Testing
import TripDocCore

/// Lightweight migration, change by change: what each does to the snapshots, the references and
/// the history, and which changes it refuses.
@Suite struct SchemaMigrationTests {
    static let store = "STORE"

    static let trip = Schema.Entity(
        name: "Trip",
        attributes: [
            .init("name", .string, options: [.preserveValueOnDeletion]),
            .init("start_date", .date, options: [.preserveValueOnDeletion]),
            .init("note", .string, isOptional: true),
        ],
        relationships: [.init("items", destination: "Item", isToMany: true, inverse: "trip", deleteRule: .cascade)],
        indices: [["name"]])
    static let item = Schema.Entity(
        name: "Item", attributes: [.init("title", .string)],
        relationships: [.init("trip", destination: "Trip", inverse: "items")])
    static let v1 = Schema([trip, item], version: Schema.Version(1, 0, 0))

    func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: Self.store, entityName: entity, primaryKey: key)
    }

    /// Three saves: two trips (one with two items) inserted, one renamed and dated, one deleted.
    func document(_ schema: Schema = v1) throws -> Document {
        var document = Document.empty(schema: schema, storeIdentifier: Self.store)
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let trip = PersistentIdentifier.temporary(entityName: "Trip", primaryKey: "t1")
        let other = PersistentIdentifier.temporary(entityName: "Trip", primaryKey: "t2")
        let first = PersistentIdentifier.temporary(entityName: "Item", primaryKey: "t3")
        let second = PersistentIdentifier.temporary(entityName: "Item", primaryKey: "t4")
        try document.applySaveChanges(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(
                    persistentIdentifier: trip,
                    values: ["name": .string("Tokyo"), "start_date": .date(date), "items": .references([first, second])]),
                DefaultSnapshot(
                    persistentIdentifier: other, values: ["name": .string("Lima"), "start_date": .date(date), "note": .string("x")]),
                DefaultSnapshot(persistentIdentifier: first, values: ["title": .string("Sushi"), "trip": .reference(trip)]),
                DefaultSnapshot(persistentIdentifier: second, values: ["title": .string("Temple"), "trip": .reference(trip)]),
            ]), timestamp: date)
        var tokyo = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "1") })
        tokyo["name"] = .string("Tokyo 2")
        tokyo["start_date"] = .date(date.addingTimeInterval(60))
        try document.applySaveChanges(DataStoreSaveChangesRequest(updated: [tokyo]), timestamp: date)
        let lima = try #require(document.snapshots.first { $0.persistentIdentifier == id("Trip", "2") })
        try document.applySaveChanges(DataStoreSaveChangesRequest(deleted: [lima]), timestamp: date)
        return document
    }

    func schema(_ version: Schema.Version = Schema.Version(2, 0, 0), _ change: (inout Schema.Entity, inout Schema.Entity) -> Void)
        -> Schema
    {
        var trip = Self.trip
        var item = Self.item
        change(&trip, &item)
        return Schema([trip, item], version: version)
    }

    func migrate(_ document: Document, to schema: Schema) throws -> Document {
        try SchemaMigration(from: document.schema, to: schema).migrate(document)
    }

    func snapshot(_ document: Document, _ entity: String, _ key: String) throws -> DefaultSnapshot {
        try #require(document.snapshots.first { $0.persistentIdentifier == id(entity, key) })
    }

    @Test func keepsTheStoreTheTransactionsAndTheirTokensAndSetsTheNewVersion() throws {
        let before = try document()
        let after = try migrate(before, to: schema { trip, _ in trip.attributes.append(.init("rating", .int, isOptional: true)) })
        #expect(after.storeIdentifier == Self.store)
        #expect(after.header.schemaVersion == Schema.Version(2, 0, 0))
        #expect(after.schema.version == Schema.Version(2, 0, 0))
        #expect(after.header.nextPrimaryKeys == before.header.nextPrimaryKeys)
        #expect(after.history.transactions.map { $0.token(in: after.storeIdentifier) }
            == before.history.transactions.map { $0.token(in: before.storeIdentifier) })
        #expect(after.history.transactions.map(\.changes.count) == [4, 1, 1])
    }

    @Test func addsAnOptionalAttributeAsNilAndOneWithADefaultAsTheDefault() throws {
        let after = try migrate(
            try document(),
            to: schema { trip, _ in
                trip.attributes.append(.init("rating", .int, isOptional: true))
                trip.attributes.append(.init("days", .int16, defaultValue: .int(7)))
            })
        let tokyo = try snapshot(after, "Trip", "1")
        #expect(tokyo["rating"] == .null)
        #expect(tokyo["days"] == .int(7))
        #expect(tokyo["name"] == .string("Tokyo 2"))
    }

    @Test func removesAnAttributeWithItsValuesInSnapshotsUpdatesAndTombstones() throws {
        let after = try migrate(try document(), to: schema { trip, _ in trip.attributes.removeAll { $0.name == "start_date" } })
        #expect(try snapshot(after, "Trip", "1")["start_date"] == nil)
        guard case .update(_, let names, let values) = after.history.transactions[1].changes[0],
            case .delete(_, let tombstone) = after.history.transactions[2].changes[0]
        else { Issue.record("expected an update, then a delete"); return }
        #expect(names == ["name"])
        #expect(values.keys.sorted() == ["name"])
        #expect(tombstone.keys.sorted() == ["name"])
    }

    @Test func renamesAnAttributeThroughItsOriginalNameInSnapshotsUpdatesAndTombstones() throws {
        let before = try document()
        let after = try migrate(
            before,
            to: schema { trip, _ in
                trip.attributes[1] = .init("startDate", .date, options: [.preserveValueOnDeletion], originalName: "start_date")
            })
        #expect(try snapshot(after, "Trip", "1")["startDate"] == snapshot(before, "Trip", "1")["start_date"])
        #expect(try snapshot(after, "Trip", "1")["start_date"] == nil)
        guard case .update(_, let names, let values) = after.history.transactions[1].changes[0],
            case .delete(_, let tombstone) = after.history.transactions[2].changes[0]
        else { Issue.record("expected an update, then a delete"); return }
        #expect(Set(names) == ["name", "startDate"])
        #expect(values["startDate"] != nil && values["start_date"] == nil)
        #expect(tombstone["startDate"] != nil && tombstone["start_date"] == nil)
    }

    @Test func anUpdateOfRemovedAttributesOnlyGoesAndItsTransactionStays() throws {
        let after = try migrate(
            try document(),
            to: schema { trip, _ in
                trip.attributes.removeAll { $0.name != "note" }
                trip.indices = []
            })
        #expect(after.history.transactions.map(\.changes.count) == [4, 0, 1])
        #expect(after.history.transactions.map(\.transactionIdentifier) == [1, 2, 3])
    }

    @Test func aLaterVersionKeepingTheOriginalNameStillMatchesByName() throws {
        let v2 = schema { trip, _ in trip.attributes[1] = .init("startDate", .date, originalName: "start_date") }
        let migrated = try migrate(try document(), to: v2)
        var v3 = v2
        v3.version = Schema.Version(3, 0, 0)
        let difference = SchemaDifference(from: migrated.schema, to: v3)
        #expect(difference.isEmpty)
    }

    @Test func renamesARelationshipThroughItsOriginalNameOnBothSides() throws {
        let after = try migrate(
            try document(),
            to: schema { trip, item in
                trip.relationships[0] = .init(
                    "bucketList", destination: "Item", isToMany: true, inverse: "trip", deleteRule: .cascade, originalName: "items")
                item.relationships[0] = .init("trip", destination: "Trip", inverse: "bucketList")
            })
        #expect(try snapshot(after, "Trip", "1")["bucketList"] == .references([id("Item", "1"), id("Item", "2")]))
        #expect(IntegrityChecker().problems(in: after).isEmpty)
    }

    @Test func renamesAnEntityThroughItsOriginalNameInIdentifiersReferencesAndHistory() throws {
        let renamed = Schema(
            [
                Schema.Entity(
                    name: "Journey", attributes: Self.trip.attributes,
                    relationships: [
                        .init("items", destination: "Item", isToMany: true, inverse: "trip", deleteRule: .cascade)
                    ], indices: [["name"]], originalName: "Trip"),
                Schema.Entity(
                    name: "Item", attributes: Self.item.attributes,
                    relationships: [.init("trip", destination: "Journey", inverse: "items")]),
            ], version: Schema.Version(2, 0, 0))
        let after = try migrate(try document(), to: renamed)
        let journey = try snapshot(after, "Journey", "1")
        #expect(journey["name"] == .string("Tokyo 2"))
        #expect(try snapshot(after, "Item", "1")["trip"] == .reference(id("Journey", "1")))
        #expect(after.history.transactions[1].changes[0].changedPersistentIdentifier == id("Journey", "1"))
        #expect(after.header.nextPrimaryKeys["Journey"] == 3 && after.header.nextPrimaryKeys["Trip"] == nil)
        #expect(IntegrityChecker().problems(in: after).isEmpty)
    }

    @Test func makesAnOptionalAttributeRequiredWithItsDefaultAndARequiredOneOptional() throws {
        let after = try migrate(
            try document(),
            to: schema { trip, _ in
                trip.attributes[2] = .init("note", .string, defaultValue: .string("none"))
                trip.attributes[0] = .init("name", .string, isOptional: true, options: [.preserveValueOnDeletion])
            })
        #expect(try snapshot(after, "Trip", "1")["note"] == .string("none"))
        #expect(try snapshot(after, "Trip", "1")["name"] == .string("Tokyo 2"))
        #expect(IntegrityChecker().problems(in: after).isEmpty)
    }

    @Test func addsRelationshipsEmptyAndRemovesOnesWithTheirReferences() throws {
        let after = try migrate(
            try document(),
            to: schema { trip, item in
                trip.relationships = [.init("favourites", destination: "Item", isToMany: true)]
                item.relationships = [.init("next", destination: "Item")]
            })
        let tokyo = try snapshot(after, "Trip", "1")
        #expect(tokyo["favourites"] == .references([]))
        #expect(tokyo["items"] == nil)
        #expect(try snapshot(after, "Item", "1")["next"] == .null)
        #expect(IntegrityChecker().problems(in: after).isEmpty)
    }

    @Test func changesOfDeleteRuleIndexAndExternalStorageChangeOnlyTheSchema() throws {
        let before = try document()
        let target = schema { trip, item in
            trip.relationships[0].deleteRule = .nullify
            trip.indices = [["name", "start_date"]]
            item.attributes[0].options = [.externalStorage]
        }
        let difference = SchemaDifference(from: before.schema, to: target)
        #expect(difference.isLightweight)
        #expect(Set(difference.changes.map(\.kind.name))
            == ["deleteRuleChanged", "indexAdded", "indexRemoved", "externalStorageChanged"])
        let after = try migrate(before, to: target)
        #expect(after.snapshots == before.snapshots)
        #expect(after.history == before.history)
    }

    @Test func addsAnEntityEmptyAndRemovesOneWithItsModelsReferencesAndHistory() throws {
        let target = Schema(
            [
                Schema.Entity(name: "Trip", attributes: Self.trip.attributes, indices: [["name"]]),
                Schema.Entity(name: "Note", attributes: [.init("text", .string)]),
            ], version: Schema.Version(2, 0, 0))
        let after = try migrate(try document(), to: target)
        #expect(after.snapshots.allSatisfy { $0.entityName == "Trip" })
        #expect(after.snapshots.count == 1)
        #expect(after.header.nextPrimaryKeys["Item"] == nil)
        #expect(after.history.transactions.map(\.changes.count) == [2, 1, 1])
        #expect(IntegrityChecker().problems(in: after).isEmpty)
    }

    @Test func addsAUniquenessConstraintWhenNoModelsShareItsValues() throws {
        let after = try migrate(try document(), to: schema { trip, _ in trip.uniquenessConstraints = [["name", "start_date"]] })
        #expect(after.schema.entity(named: "Trip")?.uniquenessConstraints == [["name", "start_date"]])
    }

    @Test(arguments: [false, true])
    func refusesAUniquenessConstraintThatModelsBreakNamingTheDuplicates(asAttributeOption: Bool) throws {
        var before = try document()
        let tokyo = try snapshot(before, "Trip", "1")
        let copy = DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Trip", primaryKey: "t9"), values: tokyo.values.filter { $0.key != "items" })
        try before.applySaveChanges(DataStoreSaveChangesRequest(inserted: [copy]))
        let target = schema { trip, _ in
            if asAttributeOption { trip.attributes[0].options.append(.unique) } else { trip.uniquenessConstraints = [["name"]] }
        }
        #expect(throws: SchemaMigrationError.duplicateValues(
            entity: "Trip", properties: ["name"],
            duplicates: [.init(first: id("Trip", "1"), duplicate: id("Trip", "3"))], count: 1)
        ) { try migrate(before, to: target) }
        let error = SchemaMigrationError.duplicateValues(
            entity: "Trip", properties: ["name"], duplicates: [.init(first: id("Trip", "1"), duplicate: id("Trip", "3"))],
            count: 1)
        #expect(error.description.contains("Trip/3 duplicates Trip/1"))
    }

    /// Each change a lightweight migration cannot make, and the kind it is reported as.
    static let notInferable: [(String, @Sendable (inout Schema.Entity, inout Schema.Entity) -> Void, String, String?)] = [
        ("type change", { trip, _ in trip.attributes[0].type = .int }, "typeChanged", "name"),
        ("required attribute without default", { trip, _ in trip.attributes.append(.init("days", .int)) },
         "requiredAttributeAddedWithoutDefault", "days"),
        ("optional made required without default", { trip, _ in trip.attributes[2].isOptional = false },
         "madeRequiredWithoutDefault", "note"),
        ("to-many made to-one", { trip, item in
            trip.relationships[0].isToMany = false
        }, "cardinalityChanged", "items"),
        ("transformer changed", { _, item in item.attributes[0].options = [.transformable(by: "Upper")] },
         "transformerChanged", "title"),
    ]

    @Test(arguments: notInferable.indices)
    func refusesAChangeALightweightMigrationCannotMakeNamingTheEntityPropertyAndChange(index: Int) throws {
        let (_, change, kind, property) = Self.notInferable[index]
        let target = schema(Schema.Version(2, 0, 0), change)
        let difference = SchemaDifference(from: Self.v1, to: target)
        #expect(!difference.isLightweight)
        let refused = try #require(difference.changesNeedingCustomStage.first)
        #expect(refused.kind.name == kind)
        #expect(refused.property == property)
        do {
            // Tokyo has no note and no days: the changes that need a value in every model are
            // refused for it, the others whatever the models.
            _ = try migrate(try document(), to: target)
            Issue.record("the migration was not refused")
        } catch let error as SchemaMigrationError {
            guard case .notLightweight(_, _, let changes) = error else { Issue.record("\(error)"); return }
            #expect(changes.contains(refused))
            #expect(error.description.contains(refused.place))
            #expect(error.description.contains("custom stage"))
        }
    }

    /// A required attribute added without a default, or an optional one made required without
    /// one: refused for a model without the value, made when no model lacks it.
    static let needingAValue: [(String, @Sendable (inout Schema.Entity, inout Schema.Entity) -> Void, String)] = [
        ("required attribute without default", { trip, _ in trip.attributes.append(.init("days", .int)) }, "days"),
        ("optional made required without default", { trip, _ in trip.attributes[2].isOptional = false }, "note"),
    ]

    @Test(arguments: needingAValue.indices)
    func makesAChangeNeedingAValueWhenTheEntityHasNoModels(index: Int) throws {
        let (_, change, property) = Self.needingAValue[index]
        var before = try document()
        let trips = before.snapshots.filter { $0.persistentIdentifier.entityName == "Trip" }
        try before.applySaveChanges(DataStoreSaveChangesRequest(deleted: trips))
        let after = try migrate(before, to: schema(Schema.Version(2, 0, 0), change))
        #expect(after.snapshots.filter { $0.persistentIdentifier.entityName == "Trip" }.isEmpty)
        let trip = try #require(after.schema.entity(named: "Trip"))
        #expect(trip.attributes.first { $0.name == property }?.isOptional == false)
        #expect(after.snapshots.count(where: { $0.persistentIdentifier.entityName == "Item" }) == 0, "cascaded with the trips")
    }

    @Test func makesAnOptionalAttributeRequiredWithoutDefaultWhenEveryModelHasAValue() throws {
        var before = try document()
        var tokyo = try snapshot(before, "Trip", "1")
        tokyo["note"] = .string("Spring")
        try before.applySaveChanges(DataStoreSaveChangesRequest(updated: [tokyo]))
        let after = try migrate(before, to: schema { trip, _ in trip.attributes[2].isOptional = false })
        #expect(try snapshot(after, "Trip", "1")["note"] == .string("Spring"))
    }

    @Test func refusesAChangeNeedingAValueNamingIt() throws {
        #expect(throws: SchemaMigrationError.notLightweight(
            from: Schema.Version(1, 0, 0), to: Schema.Version(2, 0, 0),
            changes: [SchemaChange(entity: "Trip", property: "days", kind: .requiredAttributeAddedWithoutDefault)])
        ) { try migrate(try document(), to: schema { trip, _ in trip.attributes.append(.init("days", .int)) }) }
    }

    @Test func refusesAnEntityRenamedWithoutOriginalName() throws {
        let target = Schema(
            [Schema.Entity(name: "Journey", attributes: Self.trip.attributes)], version: Schema.Version(2, 0, 0))
        let difference = SchemaDifference(from: Schema([Self.trip.withoutRelationships]), to: target)
        #expect(difference.changes == [SchemaChange(entity: "Journey", kind: .entityRenamedWithoutOriginalName(from: "Trip"))])
        #expect(throws: SchemaMigrationError.self) { try SchemaMigration(from: Schema([Self.trip.withoutRelationships]), to: target) }
    }

    @Test func refusesADocumentOfAnotherSchema() throws {
        let migration = try SchemaMigration(from: schema { trip, _ in trip.attributes.removeAll { $0.name == "note" } }, to: Self.v1)
        #expect(throws: SchemaMigrationError.documentSchemaMismatch(expected: Schema.Version(2, 0, 0), found: Schema.Version(1, 0, 0))) {
            try migration.migrate(try document())
        }
    }
}

extension Schema.Entity {
    fileprivate var withoutRelationships: Schema.Entity {
        var copy = self
        copy.relationships = []
        return copy
    }
}
