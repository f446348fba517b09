import Foundation

/// The sink that reads a whole document straight into an ``IndexedDocument``, entity by entity,
/// without a ``Document`` in between: each entity is indexed as soon as its snapshots are read,
/// while the history, taken late, is read on the other core where the format allows it. What an
/// ``ArchiveStore`` reads for a save.
struct IndexedDocumentCollector: DocumentDecodingSink {
    /// Whether attribute indexes are made (see ``IndexedDocument/init(_:indexingAttributes:)``).
    let indexingAttributes: Bool
    private var document: IndexedDocument?
    private var snapshots: [DefaultSnapshot] = []
    private var listsAnIdentifierTwice = false

    init(indexingAttributes: Bool) {
        self.indexingAttributes = indexingAttributes
    }

    /// The document; `nil` when it lists an identifier twice (read it as a ``Document``, which
    /// keeps both and names the problem).
    var indexedDocument: IndexedDocument? { listsAnIdentifierTwice ? nil : document }

    var acceptsLateHistory: Bool { true }

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        document = IndexedDocument(
            reading: header, schema: schema, history: history ?? DocumentHistory(), indexingAttributes: indexingAttributes)
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws { snapshots = [] }

    mutating func add(_ snapshot: DefaultSnapshot) throws { snapshots.append(snapshot) }

    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
        if !document!.take(snapshots, of: entity) { listsAnIdentifierTwice = true }
        snapshots = []
    }

    mutating func lateHistory(_ history: DocumentHistory) throws {
        document!.history = history
    }
}
