import Testing

@testable import typed_layer_benchmark

@Suite("The command line")
struct OptionsTests {
    @Test("Defaults: 10,000 trips, 3 runs; --quick: 1,000 trips, 1 run; given values win")
    func defaults() throws {
        let plain = try Options(arguments: [])
        #expect(plain.effectiveSizes == [10_000] && plain.effectiveRepetitions == 3 && !plain.json)
        let quick = try Options(arguments: ["--quick"])
        #expect(quick.effectiveSizes == [1000] && quick.effectiveRepetitions == 1)
        let given = try Options(arguments: ["--quick", "--trips", "10", "--trips", "20", "--repetitions", "5", "--json"])
        #expect(given.effectiveSizes == [10, 20] && given.effectiveRepetitions == 5 && given.json)
    }

    @Test("The number of updates is odd and shrinks with the size", arguments: [(1000, 51), (10_000, 51), (100_000, 11), (1_000_000, 5)])
    func defaultUpdates(trips: Int, updates: Int) {
        #expect(WorkPlan.defaultUpdates(trips: trips) == updates)
    }

    @Test("Bad command lines say what is wrong", arguments: [
        (["--trips", "x"], "--trips needs a whole number of at least 1, not 'x'"),
        (["--repetitions", "0"], "--repetitions needs a whole number of at least 1, not '0'"),
        (["--trips"], "--trips needs a value"),
        (["--fast"], "unknown argument '--fast'"),
        (["--child", "insert", "--trips", "5"], "--child needs --store, --path and one --trips"),
        (["--child", "nap"], "--child: no stage is called 'nap'"),
    ])
    func refusals(arguments: [String], message: String) {
        #expect(throws: OptionsError.self) { try Options(arguments: arguments) }
        do {
            _ = try Options(arguments: arguments)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("A child gets back the plan it was given")
    func childRoundTrip() throws {
        let plan = WorkPlan(trips: 7, queryRuns: 2, updates: 3, deletes: 4)
        let options = try Options(arguments: Options.childArguments(stage: .work, kind: .wal, path: "/x", plan: plan))
        #expect(options.child == .work && options.store == .wal && options.path == "/x")
        let back = options.plan(trips: try #require(options.sizes.first))
        #expect(back.trips == 7 && back.queryRuns == 2 && back.updates == 3 && back.deletes == 4)
    }

    @Test("The updated and deleted trips are distinct trips of the store", arguments: [1, 2, 5, 50, 10_000])
    func updatedAndDeletedTrips(trips: Int) {
        let plan = WorkPlan(trips: trips, queryRuns: 1, updates: 51, deletes: 5)
        for names in [plan.updatedTripNames, plan.deletedTripNames] {
            #expect(Set(names).count == names.count)
            #expect(names.allSatisfy { Int($0.dropFirst(5)).map { (0..<trips).contains($0) } ?? false })
        }
    }
}
