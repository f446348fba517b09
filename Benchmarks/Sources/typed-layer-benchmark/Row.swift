/// A row of the table: a piece of work, measured on every store it applies to.
enum Row: String, CaseIterable, Codable {
    case insert
    case peakMemory = "peak-memory"
    case open
    case fetchAll = "fetch-all"
    case equalityFetch = "equality-fetch"
    case rangeFetch = "range-fetch"
    case sortedLimit = "sorted-limit"
    case firstUpdate = "first-update"
    case update
    case delete

    /// What the row measures, as the table's first column says it.
    var work: String {
        switch self {
        case .insert: "insert all + one save"
        case .peakMemory: "peak memory while inserting"
        case .open: "open the store in a new process"
        case .fetchAll: "fetch all trips in a new process (with opening)"
        case .equalityFetch: "`destination == \"\(GeneratedTrip.queriedDestination)\"` fetch"
        case .rangeFetch: "1 % `startDate` range fetch"
        case .sortedLimit: "sorted by `startDate`, `fetchLimit = 10`"
        case .firstUpdate: "first one-object update + save after opening"
        case .update: "one-object update + save, median"
        case .delete: "delete one trip (cascade) + save, median"
        }
    }

    /// The unit of the row's numbers.
    var unit: String {
        switch self {
        case .insert: "s"
        case .peakMemory: "MB"
        default: "ms"
        }
    }

    /// Whether an in-memory store has the row (it has no file to open).
    var appliesInMemory: Bool {
        self != .open
    }
}
