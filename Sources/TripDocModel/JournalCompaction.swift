import Foundation

/// Folding journals into their documents when a program ends normally, so that a document left
/// by a program that exited is one self-contained file again (as a store's release does; see
/// ``DocumentStoreConfiguration/savesToJournal``). Stores are kept weakly; the list is folded
/// after the pending autosaves, by the one handler `atexit` runs for both (``ProcessExit``).
enum JournalCompaction {
    /// A store, held weakly.
    private final class WeakStore: @unchecked Sendable {
        weak var store: (any JournalFolding)?
        init(_ store: any JournalFolding) { self.store = store }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [ObjectIdentifier: WeakStore] = [:]

    /// Adds a store to the list folded at exit.
    static func register(_ store: any JournalFolding) {
        lock.withLock { registered[ObjectIdentifier(store)] = WeakStore(store) }
        ProcessExit.installHandler()
    }

    /// Takes a store off the list.
    static func unregister(_ store: any JournalFolding) {
        _ = lock.withLock { registered.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// Folds the journal of every registered store (the process is exiting).
    static func foldAll() {
        let stores = lock.withLock { registered.values.compactMap(\.store) }
        for store in stores { store.foldJournal() }
    }
}

/// A store whose saves may go to a journal.
protocol JournalFolding: AnyObject {
    /// Folds the journal into the document, reporting a failure on standard error.
    func foldJournal()
}

/// The one `atexit` handler of the typed layer: pending autosaves first, then the journals
/// those saves went to.
enum ProcessExit {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    static func installHandler() {
        lock.withLock {
            guard !installed else { return }
            installed = true
            atexit {
                Autosave.saveAllAtExit()
                JournalCompaction.foldAll()
            }
        }
    }
}
