import Foundation
import Testing
import TripDoc

@Suite struct ZZScratchTiming {
    func measure(_ label: String, _ block: () throws -> Void) rethrows {
        let start = Date()
        try block()
        print("TIMING \(label): \(String(format: "%.2f", Date().timeIntervalSince(start) * 1000)) ms")
    }

    @Test(arguments: [2000, 8000]) func scaling(trips: Int) throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        try measure("\(trips) insert") {
            for i in 0..<trips {
                let trip = Trip(name: "T\(i)", destination: i % 10 == 0 ? "Kyoto" : "Paris", startDate: Date(timeIntervalSince1970: Double(i) * 86400), endDate: Date(timeIntervalSince1970: Double(i) * 86400 + 3600))
                context.insert(trip)
                for j in 0..<5 { trip.bucketList.append(BucketListItem(title: "B\(j)", details: "d", hasReservation: false, isInPlan: true)) }
                trip.livingAccommodation = LivingAccommodation(address: "a", placeName: "p")
            }
        }
        try measure("\(trips) save all") { try context.save() }
        var trips_: [Trip] = []
        try measure("\(trips) fetch all") { trips_ = try context.fetch(FetchDescriptor<Trip>()) }
        try measure("\(trips) one save") {
            trips_[trips / 2].destination = "Oslo"
            try context.save()
        }
        try measure("\(trips) one save again") {
            trips_[trips / 3].destination = "Oslo"
            try context.save()
        }
        try measure("\(trips) delete one") {
            context.delete(trips_[trips / 4])
            try context.save()
        }
        let other = ModelContext(container)
        try measure("\(trips) fetch Kyoto new context") {
            _ = try other.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Kyoto" }))
        }
        let third = ModelContext(container)
        try measure("\(trips) sorted limit 10 new context") {
            var d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
            d.fetchLimit = 10
            _ = try third.fetch(d)
        }
    }
}
