import Foundation
import TripDoc

/// Two lines of work that changed the same thing in ways a merge cannot combine.
public struct MergeConflict: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of conflict.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The same property of one object changed to two different values.
        case bothChanged = "changed-on-both-sides"
        /// An object changed on one side and deleted on the other.
        case changedAndDeleted = "changed-and-deleted"
        /// Objects added on the two sides have the same values on a uniqueness constraint.
        case uniquenessCollision = "uniqueness-collision"
        /// One side refers to an object the other side deleted.
        case referenceToDeleted = "reference-to-deleted"
    }

    /// The kind.
    public var kind: Kind
    /// The object in conflict (for a collision, the one theirs added; for a reference, the
    /// object that refers).
    public var object: PersistentIdentifier
    /// The property, when one is in conflict.
    public var property: String?
    /// What ours did, in words.
    public var ours: String
    /// What theirs did, in words.
    public var theirs: String
    /// The changes of ours a merge that keeps theirs leaves out.
    var oursItems: [DocumentPatch.Item] = []
    /// The changes of theirs a merge that keeps ours leaves out.
    var theirsItems: [DocumentPatch.Item] = []

    /// Creates a conflict.
    public init(kind: Kind, object: PersistentIdentifier, property: String? = nil, ours: String, theirs: String) {
        self.kind = kind
        self.object = object
        self.property = property
        self.ours = ours
        self.theirs = theirs
    }

    public var description: String {
        "\(kind.rawValue): \(object)\(property.map { " \($0)" } ?? ""): ours \(ours); theirs \(theirs)"
    }
}
