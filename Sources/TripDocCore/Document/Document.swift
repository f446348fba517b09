import Foundation

/// The in-memory form of every tripdoc document, whatever its format: a header, the schema and
/// the snapshots. Formats only read and write this; the store engine and the tools work on it.
public struct Document: Hashable, Sendable {
    /// What the document says about itself.
    public var header: DocumentHeader
    /// The entities the snapshots follow.
    public var schema: Schema
    /// The snapshots, as the document lists them (by entity, then primary key, when written by
    /// tripdoc). A document read from a file may hold duplicates; ``IntegrityChecker`` finds them.
    public var snapshots: [DefaultSnapshot]
    /// Every save's transaction, oldest first.
    public var history: DocumentHistory

    /// Creates a document.
    public init(
        header: DocumentHeader, schema: Schema, snapshots: [DefaultSnapshot] = [], history: DocumentHistory = DocumentHistory()
    ) {
        self.header = header
        self.schema = schema
        self.snapshots = snapshots
        self.history = history
    }

    /// An empty document for `schema` with a new store identifier.
    public static func empty(schema: Schema, storeIdentifier: String = UUID().uuidString) -> Document {
        Document(
            header: DocumentHeader(storeIdentifier: storeIdentifier, schemaVersion: schema.version),
            schema: schema)
    }

    /// The store identifier, from the header.
    public var storeIdentifier: String { header.storeIdentifier }

    /// The number of snapshots of each entity in the schema (0 for an entity without any).
    public var countsByEntity: [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, 0) })
        for snapshot in snapshots { counts[snapshot.entityName, default: 0] += 1 }
        return counts
    }

    /// The snapshots in the order documents are written in: by entity name, then primary key.
    /// Documents read from files are usually in this order already; that costs one pass.
    public var orderedSnapshots: [DefaultSnapshot] { Self.ordered(snapshots) }

    /// `snapshots` sorted by identifier, without sorting when they already are.
    public static func ordered(_ snapshots: [DefaultSnapshot]) -> [DefaultSnapshot] {
        snapshots.sortedUnlessInOrder { $0.persistentIdentifier < $1.persistentIdentifier }
    }

    /// The snapshots of `entityName`, in document order.
    public func snapshots(of entityName: String) -> [DefaultSnapshot] {
        snapshots.filter { $0.entityName == entityName }
    }

    /// A permanent identifier in this document's store.
    public func identifier(entityName: String, primaryKey: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: primaryKey)
    }
}
