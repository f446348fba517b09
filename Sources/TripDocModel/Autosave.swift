import Foundation

/// When a context with ``ModelContext/autosaveEnabled`` saves on its own, and where a failed
/// autosave is reported.
///
/// A change (insert, delete, or a persisted property set) in a container's `mainContext`
/// schedules one save on the main actor's next turn; changes made before it runs are saved
/// together. (Another context with autosave turned on may be used on any thread: saving it on
/// the main actor would race with that thread, so it saves only as follows.) The main
/// actor runs that turn when the code on it returns or awaits: at once in an app with a run
/// loop or an `async` main (a server, a command-line tool awaiting anything), never in a
/// synchronous command-line program that does not return to it. So the pending changes are
/// also saved, at the latest, when the context is deinitialised and when the process ends
/// normally (`exit`, or returning from `main`): contexts with autosave on are kept in a list
/// that an `atexit` handler saves. A process that is killed, or ends by a signal or
/// `_exit`, loses unsaved changes. A failed autosave leaves the changes pending, is written to
/// standard error, kept as ``ModelContext/autosaveError`` and posted as
/// ``ModelContext/autosaveDidFail`` (the error under the `"error"` key of `userInfo`).
enum Autosave {
    /// A context, held weakly, for the scheduled save and the list saved at exit.
    final class WeakContext: @unchecked Sendable {
        weak var context: ModelContext?
        init(_ context: ModelContext) { self.context = context }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [ObjectIdentifier: WeakContext] = [:]

    /// Adds a context to the list saved when the process exits.
    static func register(_ context: ModelContext) {
        lock.withLock { registered[ObjectIdentifier(context)] = WeakContext(context) }
        ProcessExit.installHandler()
    }

    /// Takes a context off the list.
    static func unregister(_ context: ModelContext) {
        _ = lock.withLock { registered.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// Schedules `context`'s autosave on the main actor's next turn.
    static func schedule(_ context: ModelContext) {
        let box = WeakContext(context)
        Task { @MainActor in box.context?.autosave() }
    }

    /// Saves every registered context with pending changes (the process is exiting).
    static func saveAllAtExit() {
        let contexts = lock.withLock { registered.values.compactMap(\.context) }
        for context in contexts { context.autosave() }
    }
}
