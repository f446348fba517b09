import Foundation
import TripDocCore

/// Where a model's persisted values live (SwiftData's `BackingData`). A `@Model` class's
/// persisted properties read and write through it.
public protocol BackingData<Model>: AnyObject {
    /// The model type whose values this holds.
    associatedtype Model: PersistentModel
    /// The model's identity.
    var persistentModelID: PersistentIdentifier { get }
    /// The value of the property at `key`.
    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value
    /// Sets the property at `key`.
    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value)
}

/// The backing data tripdoc gives every model: its values as Swift values, its relationships'
/// destinations resolved through its context on first read, the state last saved or fetched
/// (for ``ModelContext/rollback()``), and the inverse of each relationship kept up to date once
/// the model is in a context.
public final class DefaultBackingData<Model: PersistentModel>: BackingData, ModelBacking {
    public internal(set) var persistentModelID: PersistentIdentifier {
        get {
            if let identifier { return identifier }
            let minted = PersistentIdentifier.temporary(entityName: description.entityName)
            identifier = minted
            return minted
        }
        set { identifier = newValue }
    }
    /// The model's identifier; `nil` for a new model until its temporary identifier is first
    /// asked for (minting one costs a name lookup and a new key).
    private var identifier: PersistentIdentifier?
    /// The context the model is registered in.
    weak var context: ModelContext?
    /// The model these values belong to, once registered: the one its context holds under its
    /// identifier. (Looked up rather than held weakly: a weak reference gives every model
    /// object a side table, which makes each of its retains and releases take the slow path.)
    var model: Model? { context?.registry[persistentModelID] as? Model }
    /// Values set or read so far, by key path.
    var values: ModelValues
    /// The state last fetched or saved; `nil` for a model never saved. A property read on
    /// demand (``ModelDescription/Property/readsOnDemand(_:)``: relationships, scalar
    /// attributes) and not set or read since keeps its saved value in ``values`` until first
    /// read, so a model costs its snapshot (whose values it shares with its store) and little
    /// more until it is used.
    var committed: DefaultSnapshot? {
        get {
            guard !holdsSentSnapshot else { return nil }
            return committedLayout.map { DefaultSnapshot(persistentIdentifier: persistentModelID, layout: $0, slots: committedSlots) }
        }
        set {
            assert(newValue == nil || identifier == nil || newValue?.persistentIdentifier == identifier)
            committedLayout = newValue?.layout
            committedSlots = newValue?.slots ?? []
            holdsSentSnapshot = false
        }
    }
    /// ``committed``'s layout (`nil` for no saved state) and values; its identifier is the
    /// model's, so it is not kept twice (a model costs 32 bytes less). While
    /// ``holdsSentSnapshot``, the snapshot a save of the new model sent instead.
    private var committedLayout: SnapshotLayout?
    private var committedSlots: [SnapshotValue] = []
    /// Whether the model is new and holds, in place of its values, the snapshot of them a save
    /// sent (see ``holdSentSnapshot(_:)``); it has no saved state.
    private var holdsSentSnapshot = false
    /// Whether the model has been deleted from its context.
    var isDeleted = false
    /// Whether the model is inserted, changed or deleted in its context and not yet saved.
    var isPending = false
    /// Whether ``committed`` is still to be loaded into ``values`` (see ``loadOnFirstUse(_:)``).
    private var isLoadDeferred = false
    /// Why the last snapshot loaded could not give a property its value, if it could not.
    var loadProblem: ModelContextError? {
        get {
            loadIfDeferred()
            return loadProblemBox?.problem
        }
        set { loadProblemBox = newValue.map(LoadProblem.init) }
    }
    /// ``loadProblem``, kept out of line: rare, and larger than the rest of the backing data.
    private var loadProblemBox: LoadProblem?

    let description: ModelDescription
    /// The model's persisted `let`s, whose values live in the object.
    var storedLets: StoredLetProperties { description.storedLets }

    /// Backing data for a new model (a temporary identifier).
    init() {
        description = ModelDescription.of(Model.self)
        values = ModelValues(description)
    }

    /// Backing data holding a fetched snapshot, for a context that has `description` (the
    /// model type's) at hand.
    init(snapshot: DefaultSnapshot, context: ModelContext, description: ModelDescription) {
        self.description = description
        values = ModelValues(description)
        identifier = snapshot.persistentIdentifier
        self.context = context
        load(snapshot)
    }

    /// Backing data holding a fetched snapshot.
    convenience init(snapshot: DefaultSnapshot, context: ModelContext) {
        self.init(snapshot: snapshot, context: context, description: ModelDescription.of(Model.self))
    }

    /// Takes `snapshot` as the model's state, saved and current.
    ///
    /// An attribute whose stored value is not one of its type (a document edited by hand or
    /// written by another program) takes the property's initial value, if it has one; the
    /// first such problem is kept in ``loadProblem`` (a fetch throws it).
    func load(_ snapshot: DefaultSnapshot) {
        isLoadDeferred = false
        values.removeAll()
        if loadProblemBox != nil { loadProblem = nil }
        let properties = description.properties
        let storedLets = description.storedLets
        // A store's snapshot of every property has the description's layout: values by position.
        let positions = snapshot.layout === description.snapshotLayout ? description.positionsInSnapshot : nil
        for index in properties.indices {
            let value = positions.map { snapshot.slots[$0[index]] } ?? snapshot[properties[index].name] ?? .null
            // A `let` is given its value when the object is made (see StoredLetProperties).
            if properties[index].readsOnDemand(value), !storedLets.contains(properties[index].keyPath) {
                values.setStoredValue(value, at: index)
                continue
            }
            let property = properties[index]
            switch property.kind {
            case .attribute(let coding, _):
                do {
                    values[propertyAt: index] = try coding.value(from: value)
                } catch {
                    if let defaultValue = property.defaultValue {
                        values[propertyAt: index] = defaultValue
                    } else if loadProblem == nil {
                        loadProblem = ModelContextError.unreadableValue(
                            snapshot.persistentIdentifier, property: property.name, reason: String(describing: error))
                    }
                }
            case .relationship:
                break
            }
        }
        committed = snapshot
    }

    /// Takes `snapshot` as the model's state, saved and current, and leaves reading its values
    /// to the model's first use (any read, change or snapshot of it): what a save does for the
    /// models it changed, which a program that saved many models rarely uses all of again. The
    /// values the model held are let go at once.
    func loadOnFirstUse(_ snapshot: DefaultSnapshot) {
        values = ModelValues(description)
        if loadProblemBox != nil { loadProblemBox = nil }
        committed = snapshot
        isLoadDeferred = true
    }

    /// Loads ``committed`` if ``loadOnFirstUse(_:)`` left it to now, or the values of the
    /// snapshot ``holdSentSnapshot(_:)`` kept.
    @inline(__always)
    private func loadIfDeferred() {
        guard isLoadDeferred, let layout = committedLayout else { return }
        let isSent = holdsSentSnapshot
        load(DefaultSnapshot(persistentIdentifier: persistentModelID, layout: layout, slots: committedSlots))
        // A new model's values, not a saved state.
        if isSent { committed = nil }
    }

    /// Lets go of a new model's values for `snapshot`, the snapshot of them a save is sending,
    /// which the store keeps as it is (the identifiers the snapshots hold were minted before
    /// they were made): a bulk insert's values are then held once, by model and store alike,
    /// instead of twice while the store saves. The values are read from it on first use, as
    /// after any save; a model that holds values a snapshot does not keep holds on to them.
    func holdSentSnapshot(_ snapshot: DefaultSnapshot) {
        guard committedLayout == nil, !values.holdsOtherValues, snapshot.persistentIdentifier == persistentModelID else { return }
        values = ModelValues(description)
        committedLayout = snapshot.layout
        committedSlots = snapshot.slots
        holdsSentSnapshot = true
        isLoadDeferred = true
    }

    /// Rewrites the references in the snapshot a refused save sent (``holdSentSnapshot(_:)``)
    /// through `identifier`: the models it refers to have their temporary identifiers back.
    func rewriteSentSnapshotReferences(_ identifier: (PersistentIdentifier) -> PersistentIdentifier) {
        guard holdsSentSnapshot else { return }
        committedSlots = committedSlots.map { $0.remappingReferences(identifier) }
    }

    /// The saved value of a property read on demand and not set or read since the state was
    /// loaded, or `nil`.
    func storedValue(of property: ModelDescription.Property) -> SnapshotValue? {
        guard let index = description.index(of: property) else { return nil }
        return storedValue(ofPropertyAt: index)
    }

    /// ``storedValue(of:)`` for the property at `index` of the description.
    func storedValue(ofPropertyAt index: Int) -> SnapshotValue? {
        loadIfDeferred()
        return values.storedValue(at: index)
    }

    public func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value {
        loadIfDeferred()
        // A `let` lives in the object (see StoredLetProperties).
        if description.hasStoredLets, storedLets.contains(key), let model { return model[keyPath: key] }
        // The key path is looked up once: hashing one is most of what a read costs.
        guard let index = description.indexByKeyPath[key] else {
            if let value = values[other: key] { return value as! Value }
            return missingValue(forKey: key, property: nil)
        }
        if let value = values[propertyAt: index] { return value as! Value }
        if let stored = storedValue(ofPropertyAt: index) {
            let property = description.properties[index]
            if case .attribute(let coding, _) = property.kind {
                // A value that fits the attribute's scalar type: reading it cannot fail.
                let value = try! coding.value(from: stored)
                values[propertyAt: index] = value
                return value as! Value
            }
            guard let context else {
                preconditionFailure(
                    isDeleted
                        ? "\(description.entityName).\(property.name) was read after the model was deleted and the deletion "
                            + "saved: a deleted model's relationships are gone (as SwiftData invalidates it); read them before "
                            + "deleting it"
                        : "\(description.entityName).\(property.name) was read after the ModelContext that fetched the model "
                            + "was released: keep the context for as long as you use its models")
            }
            guard let value = context.resolve(stored, property: property) as? Value else {
                preconditionFailure(
                    "\(description.entityName).\(property.name) is a required relationship whose destination no longer "
                        + "exists (it was deleted or nullified); declare it optional")
            }
            values[propertyAt: index] = value
            return value
        }
        return missingValue(forKey: key, property: description.properties[index])
    }

    /// The value of a property that holds none: its default, `nil`, or an empty list.
    private func missingValue<Value>(forKey key: KeyPath<Model, Value>, property: ModelDescription.Property?) -> Value {
        if let defaultValue = property?.defaultValue { return defaultValue as! Value }
        if let optional = Value.self as? any OptionalValue.Type { return optional.nilValue as! Value }
        if let array = Value.self as? any RangeReplaceableCollection.Type { return array.init() as! Value }
        let name = property?.name ?? "\(key)"
        if let loadProblem {
            preconditionFailure("\(description.entityName).\(name) has no value: \(loadProblem)")
        }
        preconditionFailure("\(description.entityName).\(name) was read before it was given a value")
    }

    public func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        loadIfDeferred()
        guard let index = description.indexByKeyPath[key] else {
            values[other: key] = newValue
            return
        }
        let property = description.properties[index]
        // The context is read once: each read of a weak reference retains and releases its
        // object through the object's side table, the runtime's slow path.
        let context = self.context
        if property.isRelationship, let context, let model = context.registry[persistentModelID] as? Model {
            let old = destinations(of: property)
            values[propertyAt: index] = newValue
            let new = ModelContext.models(in: newValue, of: property)
            // By identity, in time linear in the list (appending to a long list, one item at a
            // time, must not cost the square of its length each time); short lists are compared
            // directly, which costs less than making two sets.
            let removed: [any PersistentModel]
            let added: [any PersistentModel]
            if old.count * new.count <= 64 {
                removed = old.filter { model in !new.contains { $0 === model } }
                added = new.filter { model in !old.contains { $0 === model } }
            } else {
                let oldObjects = Set(old.map(ObjectIdentifier.init))
                let newObjects = Set(new.map(ObjectIdentifier.init))
                removed = old.filter { !newObjects.contains(ObjectIdentifier($0)) }
                added = new.filter { !oldObjects.contains(ObjectIdentifier($0)) }
            }
            context.relationshipDidChange(of: model, property: property, removed: removed, added: added)
        } else {
            values[propertyAt: index] = newValue
        }
        context?.modelDidChange(self)
    }

    // MARK: For the context

    /// The value of a persisted `let`, which lives in the model object; `nil` for a `var` (kept
    /// here) or before the model is in a context.
    func objectValue(of property: ModelDescription.Property) -> Any? {
        guard description.hasStoredLets, storedLets.contains(property.keyPath), let model else { return nil }
        return model[keyPath: property.keyPath]
    }

    /// Gives a model made over this backing data its `let`s' values (see StoredLetProperties).
    func restoreStoredLets(in model: Model) {
        loadIfDeferred()
        if description.hasStoredLets { storedLets.restore(in: model, from: values) }
    }

    /// Sets a relationship without touching its inverse (the context keeping inverses in step).
    func setRelationshipValue(_ value: Any, for property: ModelDescription.Property) {
        loadIfDeferred()
        if let index = description.index(of: property) {
            values[propertyAt: index] = value
        } else {
            values[property.keyPath] = value
        }
    }

    /// A relationship's current destinations (resolving them if needed).
    func destinations(of property: ModelDescription.Property) -> [any PersistentModel] {
        loadIfDeferred()
        guard let index = description.index(of: property) else {
            return values[property.keyPath].map { ModelContext.models(in: $0, of: property) } ?? []
        }
        if let value = values[propertyAt: index] { return ModelContext.models(in: value, of: property) }
        if let stored = storedValue(ofPropertyAt: index), let context {
            return ModelContext.models(in: context.resolve(stored, property: property), of: property)
        }
        return []
    }

    /// The model's state as a snapshot, relationships as identifiers.
    ///
    /// - Throws: ``ModelContextError/unencodableValue(_:property:reason:)`` when a `Codable`
    ///   value's `encode(to:)` throws.
    func snapshot() throws -> DefaultSnapshot {
        loadIfDeferred()
        // Values set by position in the description's layout, or by name where it has none.
        var slots = [SnapshotValue](repeating: .null, count: description.positionsInSnapshot.count)
        var snapshotValues: [String: SnapshotValue] = [:]
        func set(_ value: SnapshotValue, at index: Int) {
            if description.snapshotLayout != nil {
                slots[description.positionsInSnapshot[index]] = value
            } else {
                snapshotValues[description.properties[index].name] = value
            }
        }
        for index in description.properties.indices {
            let property = description.properties[index]
            switch property.kind {
            case .attribute(let coding, _):
                if let stored = storedValue(ofPropertyAt: index) {
                    // Never read or set since it was saved: the saved value, as it is.
                    set(stored, at: index)
                    continue
                }
                guard let value = objectValue(of: property) ?? values[propertyAt: index] ?? property.defaultValue else {
                    set(SnapshotValue.null, at: index)
                    continue
                }
                do {
                    set(try coding.snapshotValue(of: value), at: index)
                } catch {
                    throw ModelContextError.unencodableValue(
                        persistentModelID, property: property.name, reason: String(describing: error))
                }
            case .relationship(_, let isToMany, _):
                if let stored = storedValue(ofPropertyAt: index) {
                    set(stored, at: index)
                } else {
                    let models = ModelContext.models(in: values[propertyAt: index], of: property)
                    set(
                        isToMany
                            ? .references(models.map(\.persistentModelID))
                            : (models.first.map { .reference($0.persistentModelID) } ?? .null), at: index)
                }
            }
        }
        if let layout = description.snapshotLayout {
            return DefaultSnapshot(persistentIdentifier: persistentModelID, layout: layout, slots: slots)
        }
        return DefaultSnapshot(persistentIdentifier: persistentModelID, values: snapshotValues)
    }
}

/// A problem met loading a model's values (see ``DefaultBackingData/loadProblem``).
private final class LoadProblem {
    let problem: ModelContextError
    init(_ problem: ModelContextError) { self.problem = problem }
}

/// What a context needs of any model's backing data, whatever the model type.
protocol ModelBacking: AnyObject {
    var persistentModelID: PersistentIdentifier { get set }
    var context: ModelContext? { get set }
    var committed: DefaultSnapshot? { get set }
    var isDeleted: Bool { get set }
    var isPending: Bool { get set }
    var description: ModelDescription { get }
    func attach(to context: ModelContext)
    func detach()
    func load(_ snapshot: DefaultSnapshot)
    func loadOnFirstUse(_ snapshot: DefaultSnapshot)
    func holdSentSnapshot(_ snapshot: DefaultSnapshot)
    func rewriteSentSnapshotReferences(_ identifier: (PersistentIdentifier) -> PersistentIdentifier)
    var loadProblem: ModelContextError? { get }
    func snapshot() throws -> DefaultSnapshot
    func destinations(of property: ModelDescription.Property) -> [any PersistentModel]
    func setRelationshipValue(_ value: Any, for property: ModelDescription.Property)
}

extension DefaultBackingData {
    func attach(to context: ModelContext) {
        self.context = context
    }

    func detach() {
        context = nil
    }
}

extension PersistentModel {
    /// The model's backing data, as the context handles it.
    var backing: any ModelBacking {
        // The class tripdoc gives every model, tried first: a cast to a class is a comparison,
        // a cast to a protocol a lookup of the conformance (which every relationship change and
        // every model a save refreshes asked for).
        if let backing = persistentBackingData as? DefaultBackingData<Self> { return backing }
        guard let backing = persistentBackingData as? any ModelBacking else {
            preconditionFailure("\(Self.self) has backing data tripdoc did not make; a ModelContext needs DefaultBackingData")
        }
        return backing
    }
}

/// What `@Model` gives a class it refuses (a `@Model` subclass of a model) in place of backing
/// data, so that the accessors it has already put on the class's properties compile and its
/// error is the only one reported. Such a class does not compile, so this is never used.
public struct _RefusedModelBackingData {
    /// Made by `@Model` only.
    public init() {}

    /// Never called: the class this is in does not compile.
    public func getValue<Model, Value>(forKey key: KeyPath<Model, Value>) -> Value {
        preconditionFailure("@Model refused \(Model.self); this code is never compiled into a program")
    }

    /// Never called: the class this is in does not compile.
    public func setValue<Model, Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {}
}
