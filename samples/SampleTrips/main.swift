// SampleTrips on the command line: the data layer of Apple's SampleTrips sample (SwiftData),
// running on tripdoc's document stores.
//
//   SampleTrips [--store FILE] seed                 add the sample trips to an empty store
//   SampleTrips [--store FILE] add NAME DESTINATION START END
//                                                  add a trip; the same name and dates update it
//   SampleTrips [--store FILE] list
//   SampleTrips [--store FILE] search TEXT          trips whose name or destination contain TEXT
//   SampleTrips [--store FILE] in-progress [DATE]   trips under way with unplanned items
//   SampleTrips [--store FILE] plan TITLE           as the widget: put a bucket-list item in the plan
//   SampleTrips [--store FILE] unread               trips others changed since last time
//   SampleTrips [--store FILE] rename OLD NEW       as a SwiftUI view would: edit through the
//                                                  container's mainContext, with no save() (autosave
//                                                  saves it when the program exits)
//
// FILE defaults to trips.json; .plist and .tripbundle work the same. `unread` keeps its history
// token in FILE.token, as the app keeps it in UserDefaults.
import Foundation
import TripDoc

var arguments = Array(CommandLine.arguments.dropFirst())
var storePath = "trips.json"
if arguments.first == "--store", arguments.count >= 2 {
    storePath = arguments[1]
    arguments.removeFirst(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SampleTrips: \(message)\n".utf8))
    exit(2)
}

func describe(_ trip: Trip) -> String {
    let format = Date.ISO8601FormatStyle().year().month().day()
    let unplanned = trip.bucketList.filter { !$0.isInPlan }.map(\.title)
    return "\(trip.name) — \(trip.destination), \(trip.startDate.formatted(format)) to \(trip.endDate.formatted(format))"
        + (unplanned.isEmpty ? "" : "; not planned yet: " + unplanned.joined(separator: ", "))
}

do {
    let url = URL(fileURLWithPath: storePath)
    let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    context.author = "app"
    let data = DataSource(context: context)
    switch arguments.first {
    case "seed":
        try data.addSampleTrips(today: .now)
        print("\(try context.fetchCount(FetchDescriptor<Trip>())) trips in \(storePath)")
    case "add":
        guard arguments.count == 5 else { fail("usage: SampleTrips add NAME DESTINATION START END (dates as 2026-05-01)") }
        let day = Date.ISO8601FormatStyle().year().month().day()
        let trip = try data.addTrip(
            name: arguments[1], destination: arguments[2], startDate: Date(arguments[3], strategy: day),
            endDate: Date(arguments[4], strategy: day))
        print("\(trip.name) is \(trip.persistentModelID); \(try context.fetchCount(FetchDescriptor<Trip>())) trips")
    case "list":
        for trip in try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])) { print(describe(trip)) }
    case "search":
        guard arguments.count == 2 else { fail("usage: SampleTrips search TEXT") }
        for trip in try data.trips(matching: arguments[1]) { print(describe(trip)) }
    case "in-progress":
        let date = try arguments.count > 1 ? Date(arguments[1], strategy: .iso8601) : Date.now
        for trip in try data.tripsInProgressWithUnplannedItems(on: date) { print(describe(trip)) }
    case "plan":
        guard arguments.count == 2 else { fail("usage: SampleTrips plan TITLE") }
        let widget = ModelContext(container)
        widget.author = "widget"
        let title = arguments[1]
        guard let item = try widget.fetch(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.title == title })).first
        else { fail("no bucket-list item is called '\(title)'") }
        item.isInPlan = true
        try widget.save()
        print("planned \(title) for \(item.trip?.name ?? "no trip")")
    case "rename":
        guard arguments.count == 3 else { fail("usage: SampleTrips rename OLD NEW") }
        let old = arguments[1]
        let trips = try container.mainContext.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == old }))
        guard !trips.isEmpty else { fail("no trip is called '\(old)'") }
        for trip in trips { trip.name = arguments[2] }
        print("renamed \(trips.count) trip\(trips.count == 1 ? "" : "s")")
    case "unread":
        let tokenURL = URL(fileURLWithPath: storePath + ".token")
        let token = try? JSONDecoder().decode(DefaultHistoryToken.self, from: Data(contentsOf: tokenURL))
        let unread = try data.unreadTrips(since: token, notBy: "app")
        for name in unread.changed { print("changed: \(name)") }
        for name in unread.deleted { print("deleted: \(name)") }
        if unread.changed.isEmpty && unread.deleted.isEmpty { print("nothing new") }
        if let newToken = unread.newToken { try JSONEncoder().encode(newToken).write(to: tokenURL, options: .atomic) }
    default:
        fail(
            "usage: SampleTrips [--store FILE] seed | add NAME DESTINATION START END | list | search TEXT | in-progress [DATE] | plan TITLE | unread | rename OLD NEW"
        )
    }
} catch {
    fail("\(error)")
}
