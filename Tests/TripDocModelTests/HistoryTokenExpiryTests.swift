import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// `fetchHistory` after a token whose history was deleted throws `historyTokenExpired`, as
/// SwiftData's does, so that an app learns it must start over instead of seeing nothing new.
@Suite struct HistoryTokenExpiryTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("expiry")
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("trips.\(kind)"))
    }

    /// Three saves; the tokens of their transactions.
    func threeSaves(_ context: ModelContext) throws -> [DefaultHistoryToken] {
        for name in ["Tokyo", "Oslo", "Lima"] {
            context.insert(Trip(name: name, destination: "?"))
            try context.save()
        }
        return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.token)
    }

    func after(_ token: DefaultHistoryToken) -> HistoryDescriptor<DefaultHistoryTransaction> {
        HistoryDescriptor(predicate: #Predicate { $0.token > token })
    }

    @Test(arguments: stores)
    func aTokenIntoDeletedHistoryHasExpired(kind: String) throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(kind)))
        let tokens = try threeSaves(context)
        try #require(tokens.count == 3)
        #expect(try context.fetchHistory(after(tokens[0])).count == 2, "before any deletion, every token is good")

        let second = tokens[1]
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= second }))
        #expect(throws: HistoryError.historyTokenExpired(tokens[0], deletedThrough: tokens[1].transactionIdentifier)) {
            try context.fetchHistory(after(tokens[0]))
        }
        // The token of the last deleted transaction missed nothing.
        #expect(try context.fetchHistory(after(tokens[1])).map(\.token) == [tokens[2]])
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 1)
    }

    @Test(arguments: stores)
    func aTokenHasExpiredAlsoWhenNoHistoryIsLeft(kind: String) throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration(kind)))
        let tokens = try threeSaves(context)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
        #expect(throws: HistoryError.self) { try context.fetchHistory(after(tokens[0])) }
        #expect(try context.fetchHistory(after(tokens[2])).isEmpty)
    }
}
