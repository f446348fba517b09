import Foundation
import TripDoc

/// Why a patch cannot be made, read or applied, and what to do instead.
public enum PatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The patch file is not a patch (bad JSON, a member missing or of the wrong kind).
    case malformed(path: String, detail: String)
    /// The documents' schemas differ: a patch carries content, not a migration.
    case schemasDiffer([String])
    /// One store's versions were compared by something else than their keys.
    case notMatchedByKey(entity: String, strategy: String)
    /// The document is not the store the patch applies to.
    case wrongStore(path: String, found: String, expected: String, reverse: Bool)
    /// The document's schema version is not the patch's.
    case wrongSchemaVersion(path: String, found: String, expected: String)
    /// The patch names an entity or property the document's schema lacks.
    case unknownProperty(path: String, entity: String, property: String?)
    /// A reference in the patch names a store that is neither side.
    case foreignReference(PersistentIdentifier)
    /// A change does not hold in the document (applied without `partial`).
    case stale(PatchConflict)
    /// The changed document was refused by the save engine (integrity, uniqueness, delete rules).
    case refused(SaveChangesError)

    public var description: String {
        switch self {
        case .malformed(let path, let detail):
            "\(path) is not a tripdoc patch: \(detail); write one with tripdoc diff A B --patch"
        case .schemasDiffer(let differences):
            "the documents' schemas differ (\(differences.prefix(3).joined(separator: "; "))): a patch carries "
                + "changes of content only; give both documents the same schema first"
        case .notMatchedByKey(let entity, let strategy):
            "the documents are one store, but \(entity) was matched by \(strategy): a patch between versions of "
                + "one store matches objects by key (leave out --match)"
        case .wrongStore(let path, let found, let expected, let reverse):
            "\(path) is store \(found), but the patch applies to store \(expected)"
                + (reverse ? " (with --reverse, to the document it was made from as B)" : " (the document it was made from as A)")
                + "; make a patch from this document with tripdoc diff"
        case .wrongSchemaVersion(let path, let found, let expected):
            "\(path) has schema version \(found), but the patch is for version \(expected)"
        case .unknownProperty(let path, let entity, let property):
            property.map { "the patch changes \(entity).\($0), which \(path)'s schema does not have" }
                ?? "the patch changes entity \(entity), which \(path)'s schema does not have"
        case .foreignReference(let id):
            "the patch refers to \(id) in store \(id.storeIdentifier ?? "(none)"), which is neither of its documents"
        case .stale(let conflict):
            "the patch does not apply: \(conflict) (the document changed since the patch was made; "
                + "--partial applies the rest)"
        case .refused(let error):
            "the patched document would break a rule, so nothing was written: \(error)"
        }
    }
}
