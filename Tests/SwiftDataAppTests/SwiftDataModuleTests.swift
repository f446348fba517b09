import SwiftData
import Testing

/// `import SwiftData` on Linux: SwiftData's qualified names resolve and Foundation comes with it
/// (this file imports nothing else that would bring Foundation).
@Suite struct SwiftDataModuleTests {
    @Test func qualifiedNamesResolve() throws {
        let schema: SwiftData.Schema = SwiftData.Schema([Journey.self])
        let configuration = SwiftData.ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
        let container = try SwiftData.ModelContainer(for: schema, configurations: configuration)
        let context: SwiftData.ModelContext = SwiftData.ModelContext(container)
        context.insert(Journey(title: "Oslo"))
        try context.save()
        let descriptor = SwiftData.FetchDescriptor<Journey>()
        #expect(try context.fetchCount(descriptor) == 1)
        let id: SwiftData.PersistentIdentifier = try #require(try context.fetch(descriptor).first).persistentModelID
        #expect(id.entityName == "Journey")
    }

    @Test func foundationComesWithTheImport() {
        let day = Date(timeIntervalSince1970: 0).addingTimeInterval(86_400)
        let url = URL(fileURLWithPath: "/tmp/travel.json")
        #expect(day.timeIntervalSince1970 == 86_400)
        #expect(url.lastPathComponent == "travel.json")
        #expect(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") != nil)
        #expect(Data([1, 2]).count == 2)
    }
}
