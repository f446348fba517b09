import Foundation
import SwiftData
import Testing

/// `willSet` and `didSet` on persisted properties run around each change, once, with the
/// values a stored property's observers see, and the changes they make are saved.
@Suite struct PropertyObserverTests {
    let stores: AppStores

    init() throws {
        stores = try AppStores()
    }

    func container(_ kind: String) throws -> ModelContainer {
        try ModelContainer(for: Habit.self, configurations: stores.configuration(kind))
    }

    @Test func observersRunOnceAroundEachChangeWithTheOldAndNewValues() {
        let habit = Habit(title: "Run")
        habit.streak = 1
        habit.streak += 1
        #expect(habit.log == ["will 0 → 1", "did 0 → 1", "will 1 → 2", "did 1 → 2"])
    }

    @Test func aReturnInAnObserverLeavesTheObserverNotTheChange() {
        let habit = Habit(title: "Run")
        habit.title = "Run"
        #expect(habit.title == "Run")
        #expect(habit.updatedAt == Date(timeIntervalSince1970: 0))
        habit.title = "Swim"
        #expect(habit.title == "Swim")
        #expect(habit.updatedAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func anAssignmentInAPropertysOwnObserverChangesTheValueOnly() {
        let habit = Habit(title: "Run")
        habit.tags = ["b", "c", "a"]
        #expect(habit.tags == ["a", "b", "c"])
        habit.goal = -3
        #expect(habit.goal == 1)
        #expect(habit.log == ["goal 1 → -3"])
    }

    @Test func observersNamingTheirValueSeeIt() {
        let habit = Habit(title: "Run")
        habit.note = "morning"
        habit.note = nil
        #expect(habit.log == ["note cleared"])
        #expect(habit.note == nil)
    }

    @Test(arguments: AppStores.kinds)
    func whatObserversChangeIsSavedAndFetchedModelsObserveToo(kind: String) throws {
        let container = try container(kind)
        // Reopened from the file; the same container for a store in memory.
        func reopened() throws -> ModelContainer { kind == "memory" ? container : try self.container(kind) }
        let context = ModelContext(container)
        let habit = Habit(title: "Run")
        context.insert(habit)
        habit.title = "Swim"
        try context.save()

        let reader = ModelContext(try reopened())
        let fetched = try #require(try reader.fetch(FetchDescriptor<Habit>()).first)
        #expect(fetched.title == "Swim")
        #expect(fetched.updatedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(fetched.log == [])
        fetched.streak = 3
        #expect(fetched.log == ["will 0 → 3", "did 0 → 3"])
        try reader.save()
        #expect(try ModelContext(try reopened()).fetch(FetchDescriptor<Habit>()).first?.log == fetched.log)
    }
}
