import Foundation
import Testing
import TripDoc
import TripDocTestSupport

@Model
final class Playlist {
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \Song.playlist)
    var songs: [Song]? = []
    init(title: String) { self.title = title }
}

@Model
final class Song {
    var name: String
    var playlist: Playlist?
    init(name: String) { self.name = name }
}

/// What a context keeps right in the less common paths: upserts of objects already registered,
/// stores that refuse, optional to-many relationships, several stores.
@Suite struct ModelContextEdgeTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("edges")
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func anUpsertedObjectAndTheOriginalAreOneModel() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let original = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.start)
        context.insert(original)
        try context.save()
        let duplicate = Trip(name: "Tokyo", destination: "Kyoto", startDate: Self.start, endDate: Self.start)
        context.insert(duplicate)
        try context.save()
        #expect(original.destination == "Kyoto")
        #expect(duplicate.persistentModelID == original.persistentModelID)
        original.destination = "Osaka"
        #expect(duplicate.destination == "Osaka", "both objects show the one model")
        try context.save()
        let fetched = try context.fetch(FetchDescriptor<Trip>())
        #expect(fetched.count == 1)
        #expect(fetched.first === original)
        #expect(fetched.first?.destination == "Osaka")
    }

    @Test func deletingAndInsertingAgainKeepsTheEdits() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Lima", destination: "Peru", startDate: Self.start, endDate: Self.start)
        context.insert(trip)
        try context.save()
        trip.destination = "Cusco"
        context.delete(trip)
        context.insert(trip)
        #expect(context.hasChanges)
        try context.save()
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Trip>()).first?.destination == "Cusco")
    }

    @Test func anOptionalToManyRelationshipWorksLikeAList() throws {
        let url = folder.appendingPathComponent("music.plist")
        let context = ModelContext(try ModelContainer(for: Playlist.self, configurations: ModelConfiguration(url: url)))
        let playlist = Playlist(title: "Road")
        context.insert(playlist)
        playlist.songs?.append(Song(name: "One"))
        playlist.songs?.append(Song(name: "Two"))
        #expect(playlist.songs?.first?.playlist === playlist)
        try context.save()
        let schema = Schema([Playlist.self])
        #expect(schema.entity(named: "Playlist")?.relationship(named: "songs")?.isToMany == true)

        let second = ModelContext(try ModelContainer(for: Playlist.self, configurations: ModelConfiguration(url: url)))
        let reread = try #require(try second.fetch(FetchDescriptor<Playlist>()).first)
        #expect(reread.songs?.map(\.name) == ["One", "Two"])
        reread.songs = nil
        try second.save()
        #expect(try second.fetch(FetchDescriptor<Song>()).allSatisfy { $0.playlist == nil })
    }

    @Test func aModelNoConfigurationHoldsIsAnErrorAndStaysPending() throws {
        let container = try ModelContainer(
            for: Schema([Trip.self, Playlist.self]), configurations: ModelConfiguration(for: Trip.self, isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Playlist(title: "Lost"))
        #expect(throws: ModelContextError.noStore("Playlist")) { try context.save() }
        #expect(context.hasChanges)
    }

    @Test func whenOneStoreRefusesTheOthersSaveStaysSaved() throws {
        let trips = ModelConfiguration("trips", schema: Schema([Trip.self]), url: folder.appendingPathComponent("trips.json"))
        let music = ModelConfiguration(
            "music", schema: Schema([Playlist.self]), url: folder.appendingPathComponent("music.json"), allowsSave: false)
        let container = try ModelContainer(for: Schema([Trip.self, Playlist.self]), configurations: trips, music)
        let context = ModelContext(container)
        let trip = Trip(name: "Oslo", destination: "Norway", startDate: Self.start, endDate: Self.start)
        context.insert(trip)
        context.insert(Playlist(title: "Refused"))
        #expect(throws: ModelContextError.saveNotAllowed("music")) { try context.save() }
        #expect(!trip.persistentModelID.isTemporary, "the trips store saved")
        #expect(context.insertedModelsArray.count == 1, "only the playlist is still pending")
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
        #expect(throws: ModelContextError.saveNotAllowed("music")) { try context.save() }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 1, "no duplicate on retry")
    }

    @Test func aDotStoreURLIsAJSONDocument() throws {
        let url = folder.appendingPathComponent("default.store")
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url)))
        context.insert(Trip(name: "Rome", destination: "Italy", startDate: Self.start, endDate: Self.start))
        try context.save()
        #expect(try Data(contentsOf: url).first == UInt8(ascii: "{"))
        context.container.deleteAllData()
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func anExplicitConfigurationChoosesTheFormatWhateverTheExtension() throws {
        let configurations: [(any DataStoreConfiguration, URL, [UInt8])] = [
            (JSONStoreConfiguration(url: folder.appendingPathComponent("a.data")), folder.appendingPathComponent("a.data"), Array("{".utf8)),
            (PlistStoreConfiguration(url: folder.appendingPathComponent("b.data")), folder.appendingPathComponent("b.data"), Array("<?xml".utf8)),
            (BundleStoreConfiguration(url: folder.appendingPathComponent("c.data")), folder.appendingPathComponent("c.data"), [0x50, 0x4B]),
        ]
        for (configuration, url, signature) in configurations {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
            context.insert(Trip(name: "Rome", destination: "Italy", startDate: Self.start, endDate: Self.start))
            try context.save()
            #expect(try Data(contentsOf: url).starts(with: signature), "\(url.lastPathComponent)")
            #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Trip>()) == 1)
        }
    }
}
