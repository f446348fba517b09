import Foundation
import Testing
import TripDoc
import TripDocTestSupport

// Two to-many relationships of one model naming the same inverse, as SwiftData accepts.

@Model
final class Album {
    var title: String
    @Relationship(inverse: \Photo.albums) var photos: [Photo] = []
    @Relationship(inverse: \Photo.albums) var covers: [Photo] = []

    init(title: String) { self.title = title }
}

@Model
final class Photo {
    var name: String
    var albums: [Album] = []

    init(name: String) { self.name = name }
}

/// The shared inverse holds every model that holds it through any of the relationships naming
/// it, once; it loses a model only when none of them holds it any more.
@Suite struct SharedInverseTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("shared-inverse")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("albums.\(kind)"))
    }

    func reopened(_ kind: String, _ container: ModelContainer) throws -> ModelContext {
        ModelContext(kind == "memory" ? container : try ModelContainer(for: Album.self, configurations: configuration(kind)))
    }

    func photos(_ context: ModelContext) throws -> [String: Photo] {
        Dictionary(uniqueKeysWithValues: try context.fetch(FetchDescriptor<Photo>()).map { ($0.name, $0) })
    }

    func expectNoIntegrityProblems(_ kind: String) throws {
        guard kind != "memory" else { return }
        let url = scratch.file("albums.\(kind)")
        let document = try ArchiveStore(path: url.path, format: try ModelConfiguration(url: url).documentFormat()).readDocument()
        #expect(IntegrityChecker().problems(in: document) == [])
    }

    @Test func theSchemaAcceptsIt() throws {
        let schema = Schema([Album.self])
        #expect(throws: Never.self) { try schema.validate() }
        let album = try #require(schema.entity(named: "Album"))
        #expect(album.relationship(named: "photos")?.inverseName == "albums")
        #expect(album.relationship(named: "covers")?.inverseName == "albums")
        #expect(schema.entity(named: "Photo")?.relationship(named: "albums")?.inverseName == "photos")
    }

    @Test(arguments: stores)
    func theInverseHoldsWhatEitherRelationshipHolds(kind: String) throws {
        let container = try ModelContainer(for: Album.self, configurations: configuration(kind))
        let context = ModelContext(container)
        let album = Album(title: "Summer")
        context.insert(album)
        let (beach, sunset, city) = (Photo(name: "beach"), Photo(name: "sunset"), Photo(name: "city"))
        album.photos = [beach, sunset]
        album.covers = [sunset, city]
        #expect(sunset.albums.count == 1, "held by both relationships, in the inverse once")
        try context.save()
        try expectNoIntegrityProblems(kind)

        var reader = try reopened(kind, container)
        var byName = try photos(reader)
        #expect(byName.values.allSatisfy { $0.albums.map(\.title) == ["Summer"] })

        // Out of one relationship but still in the other: still in the album.
        album.covers = [city]
        try context.save()
        reader = try reopened(kind, container)
        byName = try photos(reader)
        #expect(byName["sunset"]?.albums.map(\.title) == ["Summer"])
        // Out of both: out of the album.
        album.covers = []
        try context.save()
        try expectNoIntegrityProblems(kind)
        reader = try reopened(kind, container)
        byName = try photos(reader)
        #expect(byName["city"]?.albums == [])
        #expect(byName["beach"]?.albums.map(\.title) == ["Summer"])

        // From the shared side: a photo joining the album goes into the first relationship.
        let harbour = Photo(name: "harbour")
        context.insert(harbour)
        harbour.albums = [album]
        try context.save()
        try expectNoIntegrityProblems(kind)
        reader = try reopened(kind, container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Album>()).first)
        #expect(stored.photos.map(\.name).sorted() == ["beach", "harbour", "sunset"])
        #expect(stored.covers == [])
    }

    @Test(arguments: stores)
    func deletingEitherSideLeavesNoReferenceBehind(kind: String) throws {
        let container = try ModelContainer(for: Album.self, configurations: configuration(kind))
        let context = ModelContext(container)
        let album = Album(title: "Winter")
        context.insert(album)
        let (snow, ice) = (Photo(name: "snow"), Photo(name: "ice"))
        album.photos = [snow]
        album.covers = [snow, ice]
        try context.save()

        context.delete(snow)
        try context.save()
        try expectNoIntegrityProblems(kind)
        var reader = try reopened(kind, container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Album>()).first)
        #expect(stored.photos == [])
        #expect(stored.covers.map(\.name) == ["ice"])

        context.delete(album)
        try context.save()
        try expectNoIntegrityProblems(kind)
        reader = try reopened(kind, container)
        #expect(try photos(reader)["ice"]?.albums == [])
    }
}
