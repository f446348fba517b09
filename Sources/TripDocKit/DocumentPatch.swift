import Foundation
import TripDoc

/// What turns one document into another, object by object: per entity, the objects added (all
/// their values), removed (with the values they had, so that applying it to a document that
/// changed since is noticed) and changed (each property's old and new value), plus the two
/// documents' store identifiers and schema versions. Made from a ``DocumentDiff`` (or two
/// documents), applied with `apply(to:options:)`; its `Codable` form is the patch file of
/// docs/FORMATS.md §10.
///
/// Objects and references are named as the diff names them: an identifier of A's store names an
/// object of A (one the patch removes, when the stores differ), one of B's store an object of B
/// (added, or matched with one of A: `keys` gives A's key where it differs). When A and B are
/// one store the objects were matched by key, so a key names the same object on both sides.
public struct DocumentPatch: Codable, Hashable, Sendable {
    /// The value of `format` in every patch.
    public static let formatName = "tripdoc-patch"
    /// The version of the patch format this tripdoc writes and reads.
    public static let currentVersion = 1

    /// One of the two documents.
    public struct Side: Codable, Hashable, Sendable {
        /// The document's store identifier.
        public var storeIdentifier: String
        /// The version of the document's schema, as `1.0.0`.
        public var schemaVersion: String

        /// Creates a side.
        public init(storeIdentifier: String, schemaVersion: String) {
            self.storeIdentifier = storeIdentifier
            self.schemaVersion = schemaVersion
        }
    }

    /// An object added or removed: its primary key (in B's store for added, A's for removed)
    /// and its values (nil values left out).
    public struct Object: Codable, Hashable, Sendable {
        /// The primary key.
        public var key: String
        /// Every property with a value.
        public var values: [String: SnapshotValue]

        /// Creates an object.
        public init(key: String, values: [String: SnapshotValue]) {
            self.key = key
            self.values = values
        }
    }

    /// A property's value before and after.
    public struct PropertyChange: Codable, Hashable, Sendable {
        /// The value in A (`null` for nil).
        public var old: SnapshotValue
        /// The value in B (`null` for nil).
        public var new: SnapshotValue

        /// Creates a change.
        public init(old: SnapshotValue, new: SnapshotValue) {
            self.old = old
            self.new = new
        }
    }

    /// An object both documents hold whose values differ.
    public struct ChangedObject: Codable, Hashable, Sendable {
        /// Its primary key in A.
        public var a: String
        /// Its primary key in B.
        public var b: String
        /// The changed properties; a relationship of an inverse pair is told on one side
        /// (the to-one side), as by ``DocumentDiff``.
        public var properties: [String: PropertyChange]

        /// Creates a changed object.
        public init(a: String, b: String, properties: [String: PropertyChange]) {
            self.a = a
            self.b = b
            self.properties = properties
        }
    }

    /// The changes of one entity.
    public struct EntityChanges: Codable, Hashable, Sendable {
        /// Objects only B holds, in B's key order.
        public var added: [Object]
        /// Objects only A holds, in A's key order.
        public var removed: [Object]
        /// Objects whose values differ, in B's key order.
        public var changed: [ChangedObject]
        /// B's key → A's key of matched objects the patch refers to whose keys differ.
        public var keys: [String: String]

        /// Creates the changes of an entity.
        public init(added: [Object] = [], removed: [Object] = [], changed: [ChangedObject] = [], keys: [String: String] = [:]) {
            self.added = added
            self.removed = removed
            self.changed = changed
            self.keys = keys
        }

        /// Whether nothing changes.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    /// Always ``formatName``.
    public var format: String
    /// The format's version, ``currentVersion``.
    public var version: Int
    /// The document the patch applies to.
    public var a: Side
    /// The document applying it gives.
    public var b: Side
    /// The changes, per entity with any.
    public var entities: [String: EntityChanges]

    /// A patch from `a` to `b`, empty of changes.
    public init(a: Side, b: Side, entities: [String: EntityChanges] = [:]) {
        format = Self.formatName
        version = Self.currentVersion
        self.a = a
        self.b = b
        self.entities = entities
    }

    /// Whether applying the patch changes nothing.
    public var isEmpty: Bool { entities.values.allSatisfy(\.isEmpty) }

    /// The number of objects added, removed and changed.
    public var summary: (added: Int, removed: Int, changed: Int) {
        entities.values.reduce((0, 0, 0)) { ($0.0 + $1.added.count, $0.1 + $1.removed.count, $0.2 + $1.changed.count) }
    }

    /// The patch that turns `diff`'s A into its B.
    ///
    /// - Parameters:
    ///   - diff: A diff of whole documents (no `entity`, `ignoring` or condition).
    ///   - schemaVersionA: The version of A's schema.
    ///   - schemaVersionB: The version of B's schema.
    /// - Throws: ``PatchError/schemasDiffer(_:)`` when the schemas differ (a patch carries
    ///   content, not a migration); ``PatchError/notMatchedByKey(entity:strategy:)`` when the
    ///   documents are one store whose objects were not matched by key.
    public init(_ diff: DocumentDiff, schemaVersionA: Schema.Version, schemaVersionB: Schema.Version) throws {
        guard diff.schemaDifferences.isEmpty else { throw PatchError.schemasDiffer(diff.schemaDifferences) }
        let sameStore = diff.a.storeIdentifier == diff.b.storeIdentifier
        if sameStore, let other = diff.entities.first(where: { $0.strategy != .key }) {
            throw PatchError.notMatchedByKey(entity: other.entity, strategy: other.strategy.rawValue)
        }
        self.init(
            a: Side(storeIdentifier: diff.a.storeIdentifier, schemaVersion: schemaVersionA.description),
            b: Side(storeIdentifier: diff.b.storeIdentifier, schemaVersion: schemaVersionB.description))
        func present(_ values: [String: SnapshotValue]) -> [String: SnapshotValue] { values.filter { $0.value != .null } }
        // B's keys the patch refers to, per entity, to look up in the matches.
        var referenced: [String: Set<String>] = [:]
        func note(_ value: SnapshotValue) {
            for target in value.referencedIdentifiers where !sameStore && target.storeIdentifier == diff.b.storeIdentifier {
                referenced[target.entityName, default: []].insert(target.primaryKey)
            }
        }
        for differences in diff.entities where !differences.isEmpty {
            var changes = EntityChanges()
            changes.added = differences.added.map { snapshot in
                snapshot.slots.forEach(note)
                return Object(key: snapshot.persistentIdentifier.primaryKey, values: present(snapshot.values))
            }
            changes.removed = differences.removedInTermsOfB.map { snapshot in
                snapshot.slots.forEach(note)
                return Object(key: snapshot.persistentIdentifier.primaryKey, values: present(snapshot.values))
            }
            changes.changed = differences.changed.map { object in
                var properties: [String: PropertyChange] = [:]
                for change in object.attributes + object.relationships {
                    note(change.old)
                    note(change.new)
                    properties[change.property] = PropertyChange(old: change.old, new: change.new)
                }
                return ChangedObject(a: object.a.primaryKey, b: object.b.primaryKey, properties: properties)
            }
            entities[differences.entity] = changes
        }
        for (entity, keys) in referenced {
            let differing = diff.differingKeys[entity] ?? [:]
            for key in keys {
                guard let inA = differing[key] else { continue }
                entities[entity, default: EntityChanges()].keys[key] = inA
            }
        }
    }

    /// The patch that turns `a` (read from `pathA`) into `b` (read from `pathB`), objects
    /// matched as ``DocumentDiff`` matches them.
    ///
    /// - Throws: As ``init(_:schemaVersionA:schemaVersionB:)`` and ``DocumentDiff``'s initialiser.
    public init(
        from a: DocumentRecords, at pathA: String, to b: DocumentRecords, at pathB: String,
        match: DocumentDiff.MatchStrategy = .auto, remapTable: RemapTable? = nil
    ) throws {
        let diff = try DocumentDiff(a, at: pathA, b, at: pathB, match: match, remapTable: remapTable)
        try self.init(diff, schemaVersionA: a.schema.version, schemaVersionB: b.schema.version)
    }

    /// The patch that undoes this one: applied to B, it gives A.
    public var reversed: DocumentPatch {
        var result = DocumentPatch(a: b, b: a)
        for (entity, changes) in entities {
            var keys: [String: String] = [:]
            for (inB, inA) in changes.keys { keys[inA] = inB }
            result.entities[entity] = EntityChanges(
                added: changes.removed, removed: changes.added,
                changed: changes.changed.map { object in
                    ChangedObject(
                        a: object.b, b: object.a,
                        properties: object.properties.mapValues { PropertyChange(old: $0.new, new: $0.old) })
                }, keys: keys)
        }
        return result
    }

    // MARK: Coding

    private enum CodingKeys: String, CodingKey {
        case format, version, a, b, entities
    }

    /// Reads a patch, refusing another format or a version this tripdoc does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        guard format == Self.formatName else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container, debugDescription: "expected \"\(Self.formatName)\", found \"\(format)\"")
        }
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "this tripdoc reads patches of version \(Self.currentVersion), not \(version)")
        }
        a = try container.decode(Side.self, forKey: .a)
        b = try container.decode(Side.self, forKey: .b)
        entities = try container.decode([String: EntityChanges].self, forKey: .entities)
    }

    /// The patch as JSON: members in byte order of their names, two-space indentation, so the
    /// same patch always gives the same bytes.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a patch file's bytes (from `path`, named in errors).
    ///
    /// - Throws: ``PatchError/malformed(path:detail:)``.
    public static func read(_ data: Data, path: String) throws -> DocumentPatch {
        do {
            return try JSONDecoder().decode(DocumentPatch.self, from: data)
        } catch let error as DecodingError {
            throw PatchError.malformed(path: path, detail: error.placedDescription(in: data))
        } catch {
            throw PatchError.malformed(path: path, detail: "\(error)")
        }
    }

    /// Reads the patch file at `path` (standard input for `-`).
    ///
    /// - Throws: `FileReadError` or ``PatchError/malformed(path:detail:)``.
    public static func read(_ path: String, limits: DocumentLimits = .standard) throws -> DocumentPatch {
        try read(DocumentFileReader.contents(of: path, limits: limits, mapped: false), path: path)
    }
}
