import Foundation

/// The sink that reads a document straight into an ``IndexedDocument``, entity by entity,
/// without a ``Document`` in between: each entity is indexed as soon as its snapshots are read.
/// What an ``ArchiveStore`` reads:
/// - for a save, the whole document (``init(indexingAttributes:)``), the history taken late so
///   that a reader may decode it on the other core;
/// - for a fetch, some entities (``init(entities:into:readingHistoryPosition:)``), into a
///   document holding only some entities (``IndexedDocument/heldEntities``): the history is not
///   wanted, and with no entity wanted the read stops once the header and schema are known
///   (``HeaderRead``);
/// - for a save appended to the journal, some entities and where the history stands
///   (``DocumentDecodingSink/wantsHistoryPositionOnly``); a read of some entities takes where
///   the history stands whenever the format knows it without reading the history
///   (``DocumentDecodingSink/takesHistoryPositionWhenKnown``), so that the first such save
///   after opening a bundle that records it reads no history.
struct IndexedDocumentCollector: DocumentDecodingSink {
    /// Stops a read that wants the header and schema only.
    struct HeaderRead: Error {}

    /// The entities read, when only some are; `nil` for the whole document.
    private let wanted: Set<String>?
    private let indexingAttributes: Bool
    /// Whether a read of some entities also reads where the history stands.
    private let readsHistoryPosition: Bool
    private var document: IndexedDocument?
    private var snapshots: [DefaultSnapshot] = []
    private var listsAnIdentifierTwice = false

    /// A collector of the whole document.
    init(indexingAttributes: Bool) {
        wanted = nil
        self.indexingAttributes = indexingAttributes
        readsHistoryPosition = false
    }

    /// A collector of the snapshots of `entities` (none: the header and schema only), into
    /// `document` (which holds some entities of the same file), or into a new document holding
    /// only some entities; with `readingHistoryPosition`, also of where the history stands
    /// (``IndexedDocument/takeHistoryPosition(_:)``).
    init(entities: Set<String>, into document: consuming IndexedDocument?, readingHistoryPosition: Bool = false) {
        wanted = entities
        indexingAttributes = true
        readsHistoryPosition = readingHistoryPosition
        self.document = document
    }

    /// The document: holding every wanted entity when only some are read (those the file lists
    /// no snapshots of, and names of no entity of its schema, hold none); `nil` for a whole
    /// document that lists an identifier twice (read it as a ``Document``, which keeps both and
    /// names the problem).
    mutating func finished() -> IndexedDocument? {
        guard let wanted else { return listsAnIdentifierTwice ? nil : document }
        for name in wanted where !(document!.heldEntities?.contains(name) ?? true) { document!.holdNone(of: name) }
        // A document without a history section has none.
        if readsHistoryPosition, !document!.knowsHistoryPosition { document!.takeHistoryPosition(DocumentHistory()) }
        return document
    }

    var wantsHistory: Bool { wanted == nil || readsHistoryPosition }

    var wantsHistoryPositionOnly: Bool { wanted != nil }

    var takesHistoryPositionWhenKnown: Bool { wanted != nil }

    var acceptsLateHistory: Bool { wanted == nil }

    func wantsSnapshots(of entity: Schema.Entity) -> Bool { wanted?.contains(entity.name) ?? true }

    mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
        if document == nil {
            document =
                wanted == nil
                ? IndexedDocument(
                    reading: header, schema: schema, history: history ?? DocumentHistory(), indexingAttributes: indexingAttributes)
                : IndexedDocument(partOf: header, schema: schema, indexingAttributes: indexingAttributes)
        }
        // Where the history stands, when it was asked for or the format knew it without
        // reading the history (a bundle's manifest); a document that knows it already keeps
        // its own (with the transactions of the saves since).
        if wanted != nil, let history, readsHistoryPosition || !document!.knowsHistoryPosition {
            document!.takeHistoryPosition(history)
        }
        // With no entity wanted, the read ends here unless the history's position is still to come.
        if wanted?.isEmpty ?? false, !readsHistoryPosition || document!.knowsHistoryPosition { throw HeaderRead() }
    }

    mutating func beginEntity(_ entity: Schema.Entity) throws { snapshots = [] }

    mutating func add(_ snapshot: DefaultSnapshot) throws { snapshots.append(snapshot) }

    mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
        if wanted != nil {
            document!.hold(snapshots, of: entity)
        } else if !document!.take(snapshots, of: entity) {
            listsAnIdentifierTwice = true
        }
        snapshots = []
    }

    mutating func lateHistory(_ history: DocumentHistory) throws {
        if wanted == nil {
            document!.history = history
        } else if readsHistoryPosition {
            document!.takeHistoryPosition(history)
        }
    }
}
