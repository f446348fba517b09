import Foundation

/// A save the store refused; the document is left as it was.
public enum SaveChangesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A snapshot names an entity the schema does not have.
    case unknownEntity(PersistentIdentifier)
    /// An update or delete names a model the store does not hold.
    case unknownIdentifier(PersistentIdentifier, operation: String)
    /// An insert names a model the store already holds, or the same model is inserted twice.
    case duplicateIdentifier(PersistentIdentifier)
    /// A snapshot has a property the entity does not declare.
    case unknownProperty(PersistentIdentifier, property: String)
    /// A value does not fit the property's type.
    case valueDoesNotFit(PersistentIdentifier, property: String, expected: String, found: String)
    /// A non-optional attribute has no value and no default.
    case missingValue(PersistentIdentifier, property: String)
    /// A relationship points at a model that does not exist or has the wrong entity.
    case danglingReference(PersistentIdentifier, property: String, target: PersistentIdentifier)
    /// An update would make two models equal on a uniqueness constraint.
    case uniquenessViolated(PersistentIdentifier, constraint: [String], existing: PersistentIdentifier)
    /// A `deny` delete rule stops the deletion.
    case deleteDenied(PersistentIdentifier, relationship: String, related: PersistentIdentifier)
    /// The entity's primary keys have reached the largest integer a document can hold.
    case primaryKeysExhausted(entity: String)
    /// A to-many relationship holds fewer models than its minimum or more than its maximum.
    case modelCountOutOfRange(PersistentIdentifier, relationship: String, count: Int, minimum: Int, maximum: Int)
    /// The document already has integrity problems; it must be repaired before it is changed.
    case documentHasProblems([IntegrityProblem])
    /// The document holds only some entities (``IndexedDocument/heldEntities``), and the save
    /// reads others (the names), or the whole document.
    case entitiesNotRead([String])

    public var description: String {
        switch self {
        case .unknownEntity(let id):
            "cannot save \(id): the schema has no entity '\(id.entityName)'"
        case .unknownIdentifier(let id, let operation):
            "cannot \(operation) \(id): the store has no such model (it may have been deleted; fetch again)"
        case .duplicateIdentifier(let id):
            "cannot insert \(id): the store already holds a model with this identifier (send it as an update)"
        case .unknownProperty(let id, let property):
            "cannot save \(id): '\(property)' is not a property of \(id.entityName)"
        case .valueDoesNotFit(let id, let property, let expected, let found):
            "cannot save \(id): \(property) expects \(expected), found \(found)"
        case .missingValue(let id, let property):
            "cannot save \(id): the non-optional attribute '\(property)' has no value"
        case .danglingReference(let id, let property, let target):
            "cannot save \(id): \(property) points at \(target), which the store does not hold"
        case .uniquenessViolated(let id, let constraint, let existing):
            "cannot save \(id): it has the same \(constraint.joined(separator: ", ")) as \(existing)"
        case .modelCountOutOfRange(let id, let relationship, let count, let minimum, let maximum):
            "cannot save \(id): its relationship '\(relationship)' holds \(count) models, but must hold "
                + (minimum > 0 && maximum > 0 ? "from \(minimum) to \(maximum)" : minimum > 0 ? "at least \(minimum)" : "at most \(maximum)")
        case .deleteDenied(let id, let relationship, let related):
            "cannot delete \(id): its relationship '\(relationship)' has the delete rule deny and still holds \(related)"
        case .primaryKeysExhausted(let entity):
            "cannot insert a \(entity): its primary keys have reached the largest a document holds; "
                + "convert the document with --renumber to make room"
        case .entitiesNotRead(let names):
            "cannot apply the save to a document holding only some entities: it reads "
                + (names.isEmpty ? "the whole document" : names.joined(separator: ", "))
                + "; read them first (ArchiveStore.readSnapshots(of:)), or read the whole document"
        case .documentHasProblems(let problems):
            "the document has \(problems.count) integrity problem(s) and cannot be changed until they are "
                + "repaired (run tripdoc inspect): " + problems.prefix(3).map(\.description).joined(separator: "; ")
        }
    }

    /// The error with each model identifier it names (not those in integrity problems, which
    /// name what a document held) replaced by `replace`'s: a caller that gave a save's models
    /// identifiers for the save and took them back names them as its program knows them.
    public func replacingIdentifiers(with replace: (PersistentIdentifier) -> PersistentIdentifier) -> SaveChangesError {
        switch self {
        case .unknownEntity(let id): .unknownEntity(replace(id))
        case .unknownIdentifier(let id, let operation): .unknownIdentifier(replace(id), operation: operation)
        case .duplicateIdentifier(let id): .duplicateIdentifier(replace(id))
        case .unknownProperty(let id, let property): .unknownProperty(replace(id), property: property)
        case .valueDoesNotFit(let id, let property, let expected, let found):
            .valueDoesNotFit(replace(id), property: property, expected: expected, found: found)
        case .missingValue(let id, let property): .missingValue(replace(id), property: property)
        case .danglingReference(let id, let property, let target):
            .danglingReference(replace(id), property: property, target: replace(target))
        case .uniquenessViolated(let id, let constraint, let existing):
            .uniquenessViolated(replace(id), constraint: constraint, existing: replace(existing))
        case .deleteDenied(let id, let relationship, let related):
            .deleteDenied(replace(id), relationship: relationship, related: replace(related))
        case .modelCountOutOfRange(let id, let relationship, let count, let minimum, let maximum):
            .modelCountOutOfRange(replace(id), relationship: relationship, count: count, minimum: minimum, maximum: maximum)
        case .primaryKeysExhausted, .documentHasProblems, .entitiesNotRead: self
        }
    }
}
