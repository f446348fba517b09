import Foundation

/// What the shared coding needs to know of one entity, worked out once per document rather
/// than once per snapshot: each property's role and what its coding needs, and the order keys
/// are written in. Plans and properties are objects, so the per-value loops pass references
/// around rather than copying schema structures, and a ``SnapshotRecord`` names its plan.
final class EntityCodingPlan: Sendable {
    /// The key a snapshot object holds its primary key under; no property may be called this.
    static let identifierKey = "$id"

    enum Role { case attribute, toOne, toMany }

    final class Property: Sendable {
        let name: String
        /// What coding its value needs.
        let coding: Coding
        let defaultValue: SnapshotValue?
        /// The destination entity of a relationship (empty for an attribute).
        let destination: String
        /// The property's place in key order.
        let index: Int

        var role: Role { coding.role }
        /// Whether the attribute may be nil (relationships: to-one may be empty).
        var isOptional: Bool { coding.isOptional }

        init(attribute: Schema.Attribute, index: Int) {
            name = attribute.name
            coding = Coding(
                role: .attribute, type: attribute.type, isOptional: attribute.isOptional,
                usesExternalStorage: attribute.usesExternalStorage, destinationName: InternedName(""))
            defaultValue = attribute.defaultValue
            destination = ""
            self.index = index
        }

        init(relationship: Schema.Relationship, index: Int) {
            name = relationship.name
            coding = Coding(
                role: relationship.isToMany ? .toMany : .toOne, type: .string, isOptional: !relationship.isToMany,
                usesExternalStorage: false, destinationName: InternedName(relationship.destination))
            defaultValue = nil
            destination = relationship.destination
            self.index = index
        }
    }

    let entity: Schema.Entity
    /// The entity's name.
    let name: String
    /// ``name``, kept once for the process (what identifiers hold).
    let internedName: InternedName
    let propertiesInKeyOrder: [Property]
    let propertiesByName: [String: Property]
    /// The properties' names in key order, and "" after them: the key a snapshot object most
    /// likely holds next, after the property before it (as tripdoc writes them).
    let keysInKeyOrder: [String]
    /// What decoding and encoding each property's value needs, in key order, as values: the
    /// per-value loops read these rather than the `Property` objects, whose references every
    /// thread would count.
    let codingsInKeyOrder: [Coding]
    /// The layout of a snapshot holding every property, whose values are in key order as a
    /// record's: a record becomes a snapshot without copying its values. `nil` for an entity
    /// naming a property twice (a damaged schema).
    let snapshotLayout: SnapshotLayout?
    /// A new array of a `.null` per property, in key order: what a snapshot's values start as.
    ///
    /// Made element by element, not with `Array(repeating:count:)`: that initialiser is not
    /// specialised, and looked up the array type's metadata at run time for every snapshot. Nor
    /// as a copy of one shared row: the copy, made a snapshot's own at its first value, retained
    /// and released the shared row, whose count the decoding thread then fought over with the
    /// threads that use the plan.
    func makeNullValues() -> [SnapshotValue] {
        let count = propertiesInKeyOrder.count
        return [SnapshotValue](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { (buffer.baseAddress! + index).initialize(to: .null) }
            initialized = count
        }
    }
    /// Whether a key read as the one expected is the property at that place: not when a
    /// property is called `$id` (a schema that was not validated), whose key is the identifier's.
    let knowsKeysByPlace: Bool

    /// What coding one property's value needs (a value, so that the per-value loops count no
    /// references on shared objects).
    struct Coding: Sendable {
        let role: Role
        let type: AttributeType
        let isOptional: Bool
        let usesExternalStorage: Bool
        let destinationName: InternedName
    }

    init(_ entity: Schema.Entity) {
        self.entity = entity
        name = entity.name
        internedName = InternedName(entity.name)
        enum Declared { case attribute(Schema.Attribute), relationship(Schema.Relationship) }
        let declared = entity.attributes.map { (name: $0.name, property: Declared.attribute($0)) }
            + entity.relationships.map { (name: $0.name, property: Declared.relationship($0)) }
        propertiesInKeyOrder = declared.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.enumerated().map {
            switch $1.property {
            case .attribute(let attribute): Property(attribute: attribute, index: $0)
            case .relationship(let relationship): Property(relationship: relationship, index: $0)
            }
        }
        propertiesByName = Dictionary(propertiesInKeyOrder.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        keysInKeyOrder = propertiesInKeyOrder.map(\.name) + [""]
        knowsKeysByPlace = !propertiesInKeyOrder.contains { $0.name == Self.identifierKey }
        codingsInKeyOrder = propertiesInKeyOrder.map(\.coding)
        let names = propertiesInKeyOrder.map(\.name)
        snapshotLayout = propertiesByName.count == names.count ? SnapshotLayout.of(namesInOrder: names, isAnEntitys: true) : nil
    }

    /// Whether records of `other` hold their values in this plan's order.
    func hasTheLayout(of other: EntityCodingPlan) -> Bool {
        other === self
            || (other.name == name && other.propertiesInKeyOrder.count == propertiesInKeyOrder.count
                && zip(other.propertiesInKeyOrder, propertiesInKeyOrder).allSatisfy {
                    $0.name == $1.name && $0.role == $1.role
                })
    }
}
