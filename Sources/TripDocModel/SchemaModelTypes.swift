import Foundation
import TripDocCore

/// The model types each schema made from types was made of, so that a container opened with
/// that schema materialises the right classes. Versioned schemas nest same-named classes in
/// enums (`SchemaV1.Trip`, `SchemaV2.Trip`): all are the entity `Trip`, so the entity name
/// alone cannot say which class a container means.
enum SchemaModelTypes {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var typesBySchema: [Schema: [String: any PersistentModel.Type]] = [:]

    /// Remembers that `schema` was made from `types`.
    static func record(_ schema: Schema, types: [any PersistentModel.Type]) {
        var byName: [String: any PersistentModel.Type] = [:]
        for type in types { byName[ModelDescription.entityName(of: type)] = type }
        lock.withLock { typesBySchema[schema] = byName }
    }

    /// The types `schema` was made from, by entity name; for an entity of a schema not made
    /// from types, the type last described with its name.
    static func types(for schema: Schema) -> [String: any PersistentModel.Type] {
        let registered = ModelDescription.registeredTypes()
        guard let known = lock.withLock({ typesBySchema[schema] }) else { return registered }
        return registered.merging(known) { _, own in own }
    }
}
