import Foundation

/// The entities a store holds, with their attributes, relationships, uniqueness constraints and
/// indexes, and a version. Codable: every document carries its schema, so any document can be
/// read without compiled model types.
public struct Schema: Hashable, Sendable, Codable {
    /// The entities, in the order documents list them (by name).
    public private(set) var entities: [Entity] {
        didSet { entityPositions = NamePositions(entities.lazy.map(\.name)) }
    }
    /// The schema's version (`VersionedSchema.versionIdentifier` in SwiftData).
    public var version: Version
    /// Where each entity is in ``entities``, by name (made from them: no part of the schema's
    /// value, equality or coding).
    private var entityPositions: NamePositions

    /// Creates a schema; entities are kept sorted by name, in the byte order of their UTF-8.
    public init(_ entities: [Entity], version: Version = Version(1, 0, 0)) {
        self.entities = entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.version = version
        entityPositions = NamePositions(self.entities.lazy.map(\.name))
    }

    private enum CodingKeys: String, CodingKey {
        case entities, version
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entities = try container.decode([Entity].self, forKey: .entities)
        version = try container.decode(Version.self, forKey: .version)
        entityPositions = NamePositions(entities.lazy.map(\.name))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entities, forKey: .entities)
        try container.encode(version, forKey: .version)
    }

    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs.entities == rhs.entities && lhs.version == rhs.version
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entities)
        hasher.combine(version)
    }

    /// The entities keyed by name.
    public var entitiesByName: [String: Entity] {
        Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity called `name`, or `nil`.
    public func entity(named name: String) -> Entity? {
        entityPositions[name].map { entities[$0] }
    }

    /// Whether every entity of this schema is in `other`, exactly as defined here (the version
    /// aside): a store for this schema can then work in a document of `other`, leaving its
    /// other entities alone (an app extension's container naming some of the app's models).
    public func isPart(of other: Schema) -> Bool {
        let theirs = other.entitiesByName
        return entities.allSatisfy { theirs[$0.name] == $0 }
    }
}

extension Schema {
    /// One model type: its attributes, relationships, uniqueness constraints and indexes.
    public struct Entity: Hashable, Sendable, Codable {
        /// The entity's name, such as `Trip`.
        public var name: String
        /// The persisted attributes, in declaration order.
        public var attributes: [Attribute] {
            didSet { attributePositions = NamePositions(attributes.lazy.map(\.name)) }
        }
        /// The relationships, in declaration order.
        public var relationships: [Relationship] {
            didSet { relationshipPositions = NamePositions(relationships.lazy.map(\.name)) }
        }
        /// Sets of property names whose combined values are unique (`#Unique`); a save that
        /// inserts a duplicate updates the existing model instead (an upsert).
        public var uniquenessConstraints: [[String]]
        /// Property-name lists the store may index (`#Index`).
        public var indices: [[String]]
        /// The name the entity had in an earlier schema version, for migration: a lightweight
        /// migration renames the entity's models, references and history from it.
        public var originalName: String?
        /// Where each attribute and relationship is, by name (made from them: no part of the
        /// entity's value, equality or coding).
        private var attributePositions: NamePositions
        private var relationshipPositions: NamePositions

        /// Creates an entity.
        public init(
            name: String, attributes: [Attribute] = [], relationships: [Relationship] = [],
            uniquenessConstraints: [[String]] = [], indices: [[String]] = [], originalName: String? = nil
        ) {
            self.name = name
            self.attributes = attributes
            self.relationships = relationships
            self.uniquenessConstraints = uniquenessConstraints
            self.indices = indices
            self.originalName = originalName
            attributePositions = NamePositions(attributes.lazy.map(\.name))
            relationshipPositions = NamePositions(relationships.lazy.map(\.name))
        }

        private enum CodingKeys: String, CodingKey {
            case name, attributes, relationships, uniquenessConstraints, indices, originalName
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(String.self, forKey: .name),
                attributes: try container.decode([Attribute].self, forKey: .attributes),
                relationships: try container.decode([Relationship].self, forKey: .relationships),
                uniquenessConstraints: try container.decode([[String]].self, forKey: .uniquenessConstraints),
                indices: try container.decode([[String]].self, forKey: .indices),
                originalName: try container.decodeIfPresent(String.self, forKey: .originalName))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(attributes, forKey: .attributes)
            try container.encode(relationships, forKey: .relationships)
            try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
            try container.encode(indices, forKey: .indices)
            try container.encodeIfPresent(originalName, forKey: .originalName)
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
                && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
                && lhs.originalName == rhs.originalName
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(attributes)
            hasher.combine(relationships)
            hasher.combine(uniquenessConstraints)
            hasher.combine(indices)
            hasher.combine(originalName)
        }

        /// The attribute called `name`, or `nil`.
        public func attribute(named name: String) -> Attribute? { attributePositions[name].map { attributes[$0] } }
        /// The relationship called `name`, or `nil`.
        public func relationship(named name: String) -> Relationship? {
            relationshipPositions[name].map { relationships[$0] }
        }

        /// Every constraint on uniqueness: the declared ones and one per `.unique` attribute.
        public var effectiveUniquenessConstraints: [[String]] {
            uniquenessConstraints + attributes.filter(\.isUnique).map { [$0.name] }
        }

        /// The names of all properties, attributes first.
        public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }
        /// Whether the entity has an attribute or a relationship called `name`.
        public func hasProperty(named name: String) -> Bool {
            attributePositions[name] != nil || relationshipPositions[name] != nil
        }
    }

    /// A persisted value of an entity.
    public struct Attribute: Hashable, Sendable, Codable {
        /// The property name.
        public var name: String
        /// The value type.
        public var type: AttributeType
        /// Whether the value may be `nil`.
        public var isOptional: Bool
        /// Options such as ``Option/unique`` or ``Option/preserveValueOnDeletion``.
        public var options: [Option]
        /// The name the attribute had in an earlier schema version, for migration.
        public var originalName: String?
        /// The value a model gets when none is given, typed like the attribute.
        public var defaultValue: SnapshotValue?
        /// A string that changes the attribute's version hash without renaming it.
        public var hashModifier: String?

        /// Creates an attribute.
        public init(
            _ name: String, _ type: AttributeType, isOptional: Bool = false, options: [Option] = [],
            originalName: String? = nil, defaultValue: SnapshotValue? = nil, hashModifier: String? = nil
        ) {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.options = options
            self.originalName = originalName
            self.defaultValue = defaultValue
            self.hashModifier = hashModifier
        }

        /// Whether the attribute has the ``Option/unique`` option.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether a deletion's tombstone keeps this attribute's value.
        public var preservesValueOnDeletion: Bool { options.contains(.preserveValueOnDeletion) }
        /// Whether the value is stored apart from the snapshot where the format allows it.
        public var usesExternalStorage: Bool { options.contains(.externalStorage) }

        /// An attribute option (SwiftData's `Schema.Attribute.Option`).
        public struct Option: Hashable, Sendable, Codable, CustomStringConvertible {
            /// The option as documents spell it: `unique`, `transformable:NAME`, …
            public let rawValue: String

            /// Creates an option from its document spelling.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// The attribute's value is unique among the entity's models (`@Attribute(.unique)`).
            public static let unique = Option(rawValue: "unique")
            /// The value is kept in the tombstone of a deleted model's history (`.preserveValueOnDeletion`).
            public static let preserveValueOnDeletion = Option(rawValue: "preserveValueOnDeletion")
            /// SwiftData's `.externalStorage`: a `Data` value a bundle keeps as an entry of its own.
            public static let externalStorage = Option(rawValue: "externalStorage")
            /// SwiftData's `.ephemeral` (changes tracked, the value not meant to persist); kept in the schema.
            public static let ephemeral = Option(rawValue: "ephemeral")
            /// SwiftData's `.spotlight` (indexed for search on Apple platforms); kept in the schema, without effect here.
            public static let spotlight = Option(rawValue: "spotlight")
            /// SwiftData's `.allowsCloudEncryption` (encrypted when synced); kept in the schema, without effect here.
            public static let allowsCloudEncryption = Option(rawValue: "allowsCloudEncryption")
            /// Values go through the named value transformer; they are stored as `Data`.
            public static func transformable(by transformerName: String) -> Option {
                Option(rawValue: "transformable:\(transformerName)")
            }

            /// The options a document may name; `transformable:` takes any transformer name.
            public static let known: [Option] = [
                .unique, .preserveValueOnDeletion, .externalStorage, .ephemeral, .spotlight, .allowsCloudEncryption,
            ]

            /// Whether a document may carry this option.
            public var isKnown: Bool {
                Self.known.contains(self) || (rawValue.hasPrefix("transformable:") && rawValue.count > 14)
            }

            public var description: String { rawValue }

            public init(from decoder: any Decoder) throws {
                rawValue = try decoder.singleValueContainer().decode(String.self)
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(rawValue)
            }
        }
    }

    /// A link from one entity to another.
    public struct Relationship: Hashable, Sendable, Codable {
        /// The property name.
        public var name: String
        /// The destination entity's name.
        public var destination: String
        /// Whether the relationship holds many destinations (an array) or at most one.
        public var isToMany: Bool
        /// The name of the destination's relationship that points back, if any.
        public var inverseName: String?
        /// What happens to the destinations when the source is deleted.
        public var deleteRule: DeleteRule
        /// The least number of destinations (0: no minimum).
        public var minimumModelCount: Int
        /// The most destinations (0: no maximum).
        public var maximumModelCount: Int
        /// The name the relationship had in an earlier schema version, for migration.
        public var originalName: String?

        /// Creates a relationship.
        public init(
            _ name: String, destination: String, isToMany: Bool = false, inverse: String? = nil,
            deleteRule: DeleteRule = .nullify, minimumModelCount: Int = 0, maximumModelCount: Int = 0,
            originalName: String? = nil
        ) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.inverseName = inverse
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
        }

        /// Whether the relationship holds at most one destination (SwiftData's spelling).
        public var isToOneRelationship: Bool { !isToMany }

        /// What deleting the source does to the destinations.
        public enum DeleteRule: String, Hashable, Sendable, Codable, CaseIterable {
            /// The destinations stay; their inverse reference to the source is removed (the default).
            case nullify
            /// The destinations are deleted too.
            case cascade
            /// The source cannot be deleted while it has destinations.
            case deny
            /// Nothing is done; the destinations may be left pointing at a deleted model.
            case noAction
        }
    }

    /// A schema version, `major.minor.patch`.
    public struct Version: Hashable, Sendable, Comparable, Codable, LosslessStringConvertible {
        /// The major version: a change that old code cannot read.
        public var major: Int
        /// The minor version.
        public var minor: Int
        /// The patch version.
        public var patch: Int

        /// Creates a version.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Parses `1.2.3`; `nil` unless the text is three runs of ASCII digits (at most 9 each)
        /// joined by dots.
        public init?(_ description: String) {
            let parts = description.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3,
                parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 9 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
                let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2])
            else { return nil }
            self.init(major, minor, patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let version = Version(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected a version like 1.0.0, found '\(text)'")
            }
            self = version
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}
