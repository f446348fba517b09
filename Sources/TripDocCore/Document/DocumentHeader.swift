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

    /// Creates a header.
    public init(
        format: String = DocumentHeader.documentFormat, formatVersion: Int = DocumentHeader.currentFormatVersion,
        storeIdentifier: String, schemaVersion: Schema.Version, generator: String = TripDocVersion.generator,
        nextPrimaryKeys: [String: Int64] = [:]
    ) {
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
