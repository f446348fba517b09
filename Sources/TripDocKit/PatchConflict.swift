import Foundation
import TripDoc

/// A change of a patch that does not hold in the document it is applied to.
public struct PatchConflict: Hashable, Sendable, CustomStringConvertible {
    /// What does not hold.
    public enum Kind: Hashable, Sendable {
        /// The property's value is not the old value the patch expects.
        case valueDiffers(expected: SnapshotValue, found: SnapshotValue)
        /// The object the patch changes or removes is not in the document.
        case objectMissing
        /// The document already holds an object with the key the patch adds.
        case objectExists
        /// The document already holds `existing` with the same values on `constraint`.
        case uniquenessCollision(constraint: [String], existing: PersistentIdentifier)
    }

    /// What the patch does to the object.
    public enum Operation: String, Hashable, Sendable {
        /// The patch adds the object.
        case add
        /// The patch removes the object.
        case remove
        /// The patch changes a property of the object.
        case change
    }

    /// The object, as the document names it (for an add, as the patch does).
    public var object: PersistentIdentifier
    /// The property, for a value that differs.
    public var property: String?
    /// What the patch does to it.
    public var operation: Operation
    /// What does not hold.
    public var kind: Kind

    /// Creates a conflict.
    public init(object: PersistentIdentifier, property: String? = nil, operation: Operation, kind: Kind) {
        self.object = object
        self.property = property
        self.operation = operation
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .valueDiffers(let expected, let found):
            "\(object) \(property ?? ""): the patch expects \(Self.render(expected)), the document has \(Self.render(found))"
        case .objectMissing:
            "\(object): the patch \(operation == .remove ? "removes" : "changes") it, but the document does not hold it"
        case .objectExists:
            "\(object): the patch adds it, but the document already holds an object with this key"
        case .uniquenessCollision(let constraint, let existing):
            "\(object): the patch adds it, but \(existing) already has the same \(constraint.joined(separator: ", "))"
        }
    }

    /// A value as messages show it: strings quoted, references by identifier.
    static func render(_ value: SnapshotValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .reference(let id): id.description
        case .references(let ids): "[" + ids.map(\.description).joined(separator: ", ") + "]"
        default: SnapshotTable.render(value)
        }
    }
}
