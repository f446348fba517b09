/// The six stores the benchmark compares: tripdoc's JSON and bundle documents and its in-memory
/// store, and GRDB over SQLite with a write-ahead log (commits without fsync), with SQLite's
/// default rollback journal (an fsync per commit, as tripdoc's saves do) and in memory.
enum StoreKind: String, CaseIterable, Codable {
    case json = "tripdoc-json"
    case bundle = "tripdoc-bundle"
    case tripdocMemory = "tripdoc-memory"
    case wal = "grdb-wal"
    case delete = "grdb-delete"
    case grdbMemory = "grdb-memory"

    /// Whether the store is tripdoc's (the others are GRDB's).
    var isTripDoc: Bool {
        switch self {
        case .json, .bundle, .tripdocMemory: true
        case .wal, .delete, .grdbMemory: false
        }
    }

    /// Whether the store lives only in its process (so every row runs in one process).
    var isInMemory: Bool {
        self == .tripdocMemory || self == .grdbMemory
    }

    /// The store's file name in the benchmark's scratch directory.
    var fileName: String {
        switch self {
        case .json: "trips.json"
        case .bundle: "trips.tripbundle"
        case .wal: "trips-wal.sqlite"
        case .delete: "trips-delete.sqlite"
        case .tripdocMemory, .grdbMemory: "memory"
        }
    }

    /// The column's heading part: JSON, bundle, memory, WAL, DELETE.
    var label: String {
        switch self {
        case .json: "JSON"
        case .bundle: "bundle"
        case .tripdocMemory, .grdbMemory: "memory"
        case .wal: "WAL"
        case .delete: "DELETE"
        }
    }
}
