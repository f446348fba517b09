import TripDocCore

/// What `@Attribute` or `@Relationship` says about a property.
public protocol PropertyOptions {}

extension Schema {
    /// One persisted property of a model type, as `@Model` describes it: its name, key path,
    /// initial value and the options written on it (SwiftData's `Schema.PropertyMetadata`).
    public struct PropertyMetadata {
        /// The property's name.
        public let name: String
        /// The property's key path from its model type.
        public let keypath: AnyKeyPath
        /// The property's initial value, if its declaration has one.
        public let defaultValue: Any?
        /// The `@Attribute` or `@Relationship` options, or `nil` for none.
        public let metadata: (any PropertyOptions)?
        /// The property's declared type.
        public let valueType: Any.Type
        /// Whether a value is of the property's type, or its optional's wrapped type.
        let isValue: (Any) -> Bool

        /// Describes a property (what `@Model` writes).
        public init<Model, Value>(
            name: String, keypath: KeyPath<Model, Value>, defaultValue: Value?, metadata: (any PropertyOptions)?
        ) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue.map { $0 as Any }
            self.metadata = metadata
            self.valueType = Value.self
            self.isValue = { value in
                if value is Value { return true }
                guard let optional = Value.self as? any OptionalValue.Type else { return false }
                return Self.isValue(value, wrappedIn: optional)
            }
        }

        private static func isValue<O: OptionalValue>(_ value: Any, wrappedIn _: O.Type) -> Bool {
            (value as? O) != nil
        }
    }

    /// The options of `@Attribute(...)`, as written.
    public struct AttributeMetadata: PropertyOptions, Hashable, Sendable {
        /// The options, such as `.unique` and `.preserveValueOnDeletion`.
        public var options: [Schema.Attribute.Option]
        /// The property's name in an earlier schema version.
        public var originalName: String?
        /// A string that changes the attribute's version hash.
        public var hashModifier: String?

        /// Records `@Attribute`'s arguments.
        public init(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
        }
    }

    /// The options of `@Relationship(...)`, as written.
    public struct RelationshipMetadata: PropertyOptions {
        /// Options of a relationship.
        public struct Option: Hashable, Sendable {
            let rawValue: String
            /// The relationship's destinations are unique (accepted for SwiftData source
            /// compatibility; uniqueness of destinations is what a to-many relationship keeps anyway).
            public static let unique = Option(rawValue: "unique")
        }

        /// The options.
        public var options: [Option]
        /// What deleting the model does to the destinations.
        public var deleteRule: Schema.Relationship.DeleteRule
        /// The least number of destinations (0 or `nil`: no minimum).
        public var minimumModelCount: Int?
        /// The most destinations (0 or `nil`: no maximum).
        public var maximumModelCount: Int?
        /// The property's name in an earlier schema version.
        public var originalName: String?
        /// The key path of the inverse relationship on the destination type.
        public var inverse: AnyKeyPath?
        /// A string that changes the relationship's version hash.
        public var hashModifier: String?

        /// Records `@Relationship`'s arguments.
        public init(
            _ options: Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify, minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
            self.inverse = inverse
            self.hashModifier = hashModifier
        }
    }
}
