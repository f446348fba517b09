import Foundation
import TripDocCore

extension Schema {
    /// The schema of model types (SwiftData's `Schema(_:version:)`): one entity per type, with
    /// its attributes, relationships (inverses inferred when only one side names the other, or
    /// when exactly one relationship on each side points at the other type), `#Unique`
    /// constraints and `#Index` lists.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        let all = Self.modelTypes(reachableFrom: types)
        self.init(all.map { Self.entity(of: $0) }, version: version)
        SchemaModelTypes.record(self, types: all)
    }

    /// `types` and the types their relationships reach: the model types of a schema made of
    /// `types` (destinations of relationships belong to the schema too, as in SwiftData).
    static func modelTypes(reachableFrom types: [any PersistentModel.Type]) -> [any PersistentModel.Type] {
        var all: [ObjectIdentifier: any PersistentModel.Type] = [:]
        var pending = types
        while let type = pending.popLast() {
            guard all.updateValue(type, forKey: ObjectIdentifier(type)) == nil else { continue }
            for property in ModelDescription.of(type).properties {
                if case .relationship(let destination, _, _) = property.kind { pending.append(destination) }
            }
        }
        return Array(all.values)
    }

    /// The name of the entity that stores `type`'s models (SwiftData's `entityName(for:)`).
    public static func entityName<T: PersistentModel>(for type: T.Type) -> String {
        ModelDescription.entityName(of: type)
    }

    /// The entity that stores `type`'s models, if the schema has it (SwiftData's `entity(for:)`).
    public func entity<T: PersistentModel>(for type: T.Type) -> Entity? {
        entity(named: Self.entityName(for: type))
    }

    /// The schema of model types, variadic.
    public init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    private static func entity(of type: any PersistentModel.Type) -> Entity {
        let description = ModelDescription.of(type)
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        for property in description.properties {
            switch property.kind {
            case .attribute(let coding, let isOptional):
                let options = property.metadata as? AttributeMetadata
                // A default that is nil, or that does not encode, is no default.
                let defaultValue = property.defaultValue.flatMap { try? coding.snapshotValue(of: $0) }
                attributes.append(
                    Attribute(
                        property.name, coding.attributeType, isOptional: isOptional, options: options?.options ?? [],
                        originalName: options?.originalName,
                        defaultValue: defaultValue == .null ? nil : defaultValue, hashModifier: options?.hashModifier))
            case .relationship(let destination, let isToMany, _):
                let options = property.relationshipMetadata
                relationships.append(
                    Relationship(
                        property.name, destination: ModelDescription.entityName(of: destination), isToMany: isToMany,
                        inverse: ModelDescription.inverse(of: property, in: description)?.name,
                        deleteRule: options?.deleteRule ?? .nullify, minimumModelCount: options?.minimumModelCount ?? 0,
                        maximumModelCount: options?.maximumModelCount ?? 0, originalName: options?.originalName))
            }
        }
        return Entity(
            name: description.entityName, attributes: attributes, relationships: relationships,
            uniquenessConstraints: description.names(of: type._$uniquenessConstraints),
            indices: description.names(of: type._$indices))
    }
}

extension ModelDescription {
    /// Property names of key-path lists (`#Unique`, `#Index`).
    func names(of lists: [[AnyKeyPath]]) -> [[String]] {
        // A key path that names no persisted property is one of the description's problems,
        // which ModelContainer throws; the schema leaves it out.
        lists.map { list in list.compactMap { property(for: $0)?.name } }.filter { !$0.isEmpty }
    }

    /// The relationships holding the other side of `property`: its inverse, or, when several
    /// relationships of the destination name `property` as their inverse (SwiftData accepts
    /// that), all of them, the first declared first.
    static func counterparts(of property: Property, in description: ModelDescription) -> [Property] {
        guard case .relationship(let destinationType, _, _) = property.kind else { return [] }
        let destination = ModelDescription.of(destinationType)
        let sharers = destination.properties.filter {
            guard let inverse = $0.relationshipMetadata?.inverse else { return false }
            return inverse == property.keyPath
        }
        if sharers.count > 1 { return sharers }
        return inverse(of: property, in: description).map { [$0] } ?? []
    }

    /// The relationship on the other side of `property`: the one `@Relationship(inverse:)` names
    /// on either side, else the only relationship of the destination pointing back when
    /// `property` is the only one pointing there.
    static func inverse(of property: Property, in description: ModelDescription) -> Property? {
        guard case .relationship(let destinationType, _, _) = property.kind else { return nil }
        let destination = ModelDescription.of(destinationType)
        if let inverse = property.relationshipMetadata?.inverse { return destination.property(for: inverse) }
        let backPointers = destination.properties.filter {
            guard case .relationship(let type, _, _) = $0.kind else { return false }
            return type == description.modelType
        }
        if let named = backPointers.first(where: { $0.relationshipMetadata?.inverse == property.keyPath }) { return named }
        let forwardPointers = description.properties.filter {
            guard case .relationship(let type, _, _) = $0.kind else { return false }
            return type == destinationType
        }
        guard backPointers.count == 1, forwardPointers.count == 1,
            backPointers[0].relationshipMetadata?.inverse == nil
        else { return nil }
        // A self-relationship (parent/children of one type) is its own only back pointer.
        if destination.entityName == description.entityName, backPointers[0].name == property.name { return nil }
        return backPointers[0]
    }
}
