import Foundation
import SwiftData

/// An actor on the container's main context, as apps write one to share the main context's
/// models and autosave: `ModelActor` by hand, made on the main actor with
/// `DefaultSerialModelExecutor(modelContext: modelContainer.mainContext)`.
actor MainContextJournal: ModelActor {
    nonisolated let modelExecutor: any ModelExecutor
    nonisolated let modelContainer: ModelContainer

    @MainActor init(modelContainer: ModelContainer) {
        self.modelExecutor = DefaultSerialModelExecutor(modelContext: modelContainer.mainContext)
        self.modelContainer = modelContainer
    }

    /// How many times the main actor ticked (``MainActorTicks``) while the actor's code slept.
    func mainActorTicks(whileSleeping seconds: Double) -> Int { MainActorTicks.counted(whileSleeping: seconds) }

    /// Inserts a journey per title, saving after each, and deletes every other one again,
    /// saving after each, as an app's edits do.
    func addAndRemoveEveryOther(_ titles: [String]) throws {
        for (index, title) in titles.enumerated() {
            let journey = Journey(title: title, createdBy: "journal")
            modelContext.insert(journey)
            try modelContext.save()
            if index.isMultiple(of: 2) {
                modelContext.delete(journey)
                try modelContext.save()
            }
        }
    }
}

/// A count the main actor raises in a loop, read by actors to see whether the main actor ran
/// while their code did.
enum MainActorTicks {
    nonisolated(unsafe) static var count = 0

    /// How many ticks happened while the caller slept for `seconds`.
    static func counted(whileSleeping seconds: Double) -> Int {
        let before = count
        Thread.sleep(forTimeInterval: seconds)
        return count - before
    }
}
