import Foundation

/// What the shared coding needs to know of one entity, worked out once per document rather
/// than once per snapshot: each property's kind, and the order keys are written in.
struct EntityCodingPlan {
    /// The key a snapshot object holds its primary key under; no property may be called this.
    static let identifierKey = "$id"

    enum Kind {
        case attribute(AttributeType, Schema.Attribute)
        case toOne(destination: String)
        case toMany(destination: String)
    }

    struct Property {
        let name: String
        let kind: Kind
    }

    let entity: Schema.Entity
    let propertiesInKeyOrder: [Property]
    let propertiesByName: [String: Property]

    init(_ entity: Schema.Entity) {
        self.entity = entity
        var properties = entity.attributes.map { Property(name: $0.name, kind: .attribute($0.type, $0)) }
        properties += entity.relationships.map {
            Property(
                name: $0.name,
                kind: $0.isToMany ? .toMany(destination: $0.destination) : .toOne(destination: $0.destination))
        }
        propertiesInKeyOrder = properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        propertiesByName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }
}
