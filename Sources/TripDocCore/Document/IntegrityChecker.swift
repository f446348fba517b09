import Foundation

/// Finds what is wrong with a document's contents: duplicate identifiers, identifiers of another
/// store, values that do not fit the schema, dangling references, relationships whose inverse
/// disagrees, and models equal on a uniqueness constraint. Used by the store engine before it
/// changes a document and by `tripdoc inspect`.
public struct IntegrityChecker {
    /// Creates a checker.
    public init() {}

    /// Every problem in `document`, in document order.
    public func problems(in document: Document) -> [IntegrityProblem] {
        var problems: [IntegrityProblem] = []
        let entities = document.schema.entitiesByName
        var byIdentifier: [PersistentIdentifier: DefaultSnapshot] = [:]
        byIdentifier.reserveCapacity(document.snapshots.count)
        for snapshot in document.snapshots {
            let identifier = snapshot.persistentIdentifier
            if byIdentifier.updateValue(snapshot, forKey: identifier) != nil {
                problems.append(.init(kind: .duplicateIdentifier, identifier: identifier, message: "appears more than once"))
            }
            if identifier.storeIdentifier != document.storeIdentifier || identifier.isTemporary {
                problems.append(
                    .init(
                        kind: .foreignIdentifier, identifier: identifier,
                        message: "belongs to store \(identifier.storeIdentifier ?? "(temporary)"), "
                            + "not to this document's store \(document.storeIdentifier)"))
            }
        }
        var uniqueKeys: [String: [[String]: [[SnapshotValue]: PersistentIdentifier]]] = [:]
        for snapshot in document.snapshots {
            let identifier = snapshot.persistentIdentifier
            guard let entity = entities[identifier.entityName] else {
                problems.append(
                    .init(kind: .unknownEntity, identifier: identifier, message: "the schema has no entity '\(identifier.entityName)'"))
                continue
            }
            let known = Set(entity.propertyNames)
            for name in snapshot.values.keys.sorted() where !known.contains(name) {
                problems.append(
                    .init(kind: .unknownProperty, identifier: identifier, property: name, message: "is not a property of \(entity.name)"))
            }
            for attribute in entity.attributes {
                let value = snapshot.values[attribute.name] ?? .null
                if value == .null {
                    if !attribute.isOptional {
                        problems.append(
                            .init(
                                kind: .valueDoesNotFitSchema, identifier: identifier, property: attribute.name,
                                message: "is nil but the attribute is not optional"))
                    }
                } else if !value.fits(attribute.type) {
                    problems.append(
                        .init(
                            kind: .valueDoesNotFitSchema, identifier: identifier, property: attribute.name,
                            message: "holds \(value.kindDescription), expected \(attribute.type.name)"))
                }
            }
            for relationship in entity.relationships {
                let value = snapshot.values[relationship.name] ?? .null
                for target in value.referencedIdentifiers {
                    guard let related = byIdentifier[target], target.entityName == relationship.destination else {
                        problems.append(
                            .init(
                                kind: .danglingReference, identifier: identifier, property: relationship.name,
                                message: "points at \(target), which the document does not hold"))
                        continue
                    }
                    if let inverse = relationship.inverseName,
                        !(related.values[inverse] ?? .null).referencedIdentifiers.contains(identifier)
                    {
                        problems.append(
                            .init(
                                kind: .inverseMismatch, identifier: identifier, property: relationship.name,
                                message: "points at \(target), whose \(inverse) does not point back"))
                    }
                }
            }
            for constraint in entity.effectiveUniquenessConstraints {
                var key: [SnapshotValue] = []
                for name in constraint {
                    guard let value = snapshot.values[name], value != .null else { break }
                    key.append(value)
                }
                guard key.count == constraint.count else { continue }
                if let other = uniqueKeys[entity.name, default: [:]][constraint, default: [:]][key] {
                    problems.append(
                        .init(
                            kind: .uniquenessViolated, identifier: identifier,
                            message: "has the same \(constraint.joined(separator: ", ")) as \(other)"))
                } else {
                    uniqueKeys[entity.name, default: [:]][constraint, default: [:]][key] = identifier
                }
            }
        }
        return problems
    }
}
