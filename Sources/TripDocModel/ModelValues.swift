import TripDocCore

/// The values a model's backing data holds, by key path: one slot per persisted property, in
/// the order of its ``ModelDescription``, and a dictionary for any other key path a model's
/// accessors use (never, for what `@Model` writes).
///
/// A slot holds the property's Swift value once it is set or read, or, until then, the value
/// the model's saved state holds for it when it is read on demand
/// (``ModelDescription/Property/readsOnDemand(_:)``), so that a first read converts it without
/// looking it up in the snapshot again.
///
/// A model costs its values plus a small constant: slots take a fraction of what a dictionary
/// keyed by key path takes (no stored keys, no spare capacity), which a context holding
/// hundreds of thousands of models feels. The slots are made on the first value set: the
/// backing data a model made in code starts without storage until its initializer sets a value.
struct ModelValues {
    /// A saved value kept in a slot until it is read (in an `Any`, whose inline buffer holds it
    /// without a box): a slot is one `Any?`, 32 bytes, where an enum of a saved value, a Swift
    /// value or nothing took 40.
    private struct StoredValue {
        let value: SnapshotValue
    }

    private let description: ModelDescription
    /// Each property's Swift value, or its saved value (``StoredValue``), or `nil`.
    private var slots: ContiguousArray<Any?>
    private var others: [AnyKeyPath: Any] = [:]

    /// No values, for the properties of `description`.
    init(_ description: ModelDescription) {
        self.description = description
        slots = []
    }

    /// The value held for `keyPath`, if any.
    subscript(keyPath: AnyKeyPath) -> Any? {
        get {
            if let index = description.indexByKeyPath[keyPath] { return self[propertyAt: index] }
            return others[keyPath]
        }
        set {
            if let index = description.indexByKeyPath[keyPath] {
                self[propertyAt: index] = newValue
            } else {
                others[keyPath] = newValue
            }
        }
    }

    /// The value held for a key path that is no persisted property of the description, if any.
    subscript(other keyPath: AnyKeyPath) -> Any? {
        get { others[keyPath] }
        set { others[keyPath] = newValue }
    }

    /// The Swift value held for the property at `index` of the description, if any (`nil` for
    /// a saved value not read yet).
    subscript(propertyAt index: Int) -> Any? {
        get {
            guard !slots.isEmpty, let value = slots[index], type(of: value) != StoredValue.self else { return nil }
            return value
        }
        set {
            guard let newValue else {
                if !slots.isEmpty { slots[index] = nil }
                return
            }
            makeSlots()
            slots[index] = .some(newValue)
        }
    }

    /// The saved value of the property at `index`, kept since it was loaded and not read or set
    /// since, if any.
    func storedValue(at index: Int) -> SnapshotValue? {
        guard !slots.isEmpty, let value = slots[index], type(of: value) == StoredValue.self else { return nil }
        return (value as! StoredValue).value
    }

    /// Keeps the saved value of the property at `index` until it is read.
    mutating func setStoredValue(_ value: SnapshotValue, at index: Int) {
        makeSlots()
        slots[index] = StoredValue(value: value)
    }

    private mutating func makeSlots() {
        if slots.isEmpty { slots = ContiguousArray(repeating: nil, count: description.properties.count) }
    }

    /// Forgets every value.
    /// Whether values are held for key paths that are no persisted property (never, for what
    /// `@Model` writes): a snapshot does not hold them.
    var holdsOtherValues: Bool { !others.isEmpty }

    mutating func removeAll() {
        for index in slots.indices { slots[index] = nil }
        if !others.isEmpty { others = [:] }
    }
}
