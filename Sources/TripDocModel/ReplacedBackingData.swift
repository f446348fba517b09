import Foundation
import TripDocCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a model's `_$backingData` property starts with while a context makes the model over
/// backing data it already has (``ModelContext`` calling `init(backingData:)`): `@Model`'s
/// property initializer runs before that initializer's body replaces it, and so do the initial
/// values of persisted properties, which set theirs through it. Making and dropping a
/// ``DefaultBackingData`` there, with the values those initial values set, cost as much as the
/// model's own; this keeps nothing and is dropped at once.
///
/// ``making(_:_:)`` marks the current thread while it makes a model of one type; the type's
/// `createBackingData()` gives this instead of new backing data only then, so a model created in
/// code (on any thread, or by an initial value that makes a model of another type) gets its own.
final class ReplacedBackingData<Model: PersistentModel>: BackingData {
    /// Never asked for: the model is given its real backing data before its initializer returns.
    var persistentModelID: PersistentIdentifier { .temporary(entityName: ModelDescription.of(Model.self).entityName) }

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        preconditionFailure("\(Model.self) read a property before init(backingData:) gave it its backing data")
    }

    /// Drops the value (an initial value; the model's backing data holds the real one).
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {}
}

/// The model type a context is making on the current thread through `init(backingData:)`, if any.
enum ModelBeingMade {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key for the models a context makes")
        return key
    }()

    /// Runs `make` (which calls `type.init(backingData:)`) with the current thread marked as
    /// making a model of `type`.
    static func making<M: PersistentModel>(_ type: M.Type, _ make: () -> M) -> M {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self))
        defer { pthread_setspecific(key, previous) }
        return make()
    }

    /// Whether the current thread is making a model of `type` and has not yet given it its
    /// placeholder; the mark is taken, so the next call (a model of the same type created in
    /// code while it is made) gets its own backing data.
    static func takeMark<M: PersistentModel>(for type: M.Type) -> Bool {
        guard let marked = pthread_getspecific(key),
            marked == unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        else { return false }
        pthread_setspecific(key, nil)
        return true
    }
}
