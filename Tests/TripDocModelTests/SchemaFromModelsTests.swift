import Foundation
import Testing
import TripDoc

/// The schema `@Model` types describe, as SwiftData builds it.
@Suite struct SchemaFromModelsTests {
    let schema = Schema([Trip.self])

    @Test func relationshipDestinationsJoinTheSchema() {
        #expect(schema.entities.map(\.name) == ["BucketListItem", "LivingAccommodation", "Trip"])
    }

    @Test func aModelTypeNamesItsEntity() {
        #expect(Schema.entityName(for: BucketListItem.self) == "BucketListItem")
        #expect(schema.entity(for: LivingAccommodation.self)?.name == "LivingAccommodation")
        #expect(Schema([BucketListItem.self]).entity(for: Trip.self)?.name == "Trip")
    }

    @Test func attributesKeepTheirTypesOptionsAndOrder() throws {
        let trip = try #require(schema.entity(named: "Trip"))
        #expect(trip.attributes.map(\.name) == ["name", "destination", "startDate", "endDate"])
        #expect(trip.attributes.map(\.type) == [.string, .string, .date, .date])
        #expect(trip.attribute(named: "name")?.options == [.preserveValueOnDeletion])
        #expect(trip.attribute(named: "destination")?.options == [])
        #expect(trip.attribute(named: "isSelected") == nil, "@Transient is not persisted")
        #expect(trip.uniquenessConstraints == [["name", "startDate", "endDate"]])
        #expect(trip.indices == [["name"], ["startDate"], ["endDate"], ["name", "startDate", "endDate"]])
    }

    @Test func inversesAreInferredFromEitherSide() throws {
        let trip = try #require(schema.entity(named: "Trip"))
        let bucketList = try #require(trip.relationship(named: "bucketList"))
        #expect(bucketList.isToMany && bucketList.destination == "BucketListItem")
        #expect(bucketList.inverseName == "trip" && bucketList.deleteRule == .cascade)
        let item = try #require(schema.entity(named: "BucketListItem"))
        let back = try #require(item.relationship(named: "trip"))
        #expect(!back.isToMany && back.inverseName == "bucketList" && back.deleteRule == .nullify)
        #expect(try #require(schema.entity(named: "LivingAccommodation")).relationship(named: "trip")?.inverseName
            == "livingAccommodation")
        try schema.validate()
    }
}
