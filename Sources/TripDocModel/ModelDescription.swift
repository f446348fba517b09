import Foundation
import TripDocCore

/// What tripdoc knows about one `@Model` type, worked out once from its ``Schema/PropertyMetadata``:
/// the entity name, each persisted property's kind, and lookups by key path and by name.
final class ModelDescription: @unchecked Sendable {
    /// A persisted property. (A class: reads of a model's values look at their property's
    /// description, and passing a reference costs less than copying its fields.)
    final class Property {
        enum Kind {
            /// An attribute, converted to and from its snapshot value by `coding`.
            case attribute(coding: AttributeCoding, isOptional: Bool)
            /// A relationship to `destination` (to-many for an array).
            case relationship(destination: any PersistentModel.Type, isToMany: Bool, isOptional: Bool)
        }

        let name: String
        let keyPath: AnyKeyPath
        /// The property's place in its description's ``ModelDescription/properties``: a model's
        /// values are read and set there without hashing the key path.
        let index: Int
        let kind: Kind
        let defaultValue: Any?
        let metadata: (any PropertyOptions)?
        /// For an attribute of one of the core's scalar types: its attribute type, so that a
        /// model keeps a stored value that fits it as stored until it is first read.
        let onDemandType: (type: AttributeType, isOptional: Bool)?

        init(
            name: String, keyPath: AnyKeyPath, index: Int, kind: Kind, defaultValue: Any?, metadata: (any PropertyOptions)?
        ) {
            self.name = name
            self.keyPath = keyPath
            self.index = index
            self.kind = kind
            self.defaultValue = defaultValue
            self.metadata = metadata
            if case .attribute(let coding, _) = kind { onDemandType = coding.onDemandType } else { onDemandType = nil }
        }

        /// Whether a model whose saved state holds `value` for this property reads it when the
        /// property is first read, rather than when the state is loaded: always for a
        /// relationship (its destinations are looked up then), and for an attribute of a core
        /// scalar type when `value` fits it (so reading it cannot fail).
        func readsOnDemand(_ value: SnapshotValue) -> Bool {
            switch kind {
            case .relationship: return true
            case .attribute:
                guard let onDemandType else { return false }
                if case .null = value { return onDemandType.isOptional }
                return value.fits(onDemandType.type)
            }
        }

        var isRelationship: Bool {
            if case .relationship = kind { return true }
            return false
        }

        var relationshipMetadata: Schema.RelationshipMetadata? { metadata as? Schema.RelationshipMetadata }
    }

    let modelType: any PersistentModel.Type
    let entityName: String
    let properties: [Property]
    let indexByKeyPath: [AnyKeyPath: Int]
    let indexByName: [String: Int]
    /// The layout of the snapshots the model's backing data makes (every persisted property),
    /// the one a store's snapshots of the entity have, so that loading one reads its values by
    /// position; `nil` when two properties share a name (``problems`` then says so).
    let snapshotLayout: SnapshotLayout?
    /// Where each property's value is in a snapshot of ``snapshotLayout``, by property index.
    let positionsInSnapshot: [Int]
    /// The model's persisted `let`s, whose values live in the object.
    let storedLets: StoredLetProperties
    /// Whether the model has persisted `let`s (asked before each read, without copying
    /// ``storedLets``).
    let hasStoredLets: Bool
    /// Why the model type cannot be stored, if it cannot (a property of a type tripdoc does
    /// not store, a `#Unique` key path that is no persisted property): ``ModelContainer`` throws
    /// these rather than open a store for it.
    let problems: [ModelContextError]

    func property(for keyPath: AnyKeyPath) -> Property? { indexByKeyPath[keyPath].map { properties[$0] } }
    func property(named name: String) -> Property? { indexByName[name].map { properties[$0] } }

    /// Where the other side of a relationship is kept (see ``otherSides(of:)``).
    struct OtherSides {
        /// The destination's relationships holding the other side (``counterparts(of:in:)``).
        let counterparts: [Property]
        /// This model's other relationships holding the same other side (several sharing an
        /// inverse): a destination one of them still holds keeps the model in its inverse.
        let siblings: [Property]
    }

    private let otherSidesLock = NSLock()
    private var otherSidesByName: [String: OtherSides] = [:]

    /// The other side of the relationship `property`, worked out on first use: every change to
    /// a relationship asks for it.
    func otherSides(of property: Property) -> OtherSides {
        if let known = otherSidesLock.withLock({ otherSidesByName[property.name] }) { return known }
        let counterparts = Self.counterparts(of: property, in: self)
        let siblings = properties.filter { sibling in
            sibling.name != property.name && sibling.isRelationship
                && Self.counterparts(of: sibling, in: self).contains { other in
                    counterparts.contains { $0.name == other.name }
                }
        }
        let sides = OtherSides(counterparts: counterparts, siblings: siblings)
        otherSidesLock.withLock { otherSidesByName[property.name] = sides }
        return sides
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: ModelDescription] = [:]

    nonisolated(unsafe) private static var typesByEntityName: [String: any PersistentModel.Type] = [:]

    /// The description of `type`, worked out on first use.
    /// The place of `property` in ``properties``, when it is one of them (a property of another
    /// description, such as another version's model of the entity, is found by name).
    func index(of property: Property) -> Int? {
        if property.index < properties.count, properties[property.index] === property { return property.index }
        return indexByName[property.name]
    }

    static func of(_ type: any PersistentModel.Type) -> ModelDescription {
        let key = ObjectIdentifier(type)
        if let known = lock.withLock({ cache[key] }) { return known }
        let description = ModelDescription(type)
        lock.withLock {
            cache[key] = description
            typesByEntityName[description.entityName] = type
        }
        return description
    }

    /// Every model type described so far, by entity name: what typed history needs to name the
    /// model of a change.
    static func registeredTypes() -> [String: any PersistentModel.Type] {
        lock.withLock { typesByEntityName }
    }

    /// The entity name of a model type: its name without module or enclosing types, as SwiftData.
    static func entityName(of type: Any.Type) -> String {
        String(describing: type)
    }

    private init(_ type: any PersistentModel.Type) {
        modelType = type
        entityName = Self.entityName(of: type)
        var properties: [Property] = []
        var problems: [ModelContextError] = []
        for metadata in type.schemaMetadata {
            let kind: Property.Kind
            do {
                kind = try Self.kind(of: metadata, in: entityName)
            } catch {
                problems.append(error)
                continue
            }
            // A relationship must take the destinations the context gives it (an inverse set, a
            // destination deleted, a fetched model's destinations): a `let` cannot.
            if case .relationship = kind, StoredLetProperties.isLet(metadata.keypath) {
                problems.append(.relationshipDeclaredLet(model: entityName, property: metadata.name))
                continue
            }
            properties.append(
                Property(
                    name: metadata.name, keyPath: metadata.keypath, index: properties.count, kind: kind,
                    defaultValue: metadata.defaultValue,
                    metadata: metadata.metadata))
        }
        self.properties = properties
        indexByKeyPath = Dictionary(properties.indices.map { (properties[$0].keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        indexByName = Dictionary(properties.indices.map { (properties[$0].name, $0) }, uniquingKeysWith: { a, _ in a })
        if indexByName.count == properties.count {
            let layout = SnapshotLayout.of(names: properties.map(\.name), isAnEntitys: true)
            snapshotLayout = layout
            positionsInSnapshot = properties.map { layout.positions[$0.name]! }
        } else {
            snapshotLayout = nil
            positionsInSnapshot = []
        }
        storedLets = StoredLetProperties.of(type)
        hasStoredLets = !storedLets.keyPaths.isEmpty
        for list in type._$uniquenessConstraints + type._$indices {
            for keyPath in list where indexByKeyPath[keyPath] == nil {
                problems.append(.keyPathNotPersisted(model: entityName, keyPath: String(describing: keyPath)))
            }
        }
        self.problems = problems
    }

    /// The kind of a property.
    ///
    /// - Throws: Why tripdoc cannot store the property.
    private static func kind(of metadata: Schema.PropertyMetadata, in model: String) throws(ModelContextError)
        -> Property.Kind
    {
        let valueType = metadata.valueType
        if let list = valueType as? any OptionalModelList.Type {
            return .relationship(destination: list.destinationType, isToMany: true, isOptional: true)
        }
        if let relationship = valueType as? any RelationshipValue.Type {
            return .relationship(
                destination: relationship.destinationType, isToMany: relationship.isToMany,
                isOptional: relationship.isOptional)
        }
        if let model = valueType as? any PersistentModel.Type {
            return .relationship(destination: model, isToMany: false, isOptional: false)
        }
        if let options = (metadata.metadata as? Schema.AttributeMetadata)?.options,
            let name = options.lazy.compactMap(\.transformerName).first
        {
            guard let transformer = ValueTransformer.valueTransformer(forName: NSValueTransformerName(name)) else {
                throw .noValueTransformer(model: model, property: metadata.name, name: name)
            }
            let transformed = AttributeCoding.transformed(transformer, name: name, isValue: metadata.isValue)
            guard let optional = valueType as? any OptionalValue.Type else {
                return .attribute(coding: transformed, isOptional: false)
            }
            return .attribute(coding: .optional(transformed, nilValue: optional.nilValue), isOptional: true)
        }
        guard let coding = AttributeCoding(valueType) else {
            throw .unsupportedPropertyType(model: model, property: metadata.name, type: String(reflecting: valueType))
        }
        return .attribute(coding: coding, isOptional: coding.isOptional)
    }
}

/// The type of a relationship property other than a single non-optional model: an optional
/// model (to-one) or an array of models (to-many).
public protocol RelationshipValue {
    /// The model type at the other end.
    static var destinationType: any PersistentModel.Type { get }
    /// Whether it holds many models.
    static var isToMany: Bool { get }
    /// Whether it may hold none.
    static var isOptional: Bool { get }
}

extension Optional: RelationshipValue where Wrapped: PersistentModel {
    public static var destinationType: any PersistentModel.Type { Wrapped.self }
    public static var isToMany: Bool { false }
    public static var isOptional: Bool { true }
}

extension Array: RelationshipValue where Element: PersistentModel {
    public static var destinationType: any PersistentModel.Type { Element.self }
    public static var isToMany: Bool { true }
    public static var isOptional: Bool { false }
}

/// An optional array of models (`var items: [Item]? = []`, the spelling CloudKit-ready models use):
/// a to-many relationship whose `nil` reads as no models.
public protocol OptionalModelList {
    /// The model type at the other end.
    static var destinationType: any PersistentModel.Type { get }
}

extension Optional: OptionalModelList where Wrapped: RelationshipValue, Wrapped: RangeReplaceableCollection {
    public static var destinationType: any PersistentModel.Type { Wrapped.destinationType }
}
