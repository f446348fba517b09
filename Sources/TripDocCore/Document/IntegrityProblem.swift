import Foundation

/// One thing wrong with a document's contents that its syntax cannot show.
public struct IntegrityProblem: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of problem ``IntegrityChecker`` finds.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Two snapshots have the same identifier.
        case duplicateIdentifier
        /// A snapshot's identifier belongs to another store.
        case foreignIdentifier
        /// A snapshot's entity is not in the schema.
        case unknownEntity
        /// A snapshot has a property its entity does not declare.
        case unknownProperty
        /// A value does not fit its attribute's type, or a non-optional attribute is `nil`.
        case valueDoesNotFitSchema
        /// A relationship points at a model the document does not hold.
        case danglingReference
        /// A relationship and its inverse disagree.
        case inverseMismatch
        /// Two models are equal on a uniqueness constraint.
        case uniquenessViolated
    }

    /// What kind of problem.
    public var kind: Kind
    /// The snapshot with the problem.
    public var identifier: PersistentIdentifier
    /// The property involved, if one is.
    public var property: String?
    /// A sentence saying what is wrong.
    public var message: String

    /// Creates a problem.
    public init(kind: Kind, identifier: PersistentIdentifier, property: String? = nil, message: String) {
        self.kind = kind
        self.identifier = identifier
        self.property = property
        self.message = message
    }

    /// `Trip/3.bucketList: points at BucketListItem/99, which the document does not hold`
    public var description: String {
        "\(identifier)\(property.map { "." + $0 } ?? ""): \(message)"
    }
}
