import Foundation
import Testing
import TripDoc
import TripDocTestSupport

enum Mood: String, PersistableValue {
    case calm, excited
}

@Model
final class Entry {
    var mood: Mood
    var tags: [String]
    var rating: Int?
    var weight: Double
    var id8: UInt8
    var photo: Data?
    var link: URL?
    var uuid: UUID
    var price: Decimal

    init(mood: Mood, tags: [String], rating: Int?, weight: Double) {
        self.mood = mood
        self.tags = tags
        self.rating = rating
        self.weight = weight
        self.id8 = 255
        self.uuid = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        self.price = Decimal(string: "12.34")!
    }
}

/// Attribute types of @Model properties survive a save and a fresh read in every format.
@Suite struct AttributeTypesTests {
    @Test(arguments: ["json", "plist", "tripbundle"])
    func everyKindOfAttributeRoundTrips(kind: String) throws {
        let scratch = try ScratchFolder("entries")
        let url = scratch.file("entries.\(kind)")
        let schema = Schema([Entry.self])
        let entity = try #require(schema.entity(named: "Entry"))
        #expect(entity.attribute(named: "mood")?.type == .string)
        #expect(entity.attribute(named: "tags")?.type == .array(.string))
        #expect(entity.attribute(named: "rating")?.isOptional == true)
        #expect(entity.attribute(named: "id8")?.type == .uint8)

        let context = ModelContext(try ModelContainer(for: Entry.self, configurations: ModelConfiguration(url: url)))
        let entry = Entry(mood: .excited, tags: ["a", "b"], rating: nil, weight: -0.0)
        entry.link = URL(string: "https://example.com/a?b=c")
        entry.photo = Data([0, 1, 2])
        context.insert(entry)
        try context.save()

        let reread = try #require(
            try ModelContext(try ModelContainer(for: Entry.self, configurations: ModelConfiguration(url: url)))
                .fetch(FetchDescriptor<Entry>()).first)
        #expect(reread.mood == .excited)
        #expect(reread.tags == ["a", "b"])
        #expect(reread.rating == nil)
        #expect(reread.weight.sign == .minus)
        #expect(reread.id8 == 255)
        #expect(reread.photo == Data([0, 1, 2]))
        #expect(reread.link?.absoluteString == "https://example.com/a?b=c")
        #expect(reread.uuid == entry.uuid)
        #expect(reread.price == Decimal(string: "12.34"))
    }
}
