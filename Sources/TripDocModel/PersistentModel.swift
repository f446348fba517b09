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
    /// The `#Unique` constraints written in the class body.
    static var _$uniquenessConstraints: [[PartialKeyPath<Self>]] { get }
    /// The `#Index` lists written in the class body.
    static var _$indices: [[PartialKeyPath<Self>]] { get }
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
        return context.hasPendingChanges(backing.persistentModelID)
    }

    /// Models are equal when they are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Backing data for a model created in code, before it is inserted into a context.
    public static func createBackingData() -> any BackingData<Self> { DefaultBackingData<Self>() }

    public static var _$uniquenessConstraints: [[PartialKeyPath<Self>]] { [] }
    public static var _$indices: [[PartialKeyPath<Self>]] { [] }

    /// The value of a persisted property (SwiftData's spelling).
    public func getValue<Value>(forKey key: KeyPath<Self, Value>) -> Value {
        persistentBackingData.getValue(forKey: key)
    }

    /// Sets a persisted property (SwiftData's spelling).
    public func setValue<Value>(forKey key: KeyPath<Self, Value>, to newValue: Value) {
        persistentBackingData.setValue(forKey: key, to: newValue)
    }
}
