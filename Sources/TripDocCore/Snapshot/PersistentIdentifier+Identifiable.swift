extension PersistentIdentifier: Identifiable {
    /// The identity of an identifier (SwiftData's `PersistentIdentifier.ID`), for code that keys
    /// or compares identifiers by it (`var id: PersistentIdentifier.ID { persistentModelID.id }`):
    /// equal exactly when the identifiers are.
    public struct ID: Hashable, Sendable, Codable {
        /// The identifier this is the identity of.
        public let persistentIdentifier: PersistentIdentifier

        /// The identity of `persistentIdentifier`.
        public init(_ persistentIdentifier: PersistentIdentifier) {
            self.persistentIdentifier = persistentIdentifier
        }

        /// Decodes what ``encode(to:)`` writes: the identifier itself.
        public init(from decoder: any Decoder) throws {
            persistentIdentifier = try PersistentIdentifier(from: decoder)
        }

        /// Encodes the identifier itself.
        public func encode(to encoder: any Encoder) throws {
            try persistentIdentifier.encode(to: encoder)
        }
    }

    /// The identifier's identity.
    public var id: ID { ID(self) }
}
