import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// History through the store API and every format: SwiftData's History API, for document stores.
@Suite struct HistoryTests {
    static let schema = Schema([
        Schema.Entity(
            name: "Trip",
            attributes: [
                .init("name", .string, options: [.preserveValueOnDeletion]), .init("destination", .string),
                .init("startDate", .date, options: [.preserveValueOnDeletion]),
            ],
            relationships: [.init("stay", destination: "Stay", inverse: "trip", deleteRule: .cascade)]),
        Schema.Entity(
            name: "Stay", attributes: [.init("place", .string)],
            relationships: [.init("trip", destination: "Trip", inverse: "stay")]),
    ])

    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("history")
    }

    func store(_ name: String, format: any DocumentFormat = JSONFormat()) throws -> ArchiveStore {
        try ArchiveStore(path: folder.appendingPathComponent(name).path, format: format, schema: Self.schema)
    }

    func temp(_ entity: String, _ key: String) -> PersistentIdentifier { .temporary(entityName: entity, primaryKey: key) }

    /// The app saves two trips; the widget adds a stay to the first and later renames it.
    func tellTheStory(in store: ArchiveStore) throws -> (trip: PersistentIdentifier, stay: PersistentIdentifier) {
        let first = temp("Trip", "a")
        let second = temp("Trip", "b")
        let inserted = try store.save(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "app"),
                inserted: [
                    DefaultSnapshot(persistentIdentifier: first, values: [
                        "name": .string("Tokyo"), "destination": .string("Japan"), "startDate": .date(Date(timeIntervalSinceReferenceDate: 1000)),
                    ]),
                    DefaultSnapshot(persistentIdentifier: second, values: [
                        "name": .string("Oslo"), "destination": .string("Norway"), "startDate": .date(Date(timeIntervalSinceReferenceDate: 2000)),
                    ]),
                ]))
        let trip = inserted.remappedIdentifiers[first]!
        var tripSnapshot = try store.fetchSnapshots(entityName: "Trip").first { $0.persistentIdentifier == trip }!
        let stay = temp("Stay", "s")
        tripSnapshot["stay"] = .reference(stay)
        let widget = try store.save(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "widget"),
                inserted: [DefaultSnapshot(persistentIdentifier: stay, values: ["place": .string("Ryokan"), "trip": .reference(trip)])],
                updated: [tripSnapshot]))
        return (trip, widget.remappedIdentifiers[stay]!)
    }

    @Test func everySaveIsATransactionWithOrderedTokensAndChanges() throws {
        let store = try store("a.json")
        let (trip, stay) = try tellTheStory(in: store)
        let transactions = try store.fetchHistory()
        #expect(transactions.map(\.transactionIdentifier) == [1, 2])
        #expect(transactions.map(\.author) == ["app", "widget"])
        let tokens = transactions.map { $0.token(in: store.identifier) }
        #expect(tokens[0] < tokens[1])
        #expect(transactions[1].changes == [.insert(stay), .update(trip, updatedAttributes: ["stay"], values: [:])])
        #expect(transactions[0].processIdentifier == String(ProcessInfo.processInfo.processIdentifier))
        // Tokens survive Codable (the talk keeps them in UserDefaults through JSONEncoder).
        let data = try JSONEncoder().encode(tokens[1])
        #expect(try JSONDecoder().decode(DefaultHistoryToken.self, from: data) == tokens[1])
        #expect(DefaultHistoryToken(tokens[1].description) == tokens[1])
    }

    @Test func queriesFilterByTokenAuthorEntityAndLimit() throws {
        let store = try store("b.json")
        _ = try tellTheStory(in: store)
        let first = try #require(try store.fetchHistory().first?.token(in: store.identifier))
        #expect(try store.fetchHistory(HistoryQuery(after: first)).map(\.transactionIdentifier) == [2])
        #expect(try store.fetchHistory(HistoryQuery(author: "app")).map(\.transactionIdentifier) == [1])
        let stays = try store.fetchHistory(HistoryQuery(entityNames: ["Stay"]))
        #expect(stays.count == 1 && stays[0].changes.allSatisfy { $0.changedPersistentIdentifier.entityName == "Stay" })
        #expect(try store.fetchHistory(HistoryQuery(fetchLimit: 1, newestFirst: true)).map(\.transactionIdentifier) == [2])
    }

    /// The WWDC24 History talk's workflow: the app remembers its last token in a file; later it
    /// asks which trips' accommodation the widget changed since then.
    @Test func findTripsWhoseAccommodationTheWidgetChangedSinceMyLastToken() throws {
        let store = try store("c.json")
        let tokenFile = folder.appendingPathComponent("last-token.json")
        // First run: the app saves, then remembers where history stands.
        _ = try store.save(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: "app"),
                inserted: [
                    DefaultSnapshot(persistentIdentifier: temp("Trip", "x"), values: [
                        "name": .string("Lima"), "destination": .string("Peru"), "startDate": .date(Date(timeIntervalSinceReferenceDate: 0)),
                    ])
                ]))
        try JSONEncoder().encode(try store.currentHistoryToken()).write(to: tokenFile)
        // Meanwhile the widget adds a stay to a new trip.
        let (trip, _) = try tellTheStory(in: store)
        // Second run, from a store opened afresh: read the token, fetch the widget's changes since.
        let reopened = try ArchiveStore(path: store.path, format: JSONFormat())
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: Data(contentsOf: tokenFile))
        let changes = try reopened.fetchHistory(HistoryQuery(after: token, author: "widget", entityNames: ["Stay"]))
            .flatMap(\.changes)
        let stays = Set(changes.map(\.changedPersistentIdentifier))
        let trips = try reopened.fetchSnapshots(entityName: "Stay").filter { stays.contains($0.persistentIdentifier) }
            .compactMap { snapshot -> PersistentIdentifier? in
                guard case .reference(let trip) = snapshot["trip"] ?? .null else { return nil }
                return trip
            }
        #expect(trips == [trip])
        try JSONEncoder().encode(try reopened.currentHistoryToken()).write(to: tokenFile)
    }

    @Test func tombstonesHoldExactlyThePreservedAttributes() throws {
        let store = try store("d.json")
        let (trip, stay) = try tellTheStory(in: store)
        try store.save(DataStoreSaveChangesRequest(deleted: [DefaultSnapshot(persistentIdentifier: trip, values: [:])]))
        let changes = try #require(try store.fetchHistory().last?.changes)
        #expect(
            changes == [
                .delete(trip, tombstone: ["name": .string("Tokyo"), "startDate": .date(Date(timeIntervalSinceReferenceDate: 1000))]),
                .delete(stay, tombstone: [:]),
            ])
    }

    @Test func deletedHistoryExpiresOlderTokens() throws {
        let store = try store("e.json")
        _ = try tellTheStory(in: store)
        let tokens = try store.fetchHistory().map { $0.token(in: store.identifier) }
        try store.deleteHistory(through: tokens[1])
        #expect(try store.fetchHistory().isEmpty)
        #expect(throws: HistoryError.historyTokenExpired(tokens[0], deletedThrough: 2)) {
            try store.fetchHistory(HistoryQuery(after: tokens[0]))
        }
        // The next save continues the numbering.
        _ = try tellTheStory(in: store)
        #expect(try store.fetchHistory().first?.transactionIdentifier == 3)
        #expect(throws: HistoryError.self) {
            try store.fetchHistory(HistoryQuery(after: DefaultHistoryToken(storeIdentifier: "other", transactionIdentifier: 3)))
        }
    }

    @Test(arguments: ["json", "plist", "bundle"])
    func historyRoundTripsThroughEachFormat(format name: String) throws {
        let format: any DocumentFormat =
            switch name {
            case "json": JSONFormat()
            case "plist": PlistFormat()
            default: BundleFormat()
            }
        let store = try store("f.\(name)", format: format)
        let (trip, _) = try tellTheStory(in: store)
        try store.save(DataStoreSaveChangesRequest(deleted: [DefaultSnapshot(persistentIdentifier: trip, values: [:])]))
        let document = try store.readDocument()
        #expect(document.history.transactions.count == 3)
        #expect(try format.readDocument(from: format.writeDocument(document), file: "x") == document)
    }

    @Test func historySurvivesJSONPlistBundleJSONWithIdentifiersRemapped() throws {
        let store = try store("g.json")
        let (trip, _) = try tellTheStory(in: store)
        try store.save(DataStoreSaveChangesRequest(deleted: [DefaultSnapshot(persistentIdentifier: trip, values: [:])]))
        let original = try store.readDocument()
        var document = original
        for (format, storeIdentifier) in [(PlistFormat() as any DocumentFormat, "P"), (BundleFormat(), "B"), (JSONFormat(), "J")] {
            document = try format.readDocument(
                from: format.writeDocument(document.remapped(toStore: storeIdentifier, renumber: true).document), file: "x")
        }
        #expect(document.history.transactions.count == original.history.transactions.count)
        for (before, after) in zip(original.history.transactions, document.history.transactions) {
            #expect(before.transactionIdentifier == after.transactionIdentifier)
            #expect(before.changes.map(\.kind) == after.changes.map(\.kind))
            #expect(after.changes.allSatisfy { $0.changedPersistentIdentifier.storeIdentifier == "J" })
        }
        #expect(IntegrityChecker().problems(in: document) == [])
    }
}
