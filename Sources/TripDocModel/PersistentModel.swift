import Foundation
import TripDocCore

/// A class whose instances a ``ModelContext`` persists (SwiftData's `PersistentModel`).
/// `@Model` writes the conformance; the requirements are not written by hand.
public protocol PersistentModel: AnyObject, Hashable, Identifiable {
    /// Creates a model over existing backing data (what a context does when it fetches).
    init(backingData: any BackingData<Self>)
    /// Where the model's persisted values are kept.
    var persistentBackingData: any BackingData<Self> { get set }
    /// The persisted properties, in declaration order.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The `#Unique` constraints written in the class body, each a list of key paths into the
    /// model. `AnyKeyPath`, not `PartialKeyPath<Self>`: a requirement that names `Self` inside
    /// another type cannot be met by a class that is not `final`; `#Unique<Trip>` checks the key
    /// paths against `Trip` where it is written.
    static var _$uniquenessConstraints: [[AnyKeyPath]] { get }
    /// The `#Index` lists written in the class body (key paths into the model; see
    /// ``_$uniquenessConstraints``).
    static var _$indices: [[AnyKeyPath]] { get }
}

extension PersistentModel {
    /// The model's identity: temporary until its context saves it, then permanent.
    public var persistentModelID: PersistentIdentifier { persistentBackingData.persistentModelID }

    /// The model's identity (`Identifiable`).
    public var id: PersistentIdentifier { persistentModelID }

    /// The context the model is registered in, or `nil` before it is inserted.
    public var modelContext: ModelContext? { (persistentBackingData as? DefaultBackingData<Self>)?.context }

    /// Whether the model was deleted from its context (and the deletion not yet rolled back).
    public var isDeleted: Bool { (persistentBackingData as? DefaultBackingData<Self>)?.isDeleted ?? false }

    /// Whether the model has changes its context has not saved.
    public var hasChanges: Bool {
        guard let backing = persistentBackingData as? DefaultBackingData<Self>, let context = backing.context else {
            return false
        }
        return context.isPending(backing)
    }

    /// Models are equal when they are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Backing data for a model created in code, before it is inserted into a context (or a
    /// placeholder while a context makes a model over backing data it has: see
    /// `ReplacedBackingData`).
    public static func createBackingData() -> any BackingData<Self> {
        if ModelBeingMade.takeMark(for: Self.self) { return ReplacedBackingData<Self>() }
        return DefaultBackingData<Self>()
    }

    /// No `#Unique` constraints (a class body without `#Unique`).
    public static var _$uniquenessConstraints: [[AnyKeyPath]] { [] }
    /// No `#Index` lists (a class body without `#Index`).
    public static var _$indices: [[AnyKeyPath]] { [] }

    /// The value of a persisted property (SwiftData's spelling).
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }

    /// Sets a persisted property (SwiftData's spelling).
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }
}
