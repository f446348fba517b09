import Foundation
import TripDoc

/// The app's data layer: the queries and the history flow of the SampleTrips sample.
struct DataSource {
    let context: ModelContext

    /// Adds the sample's trips, with their bucket lists and stays, to an empty store.
    func addSampleTrips(today: Date) throws {
        guard try context.fetchCount(FetchDescriptor<Trip>()) == 0 else { return }
        let day: TimeInterval = 86_400
        let trips: [(String, String, TimeInterval, TimeInterval, [(String, Bool)], (String, String)?)] = [
            ("Tokyo Honeymoon", "Tokyo", -1, 4, [("Sushi at Tsukiji", true), ("Climb Mount Fuji", false)], ("15 Hill Lane, Tokyo", "Tokyo Ryokan")),
            ("Oslo Fjords", "Oslo", -2, 3, [("Fjord cruise", true)], nil),
            ("Lima Food Tour", "Lima", -40, -30, [("Ceviche class", false)], ("3 Malecón, Lima", "Casa Lima")),
            ("Paris Weekend", "Paris", 20, 22, [("Musée d'Orsay", false)], nil),
            ("Café Crawl", "Vienna", 60, 63, [], nil),
        ]
        let start = Calendar(identifier: .gregorian).startOfDay(for: today)
        for (name, destination, from, to, items, stay) in trips {
            let trip = Trip(
                name: name, destination: destination, startDate: start + from * day, endDate: start + to * day)
            context.insert(trip)
            for (title, planned) in items {
                trip.bucketList.append(BucketListItem(title: title, details: "", hasReservation: false, isInPlan: planned))
            }
            if let (address, place) = stay {
                trip.livingAccommodation = LivingAccommodation(address: address, placeName: place)
            }
        }
        try context.save()
    }

    /// Adds a trip. A trip with the same name and dates as a saved one updates it instead
    /// (`#Unique<Trip>([\.name, \.startDate, \.endDate])`): there is never a duplicate.
    func addTrip(name: String, destination: String, startDate: Date, endDate: Date) throws -> Trip {
        let trip = Trip(name: name, destination: destination, startDate: startDate, endDate: endDate)
        context.insert(trip)
        try context.save()
        return trip
    }

    /// Trips whose name or destination contains `text`, ignoring case and diacritics.
    func trips(matching text: String) throws -> [Trip] {
        try context.fetch(
            FetchDescriptor<Trip>(
                predicate: #Predicate { $0.name.localizedStandardContains(text) || $0.destination.localizedStandardContains(text) },
                sortBy: [SortDescriptor(\.startDate)]))
    }

    /// Trips under way on `date` that still have bucket-list items not in the plan (the
    /// widget's query; `#Expression` inside `#Predicate` is refused on Linux, so the filter is
    /// written inline).
    func tripsInProgressWithUnplannedItems(on date: Date) throws -> [Trip] {
        try context.fetch(
            FetchDescriptor<Trip>(
                predicate: #Predicate { trip in
                    trip.startDate <= date && trip.endDate >= date && trip.bucketList.filter { !$0.isInPlan }.count > 0
                },
                sortBy: [SortDescriptor(\.startDate)]))
    }

    /// Trips changed by other authors since `token` (the app's "unread trips"), and the token to
    /// remember next time. Deleted trips are named from their tombstones.
    func unreadTrips(since token: DefaultHistoryToken?, notBy author: String) throws
        -> (changed: [String], deleted: [String], newToken: DefaultHistoryToken?)
    {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let token {
            descriptor.predicate = #Predicate { $0.token > token && $0.author != author }
        } else {
            descriptor.predicate = #Predicate { $0.author != author }
        }
        let transactions: [DefaultHistoryTransaction]
        do {
            transactions = try context.fetchHistory(descriptor)
        } catch HistoryError.historyTokenExpired {
            return try unreadTrips(since: nil, notBy: author)
        }
        let items = Dictionary(
            try context.fetch(FetchDescriptor<BucketListItem>()).map { ($0.persistentModelID, $0) },
            uniquingKeysWith: { first, _ in first })
        var changed: Set<PersistentIdentifier> = []
        var deleted: [String] = []
        for transaction in transactions {
            for change in transaction.changes {
                switch change {
                case .insert(let insert as DefaultHistoryInsert<Trip>): changed.insert(insert.changedPersistentIdentifier)
                case .update(let update as DefaultHistoryUpdate<Trip>): changed.insert(update.changedPersistentIdentifier)
                case .delete(let delete as DefaultHistoryDelete<Trip>):
                    changed.remove(delete.changedPersistentIdentifier)
                    deleted.append(delete.tombstone[\.name] ?? "a trip")
                case .insert(let insert as DefaultHistoryInsert<BucketListItem>):
                    if let trip = items[insert.changedPersistentIdentifier]?.trip { changed.insert(trip.persistentModelID) }
                case .update(let update as DefaultHistoryUpdate<BucketListItem>):
                    if let trip = items[update.changedPersistentIdentifier]?.trip { changed.insert(trip.persistentModelID) }
                default:
                    break
                }
            }
        }
        let names = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
            .filter { changed.contains($0.persistentModelID) }.map(\.name)
        let latest = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token
        return (names, deleted, latest ?? token)
    }
}
