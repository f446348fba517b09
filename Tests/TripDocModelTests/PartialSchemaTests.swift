import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// A container whose schema names some of a document's entities (an app extension's container
/// naming two of the app's five models) works on the document and leaves the rest alone.
@Suite struct PartialSchemaTests {
    static let stores = ["json", "plist", "tripbundle"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("partial")
    }

    func url(_ kind: String) -> URL { scratch.file("app.\(kind)") }

    nonisolated(unsafe) static let appModels: [any PersistentModel.Type] = [Trip.self, BucketListItem.self, LivingAccommodation.self, Entry.self, Journey.self]
    static let otherEntities: Set = ["Trip", "BucketListItem", "LivingAccommodation"]

    /// The app's container fills the document: five entities, a history with a deletion.
    func fillAsTheApp(_ kind: String) throws {
        let app = ModelContext(try ModelContainer(for: Schema(Self.appModels), configurations: [ModelConfiguration(url: url(kind))]))
        app.author = "app"
        let tokyo = Trip(name: "Tokyo", destination: "Japan")
        tokyo.bucketList = [BucketListItem(title: "Sushi", details: "Tsukiji", hasReservation: false, isInPlan: true)]
        tokyo.livingAccommodation = LivingAccommodation(address: "1-1 Ginza", placeName: "Hotel")
        app.insert(tokyo)
        app.insert(Trip(name: "Oslo", destination: "Norway"))
        app.insert(Entry(mood: .calm, tags: ["x"], rating: 4, weight: 1.5))
        app.insert(CodableAttributeTests.journey())
        try app.save()
        let oslo = try #require(try app.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" })).first)
        app.delete(oslo)
        tokyo.destination = "Kyoto"
        try app.save()
    }

    /// The document, read by the core.
    func document(_ kind: String) throws -> Document {
        try ArchiveStore(path: url(kind).path, format: try ModelConfiguration(url: url(kind)).documentFormat()).readDocument()
    }

    /// The other entities' snapshots and the first `transactions` transactions, in the JSON
    /// encoding: equal bytes mean equal values, bit for bit.
    func untouchedPart(of document: Document, transactions: Int) throws -> Data {
        var part = document
        part.header.nextPrimaryKeys = [:]
        part.snapshots = document.snapshots.filter { Self.otherEntities.contains($0.entityName) }
        part.history.transactions = Array(document.history.transactions.prefix(transactions))
        return try JSONFormat().writeDocument(part)
    }

    @Test(arguments: stores)
    func aWidgetsContainerReadsAndWritesItsModelsAndLeavesTheOthersAlone(kind: String) throws {
        try fillAsTheApp(kind)
        let before = try document(kind)
        let beforeBytes = try Data(contentsOf: url(kind))

        // The widget knows two of the five models.
        let widget = ModelContext(try ModelContainer(for: Journey.self, Entry.self, configurations: ModelConfiguration(url: url(kind))))
        widget.author = "widget"
        let journey = try #require(try widget.fetch(FetchDescriptor<Journey>()).first)
        #expect(journey.home == CodableAttributeTests.paris)
        journey.mode = .plane
        widget.insert(Entry(mood: .excited, tags: [], rating: nil, weight: 2))
        let entry = try #require(try widget.fetch(FetchDescriptor<Entry>(predicate: #Predicate { $0.rating == 4 })).first)
        widget.delete(entry)
        try widget.save()

        let after = try document(kind)
        #expect(after.schema == before.schema, "the document keeps every entity")
        #expect(
            try untouchedPart(of: after, transactions: before.history.transactions.count)
                == untouchedPart(of: before, transactions: before.history.transactions.count))
        #expect(after.history.transactions.count == before.history.transactions.count + 1)
        #expect(after.history.transactions.last?.author == "widget")
        if kind == "json" {
            // Byte for byte: every line of the other entities and of the earlier history is still there.
            let lines = Set(String(decoding: try Data(contentsOf: url(kind)), as: UTF8.self).split(separator: "\n"))
            let old = String(decoding: beforeBytes, as: UTF8.self).split(separator: "\n")
            let kept = old.filter { $0.hasPrefix("      {\"$id\"") && !$0.contains("\"mood\"") && !$0.contains("\"home\"") }
            #expect(kept.count == 3, "Tokyo, its item and its accommodation")
            for line in kept { #expect(lines.contains(line)) }
        }

        // The widget's history leaves out the changes of models it does not know.
        let history = try widget.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 3)
        #expect(history.allSatisfy { $0.changes.allSatisfy { ["Journey", "Entry"].contains($0.changedPersistentIdentifier.entityName) } })

        // The app sees its models as it left them, and the widget's changes.
        let app = ModelContext(try ModelContainer(for: Schema(Self.appModels), configurations: [ModelConfiguration(url: url(kind))]))
        let trips = try app.fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.destination) == ["Kyoto"])
        #expect(trips.first?.bucketList.map(\.title) == ["Sushi"])
        #expect(try app.fetch(FetchDescriptor<Journey>()).map(\.mode) == [.plane])
        #expect(try app.fetch(FetchDescriptor<Entry>()).map(\.mood) == [.excited])
    }

    /// A model the document does not have is an entity added: the lightweight migration SwiftData
    /// infers adds it, and the document's own models stay as they were.
    @Test(arguments: stores)
    func aModelTheDocumentDoesNotHaveIsAddedByALightweightMigration(kind: String) throws {
        let first = ModelContext(try ModelContainer(for: Entry.self, configurations: ModelConfiguration(url: url(kind))))
        first.insert(Entry(mood: .excited, tags: [], rating: nil, weight: 1))
        try first.save()
        let both = ModelContext(
            try ModelContainer(for: Entry.self, Journey.self, configurations: ModelConfiguration(url: url(kind))))
        #expect(try both.fetch(FetchDescriptor<Entry>()).map(\.mood) == [.excited])
        #expect(try both.fetchCount(FetchDescriptor<Journey>()) == 0)
        let document = try self.document(kind)
        #expect(Set(document.schema.entities.map(\.name)) == ["Entry", "Journey"])
    }
}
