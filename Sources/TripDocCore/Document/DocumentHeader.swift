import Foundation

/// What a document says about itself, ahead of its schema and snapshots.
public struct DocumentHeader: Hashable, Sendable {
    /// The family every tripdoc document declares, whatever its encoding.
    public static let documentFormat = "tripdoc"
    /// The version of the document model this library writes (see docs/FORMATS.md).
    public static let currentFormatVersion = 1

    /// Always ``documentFormat``; a reader refuses a document that says otherwise.
    public var format: String
    /// The version of the document model; a reader refuses versions newer than it knows.
    public var formatVersion: Int
    /// The store's identity; every persistent identifier in the document belongs to it.
    public var storeIdentifier: String
    /// The version of the schema the snapshots follow.
    public var schemaVersion: Schema.Version
    /// The program that wrote the document, such as `tripdoc 0.1.0`.
    public var generator: String
    /// For each entity, the primary key the next inserted model gets. Keys are never reused,
    /// even after a deletion, so a history change always names one model.
    public var nextPrimaryKeys: [String: Int64]
    /// Where the document came from, when `tripdoc convert` made it from another store keeping
    /// every model's primary key: the history token of the store it derives from, at the
    /// position that store had when the copy was made (transaction 0 when it had no history).
    /// A copy of a copy keeps the first store's token, so two documents with the same
    /// ``lineage`` number their models alike. `nil` for every other document (docs/FORMATS.md,
    /// 2.2).
    public var derivedFrom: DefaultHistoryToken?

    /// The store whose primary keys the document's models carry: the store it was derived from
    /// (``derivedFrom``), or its own. Two documents of one lineage name each model by the same
    /// primary key, whatever their store identifiers.
    public var lineage: String { derivedFrom?.storeIdentifier ?? storeIdentifier }

    /// What a copy of this document in the store `newStore`, every model keeping its primary
    /// key, derives from (its ``derivedFrom``): the store this document derives from, if it
    /// does, otherwise this store at its newest transaction (`history`'s, 0 when it has none);
    /// `nil` when that is `newStore` itself (a copy converted back into the store it came from).
    public func derivation(copyingTo newStore: String, history: DocumentHistory) -> DefaultHistoryToken? {
        let origin = derivedFrom ?? DefaultHistoryToken(
            storeIdentifier: storeIdentifier, transactionIdentifier: history.nextTransactionIdentifier - 1)
        return origin.storeIdentifier == newStore ? nil : origin
    }

    /// Creates a header.
    public init(
        format: String = DocumentHeader.documentFormat, formatVersion: Int = DocumentHeader.currentFormatVersion,
        storeIdentifier: String, schemaVersion: Schema.Version, generator: String = TripDocVersion.generator,
        nextPrimaryKeys: [String: Int64] = [:], derivedFrom: DefaultHistoryToken? = nil
    ) {
        self.derivedFrom = derivedFrom
        self.format = format
        self.formatVersion = formatVersion
        self.storeIdentifier = storeIdentifier
        self.schemaVersion = schemaVersion
        self.generator = generator
        self.nextPrimaryKeys = nextPrimaryKeys
    }
}

/// The library's version, as `--version` and document headers report it.
public enum TripDocVersion {
    /// The semantic version of this release.
    public static let string = "0.1.0"
    /// The generator name written into document headers.
    public static let generator = "tripdoc \(string)"
}
