import Foundation
import Testing

@testable import typed_layer_benchmark

@Suite("The benchmark's data")
struct GeneratedTripTests {
    @Test("Every trip starts in its own slot, so a sort by start date has one answer", arguments: [1, 2, 3, 10, 618, 1000, 7919, 10_000])
    func startDatesAreDistinctSlots(count: Int) {
        let slots = (0..<count).map {
            Int((GeneratedTrip(number: $0, of: count).startDate.timeIntervalSince(GeneratedTrip.firstStart)) / GeneratedTrip.startSpacing)
        }
        #expect(Set(slots) == Set(0..<count))
    }

    @Test("Start dates are not in insertion order")
    func startDatesAreShuffled() {
        let starts = (0..<1000).map { GeneratedTrip(number: $0, of: 1000).startDate }
        #expect(starts != starts.sorted())
    }

    @Test("The range of one percent of the slots holds one percent of the trips")
    func rangeHoldsItsSlots() {
        let count = 10_000
        let range = GeneratedTrip.startRange(firstSlot: count / 2, slots: count / 100)
        let inside = (0..<count).filter {
            let start = GeneratedTrip(number: $0, of: count).startDate
            return start >= range.from && start < range.to
        }
        #expect(inside.count == count / 100)
    }

    @Test("About a tenth of the trips go to the queried destination; the same number gives the same trip")
    func destinationsAreSpreadAndDeterministic() {
        let kyoto = (0..<10_000).filter { GeneratedTrip(number: $0, of: 10_000).destination == GeneratedTrip.queriedDestination }
        #expect((800...1200).contains(kyoto.count))
        let first = GeneratedTrip(number: 42, of: 100)
        let again = GeneratedTrip(number: 42, of: 100)
        #expect(first.name == again.name && first.destination == again.destination && first.endDate == again.endDate)
        #expect(first.items.map(\.isInPlan) == again.items.map(\.isInPlan))
        #expect(first.items.count == 5 && first.endDate > first.startDate)
    }
}
