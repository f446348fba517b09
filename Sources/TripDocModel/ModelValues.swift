/// The values a model's backing data holds, by key path: one slot per persisted property, in
/// the order of its ``ModelDescription``, and a dictionary for any other key path a model's
/// accessors use (never, for what `@Model` writes).
///
/// A model costs its values plus a small constant: slots take a fraction of what a dictionary
/// keyed by key path takes (no stored keys, no spare capacity), which a context holding
/// hundreds of thousands of models feels. The slots are made on the first value set: the
/// backing data a model's property initializer makes, which `init(backingData:)` replaces at
/// once, costs no storage.
struct ModelValues {
    private let description: ModelDescription
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

    /// The value held for the property at `index` of the description, if any.
    subscript(propertyAt index: Int) -> Any? {
        get { slots.isEmpty ? nil : slots[index] }
        set {
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots = ContiguousArray(repeating: nil, count: description.properties.count)
            }
            slots[index] = newValue
        }
    }

    /// Forgets every value.
    mutating func removeAll() {
        for index in slots.indices { slots[index] = nil }
        if !others.isEmpty { others = [:] }
    }
}
