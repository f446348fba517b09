import Foundation
import TripDocCore

/// Why the typed model layer could not do what was asked, and what to do.
public enum ModelContextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A configuration reached its store without a schema.
    case noSchema(String)
    /// A save (or history deletion) in a store configured with `allowsSave: false`.
    case saveNotAllowed(String)
    /// A file whose extension names no format (`.sqlite`, `.db`, none) and whose bytes no
    /// format recognises (an SQLite store, say), or that is not a regular file.
    case unrecognizedDocument(URL)
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
    /// A model property whose type tripdoc cannot store.
    case unsupportedPropertyType(model: String, property: String, type: String)
    /// `@Attribute(.transformable(by: "NAME"))` with no transformer registered under the name.
    case noValueTransformer(model: String, property: String, name: String)
    /// A stored value that is not one of its property's type.
    case unreadableValue(PersistentIdentifier, property: String, reason: String)
    /// A `Codable` value whose `encode(to:)` threw.
    case unencodableValue(PersistentIdentifier, property: String, reason: String)
    /// A `#Unique` or `#Index` key path that names no persisted property.
    case keyPathNotPersisted(model: String, keyPath: String)
    /// A relationship declared with `let` (`let address: Address`, an `@Model` type), which
    /// the context cannot set.
    case relationshipDeclaredLet(model: String, property: String)

    public var description: String {
        switch self {
        case .noSchema(let name):
            "the configuration '\(name)' has no schema; create it through ModelContainer(for:configurations:), "
                + "which gives it the schema of the model types"
        case .saveNotAllowed(let name):
            "the store '\(name)' was configured with allowsSave: false; nothing was saved"
        case .unrecognizedDocument(let url):
            "\(url.path) is not a tripdoc document (neither JSON, a property list nor a zipped bundle, or not a "
                + "regular file), and its extension names no format; tripdoc cannot read it (a SwiftData store from "
                + "Apple platforms is an SQLite database): give the configuration another file, or name the format with "
                + "the extension .json, .plist or .tripbundle"
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
        case .unsupportedPropertyType(let model, let property, let type):
            "\(model).\(property) has type \(type), which tripdoc cannot store: use a type SwiftData stores "
                + "(String, Int, Double, Date, Data, UUID, URL, Decimal, Bool, a Codable struct or enum, arrays, "
                + "dictionaries and optionals of them, or a @Model class), or mark the property @Transient"
        case .noValueTransformer(let model, let property, let name):
            "\(model).\(property) is transformable by '\(name)', but no value transformer is registered under that name: "
                + "call ValueTransformer.setValueTransformer(_:forName:) before making the container, or name the type "
                + "(.transformable(by: \(name).self))"
        case .unreadableValue(let id, let property, let reason):
            "cannot read \(id).\(property): \(reason); correct the document or give the property an initial value"
        case .unencodableValue(let id, let property, let reason):
            "cannot save \(id).\(property): encoding its value failed: \(reason); nothing was saved"
        case .keyPathNotPersisted(let model, let keyPath):
            "\(model): the #Unique or #Index key path \(keyPath) names no persisted property; name stored properties only"
        case .relationshipDeclaredLet(let model, let property):
            "\(model).\(property) is a relationship declared with let: the context sets a relationship (a fetched "
                + "model's destinations, an inverse, a deleted destination), which a let cannot take; declare it var"
        }
    }
}
