import Foundation
import SwiftData

/// A model whose persisted properties have `willSet`/`didSet` observers, as apps write to keep
/// a modification date or a log (`var title: String { didSet { updatedAt = .now } }`).
@Model final class Habit {
    var log: [String] = []
    var streak: Int = 0 {
        willSet { log.append("will \(streak) → \(newValue)") }
        didSet { log.append("did \(oldValue) → \(streak)") }
    }
    var title: String {
        didSet(previous) {
            // A `return` leaves the observer only.
            guard previous != title else { return }
            updatedAt = Date(timeIntervalSince1970: 1_800_000_000)
        }
    }
    var updatedAt = Date(timeIntervalSince1970: 0)
    var note: String? {
        willSet(next) { if next == nil { log.append("note cleared") } }
    }
    /// Observers that assign to their own property, as apps write to normalise a value.
    var tags: [String] = [] {
        didSet { tags.sort() }
    }
    var goal: Int = 1 {
        didSet {
            log.append("goal \(oldValue) → \(goal)")
            if goal < 1 { goal = 1 }
        }
    }

    init(title: String) {
        self.title = title
    }
}
