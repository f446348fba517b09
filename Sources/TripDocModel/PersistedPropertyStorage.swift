/// The zero-size stored property `@Model` adds beside each persisted `var` (as `_name`), which
/// the property's `init` accessor initializes (SwiftData's `_SwiftDataNoType`). The value lives
/// in the model's backing data; this only lets the compiler check, as for a stored property,
/// that every initializer gives the property a value, and route an initial value and a first
/// assignment in an initializer through the `init` accessor (so `willSet` and `didSet` run for
/// later changes only). Not for use in code of your own.
public struct PersistedPropertyStorage: Sendable {
    /// The one value.
    public init() {}
}
