import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    @Test(arguments: ["Guide.sqlite", "data.db", "trips"])
    func aFileNameSwiftDataTakesIsAJSONDocumentWhenNew(name: String) throws {
        let scratch = try ScratchFolder("spelling")
        let url = scratch.file(name)
        do {
            let context = ModelContext(
                try ModelContainer(for: Trip.self, configurations: ModelConfiguration(schema: Schema([Trip.self]), url: url)))
            context.insert(Trip(name: "Tokyo", destination: "Japan"))
            try context.save()
        }
        #expect(JSONFormat().recognizes(try Data(contentsOf: url)))
        let reopened = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        #expect(try reopened.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Tokyo"])
    }

    @Test func aFileNameNamingNoFormatIsReadInTheFormatItsBytesAre() throws {
        let scratch = try ScratchFolder("spelling")
        let written = scratch.file("trips.plist")
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: written)))
            context.insert(Trip(name: "Kyoto", destination: "Japan"))
            try context.save()
        }
        let renamed = scratch.file("trips.db")
        try FileManager.default.moveItem(at: written, to: renamed)
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: renamed)))
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Kyoto"])
        context.insert(Trip(name: "Nara", destination: "Japan"))
        try context.save()
        #expect(PlistFormat().recognizes(try Data(contentsOf: renamed)), "the document stays a property list")
    }

    @Test func aFileNoFormatRecognisesIsRefusedNamingItAndLeftAsItIs() throws {
        let scratch = try ScratchFolder("spelling")
        let url = scratch.file("Guide.sqlite")
        let sqlite = Data("SQLite format 3\u{0}".utf8) + Data(repeating: 0, count: 100)
        try sqlite.write(to: url)
        #expect {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        } throws: { error in
            guard let error = error as? ModelContextError, case .unrecognizedDocument(let named) = error else { return false }
            return named == url && error.description.contains("is not a tripdoc document")
        }
        #expect(try Data(contentsOf: url) == sqlite)
    }

    @Test func aFIFONamingNoFormatIsRefusedWithoutBeingRead() throws {
        // Read to choose a format, a FIFO would be waited on and lose the bytes read.
        let scratch = try ScratchFolder("spelling")
        let url = scratch.file("feed")
        #expect(mkfifo(url.path, 0o600) == 0)
        #expect {
            _ = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
        } throws: { error in
            guard let error = error as? ModelContextError, case .unrecognizedDocument(let named) = error else { return false }
            return named == url
        }
    }
}
