import Foundation

/// The identity of one persisted model: which store, which entity, which primary key.
///
/// Unlike SwiftData's opaque identifier, the parts are public. An identifier is *temporary*
/// while its model has been inserted but not yet saved; on save the store replaces it with a
/// permanent one and reports the pair in ``DataStoreSaveChangesResult/remappedIdentifiers``.
public struct PersistentIdentifier: Hashable, Sendable, Codable {
    // The store and entity names are kept once for the process (`InternedName`): copying an
    // identifier copies two numbers and the primary key (usually short enough to be inline).
    // Declared in this order so that the two numbers and the flag share the first 16 bytes: an
    // identifier takes 32 bytes, not 40 (in every table keyed by identifiers and every
    // reference, which a bulk insert holds several of per model).
    let entity: InternedName
    let store: InternedName?
    /// Whether the identifier was handed out for an unsaved model.
    public let isTemporary: Bool
    /// The primary key within the entity, unique per store.
    public let primaryKey: String

    /// The identifier of the store the model lives in; `nil` for a temporary identifier.
    public var storeIdentifier: String? { store?.text }
    /// The entity (model type) name, such as `Trip`.
    public var entityName: String { entity.text }

    /// Creates an identifier from its parts.
    ///
    /// Store identifiers and entity names are kept once for the life of the process, and compared
    /// as strings are (two Unicode spellings of one name are one name, read back in the spelling
    /// first met). The names a process meets are few — its stores and entities — so the memory
    /// they take is small, but it is not given back.
    public init(storeIdentifier: String?, entityName: String, primaryKey: String, isTemporary: Bool = false) {
        self.init(
            store: storeIdentifier.map(InternedName.init), entity: InternedName(entityName), primaryKey: primaryKey,
            isTemporary: isTemporary)
    }

    /// The identifier of the model `primaryKey` of the same entity and store, temporary when
    /// this one is: made without looking the names up again, for code that makes many.
    public func withPrimaryKey(_ primaryKey: String) -> PersistentIdentifier {
        PersistentIdentifier(store: store, entity: entity, primaryKey: primaryKey, isTemporary: isTemporary)
    }

    /// Creates an identifier from names already kept (what a reader does for every reference).
    init(store: InternedName?, entity: InternedName, primaryKey: String, isTemporary: Bool = false) {
        self.store = store
        self.entity = entity
        self.primaryKey = primaryKey
        self.isTemporary = isTemporary
    }

    /// The permanent identifier of the same entity with `primaryKey` in the store `store`.
    func moved(to store: InternedName, primaryKey: String) -> PersistentIdentifier {
        PersistentIdentifier(store: store, entity: entity, primaryKey: primaryKey)
    }

    /// Whether the identifier is of the store `store` and not temporary.
    func isPermanent(in store: InternedName) -> Bool { !isTemporary && self.store == store }

    /// Whether the identifier is of the entity `entity`.
    func isOf(_ entity: InternedName) -> Bool { self.entity == entity }

    private enum CodingKeys: String, CodingKey {
        case storeIdentifier, entityName, primaryKey, isTemporary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            storeIdentifier: try container.decodeIfPresent(String.self, forKey: .storeIdentifier),
            entityName: try container.decode(String.self, forKey: .entityName),
            primaryKey: try container.decode(String.self, forKey: .primaryKey),
            isTemporary: try container.decode(Bool.self, forKey: .isTemporary))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(entityName, forKey: .entityName)
        try container.encode(primaryKey, forKey: .primaryKey)
        try container.encode(isTemporary, forKey: .isTemporary)
    }

    /// A permanent identifier for a model in the store `storeIdentifier`, as a store mints it
    /// when it saves an inserted model (SwiftData's spelling).
    ///
    /// - Throws: ``PersistentIdentifierError`` when a part is empty.
    public static func identifier<PrimaryKey: CustomStringConvertible & Hashable & Sendable>(
        for storeIdentifier: String, entityName: String, primaryKey: PrimaryKey
    ) throws -> PersistentIdentifier {
        let key = primaryKey.description
        guard !storeIdentifier.isEmpty else { throw PersistentIdentifierError.emptyPart("store identifier") }
        guard !entityName.isEmpty else { throw PersistentIdentifierError.emptyPart("entity name") }
        guard !key.isEmpty else { throw PersistentIdentifierError.emptyPart("primary key") }
        return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: key)
    }

    /// Hashes the entity and primary key only: identifiers in one document share their store.
    /// Equality compares every part.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(primaryKey)
    }

    /// A temporary identifier for a model that has been inserted but not saved, written
    /// `Trip-t1` in messages like SwiftData's talk writes it.
    ///
    /// Without a `primaryKey`, the key is one no other call in this process is given: a short
    /// text (such as `k3f9q-1c`) made without allocating, since a bulk insert makes one per model.
    public static func temporary(entityName: String, primaryKey: String? = nil) -> PersistentIdentifier {
        PersistentIdentifier(
            storeIdentifier: nil, entityName: entityName, primaryKey: primaryKey ?? TemporaryKey.next(), isTemporary: true)
    }
}

extension PersistentIdentifier: CustomStringConvertible {
    /// `Trip/12`, or `Trip/t:<key>` for a temporary identifier.
    public var description: String {
        isTemporary ? "\(entityName)/t:\(primaryKey)" : "\(entityName)/\(primaryKey)"
    }
}

extension PersistentIdentifier: Comparable {
    /// Orders by entity name (in UTF-8 byte order), then by primary key with
    /// ``PrimaryKeyOrder``; the order documents list snapshots in.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        if lhs.entity != rhs.entity { return lhs.entityName.utf8.lexicographicallyPrecedes(rhs.entityName.utf8) }
        if lhs.primaryKey != rhs.primaryKey { return PrimaryKeyOrder.precedes(lhs.primaryKey, rhs.primaryKey) }
        if lhs.isTemporary != rhs.isTemporary { return !lhs.isTemporary }
        if lhs.store == rhs.store { return false }
        return (lhs.storeIdentifier ?? "").utf8.lexicographicallyPrecedes((rhs.storeIdentifier ?? "").utf8)
    }
}

/// The order of primary keys in a document: keys made only of ASCII digits (without leading
/// zeros) come first in numeric order, then every other key in the order of its UTF-8 bytes.
public enum PrimaryKeyOrder {
    /// Whether `lhs` is listed before `rhs`.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        precedes(lhs, canonicalNumber(lhs), rhs, canonicalNumber(rhs))
    }

    /// Whether `lhs` is listed before `rhs`, given their ``canonicalNumber(_:)``s (worked out
    /// once by a caller that compares each key with the next).
    public static func precedes(_ lhs: String, _ lhsNumber: Int64?, _ rhs: String, _ rhsNumber: Int64?) -> Bool {
        // The usual case, two numbers below 10^18: by value, which is the same order.
        if let lhsNumber, let rhsNumber { return lhsNumber < rhsNumber }
        let lhsNumeric = isCanonicalNumber(lhs)
        let rhsNumeric = isCanonicalNumber(rhs)
        if lhsNumeric != rhsNumeric { return lhsNumeric }
        if lhsNumeric, lhs.utf8.count != rhs.utf8.count { return lhs.utf8.count < rhs.utf8.count }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// The value of `key` when it is a decimal number in canonical form below 10^18, or `nil`.
    public static func canonicalNumber(_ key: String) -> Int64? {
        // Read in place: iterating `utf8` checked the string's representation at every byte
        // (3 % of a conversion's time, which asks this of every key and reference).
        key.withUTF8Bytes { bytes in
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            if bytes.count > 1, bytes[0] == UInt8(ascii: "0") { return nil }  // a leading zero
            var value: Int64 = 0
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
    }

    /// Whether `key` is a decimal number in canonical form (`0`, `17`, not `017` or `-1`).
    public static func isCanonicalNumber(_ key: String) -> Bool {
        var iterator = key.utf8.makeIterator()
        guard let first = iterator.next(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        if first == UInt8(ascii: "0") { return key.utf8.count == 1 }
        while let byte = iterator.next() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
        }
        return true
    }
}

/// Why an identifier could not be made.
public enum PersistentIdentifierError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A part of the identifier was empty.
    case emptyPart(String)

    public var description: String {
        switch self {
        case .emptyPart(let part): "a persistent identifier needs a non-empty \(part)"
        }
    }
}
