import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// The ways real SwiftData code spells a container's configurations all compile and work.
@Suite struct ContainerSpellingTests {
    @Test func configurationsAsAnArrayOfModelConfigurationWithImplicitMembers() throws {
        let container = try ModelContainer(for: Trip.self, configurations: [.init(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        context.insert(Trip(name: "Tokyo", destination: "Japan"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
        #expect(container.configurations.first?.isStoredInMemoryOnly == true)

        let schema = Schema([Trip.self])
        let configuration = ModelConfiguration(schema: schema, isStoredInMemoryOnly: true)
        let fromSchema = try ModelContainer(for: schema, configurations: [configuration])
        #expect(fromSchema.schema == schema)
    }

    @Test func configurationsVariadicAndNone() throws {
        let scratch = try ScratchFolder("spelling")
        let one = try ModelContainer(for: Trip.self, configurations: .init(url: scratch.file("a.json")))
        #expect(one.configurations.count == 1)
        let two = try ModelContainer(
            for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true),
            ModelConfiguration(url: scratch.file("b.json")))
        #expect(two.configurations.count == 2)
        #expect(one.configurations.first?.url == scratch.file("a.json"))
        #expect(two.dataStoreConfigurations.map(\.name).count == 2)
        // No configuration: the default store (compiled here; opened only in the default place).
        let make: () throws -> ModelContainer = { try ModelContainer(for: Trip.self) }
        _ = make
    }
}
