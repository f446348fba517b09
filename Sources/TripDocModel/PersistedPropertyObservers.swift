import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The persisted properties whose `willSet`/`didSet` observers are running on the current thread,
/// which the setter `@Model` writes for such a property asks before running them: an assignment
/// to the property inside its own observers changes the value only, as it does for a stored
/// property (`didSet { name = name.trimmed() }` would otherwise call itself without end). For
/// the code `@Model` generates; not for use in code of your own.
public enum PersistedPropertyObservers {
    /// The properties whose observers run on one thread, innermost last.
    private final class Running {
        var entries: [(model: ObjectIdentifier, key: AnyKeyPath)] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(
            pthread_key_create(&key) { pointer in
                // The thread's list goes with it.
                guard let pointer else { return }
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            } == 0, "no thread-specific key for the observers running")
        return key
    }()

    private static var running: Running {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Running>.fromOpaque(pointer).takeUnretainedValue()
        }
        let running = Running()
        pthread_setspecific(key, Unmanaged.passRetained(running).toOpaque())
        return running
    }

    /// Marks the observers of `model`'s property at `key` as running on this thread; `false`
    /// when they already are (the assignment is then made without them).
    public static func begin(_ model: AnyObject, _ key: AnyKeyPath) -> Bool {
        let running = self.running
        let identifier = ObjectIdentifier(model)
        if running.entries.contains(where: { $0.model == identifier && $0.key == key }) { return false }
        running.entries.append((identifier, key))
        return true
    }

    /// Ends what ``begin(_:_:)`` marked.
    public static func end(_ model: AnyObject, _ key: AnyKeyPath) {
        let running = self.running
        let identifier = ObjectIdentifier(model)
        if let index = running.entries.lastIndex(where: { $0.model == identifier && $0.key == key }) {
            running.entries.remove(at: index)
        }
    }
}
