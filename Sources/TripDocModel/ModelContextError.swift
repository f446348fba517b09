import Foundation
import TripDocCore

/// Why the typed model layer could not do what was asked, and what to do.
public enum ModelContextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A configuration reached its store without a schema.
    case noSchema(String)
    /// A save (or history deletion) in a store configured with `allowsSave: false`.
    case saveNotAllowed(String)
    /// A document URL whose extension names no format.
    case unknownExtension(URL)
    /// A history change of an entity no model type describes.
    case unknownEntity(String)
    /// A history deletion that would leave older transactions behind.
    case historyDeletionNotOldest
    /// No configuration of the container holds this entity.
    case noStore(String)
    /// A store exchanges snapshots of a type the context cannot read.
    case unsupportedSnapshotType(String)
    /// An identifier no store holds.
    case modelNotFound(PersistentIdentifier)

    public var description: String {
        switch self {
        case .noSchema(let name):
            "the configuration '\(name)' has no schema; create it through ModelContainer(for:configurations:), "
                + "which gives it the schema of the model types"
        case .saveNotAllowed(let name):
            "the store '\(name)' was configured with allowsSave: false; nothing was saved"
        case .unknownExtension(let url):
            "cannot choose a store for \(url.path): the extension should be .json, .plist or .tripbundle, "
                + "or use JSONStoreConfiguration, PlistStoreConfiguration or BundleStoreConfiguration"
        case .unknownEntity(let name):
            "the history holds changes of '\(name)', which none of the container's model types is"
        case .historyDeletionNotOldest:
            "history can only be deleted from its oldest transaction on: select the transactions up to a token "
                + "(#Predicate { $0.token <= token })"
        case .noStore(let name):
            "no configuration of the container holds the entity '\(name)'"
        case .unsupportedSnapshotType(let type):
            "the store exchanges snapshots of type \(type); a ModelContext works with DefaultSnapshot"
        case .modelNotFound(let id):
            "no store holds the model \(id)"
        }
    }
}
