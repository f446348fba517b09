import Foundation

extension IndexedDocument {
    /// The entities a save of `request` reads that the document does not hold (none for a
    /// whole document), or `nil` when the save needs the whole document.
    ///
    /// A save reads the entities of the models it names, with their uniqueness indexes; the
    /// destinations of an insert's relationships (their inverses gain it); the destinations of
    /// the relationships an update changes (their inverses follow it; an update's unchanged
    /// references were checked by the save that made them); and, for a delete, the
    /// destinations of every relationship, through cascades (delete rules follow them). An
    /// update's changes are known once its entity is held, so a caller reads what this names
    /// and asks again until nothing is missing.
    ///
    /// The whole document is needed when an insert's entity has no key sequence in the header
    /// (minting then looks at every key the document and its history used), or when an entity
    /// held lists an identifier twice (the whole read names the problem, and the save refuses it).
    public func entitiesMissing(toSave request: borrowing DataStoreSaveChangesRequest<DefaultSnapshot>) -> Set<String>? {
        guard let heldEntities else { return [] }
        guard entitiesListingAnIdentifierTwice.isEmpty else { return nil }
        let entities = schema.entitiesByName
        var needed: Set<String> = []
        func needsReferences(in value: SnapshotValue?) {
            for target in value?.referencedIdentifiers ?? [] { needed.insert(target.entityName) }
        }
        for snapshot in request.inserted {
            let entityName = snapshot.persistentIdentifier.entityName
            // An entity the schema lacks: the save refuses the insert.
            guard let entity = entities[entityName] else { continue }
            guard header.nextPrimaryKeys[entityName] != nil else { return nil }
            needed.insert(entityName)
            for relationship in entity.relationships {
                needed.insert(relationship.destination)
                needsReferences(in: snapshot[relationship.name])
            }
        }
        for snapshot in request.updated {
            let identifier = snapshot.persistentIdentifier
            guard let entity = entities[identifier.entityName] else { continue }
            needed.insert(entity.name)
            guard heldEntities.contains(entity.name) else { continue }
            let previous = byIdentifier[identifier]
            for relationship in entity.relationships {
                let value = snapshot[relationship.name] ?? .null
                guard previous == nil || value != previous!.values[relationship.name] ?? .null else { continue }
                needed.insert(relationship.destination)
                needsReferences(in: value)
                needsReferences(in: previous?[relationship.name])
            }
        }
        var deleting = request.deleted.map(\.persistentIdentifier.entityName)
        var followed: Set<String> = []
        while let entityName = deleting.popLast() {
            guard followed.insert(entityName).inserted, let entity = entities[entityName] else { continue }
            needed.insert(entityName)
            for relationship in entity.relationships {
                needed.insert(relationship.destination)
                if relationship.deleteRule == .cascade { deleting.append(relationship.destination) }
            }
        }
        return needed.filter { entities[$0] != nil && !heldEntities.contains($0) }
    }
}
