import Foundation

/// One difference between two schemas, as a migration sees it: which entity and property, what
/// changed, and whether a lightweight migration can make it on its own.
public struct SchemaChange: Hashable, Sendable, CustomStringConvertible {
    /// What changed.
    public enum Kind: Hashable, Sendable {
        /// A new entity; it starts with no models.
        case entityAdded
        /// An entity is gone; its models, the references to them and their history go with it.
        case entityRemoved
        /// The entity was called `from` (its `originalName`).
        case entityRenamed(from: String)
        /// An entity was removed and one with the same properties added, without an
        /// `originalName` saying it is the same: not inferable.
        case entityRenamedWithoutOriginalName(from: String)
        /// A new attribute; existing models get its default value, or `nil` when it is optional.
        case attributeAdded
        /// A new attribute that is neither optional nor has a default: not inferable.
        case requiredAttributeAddedWithoutDefault
        /// An attribute is gone, with its values.
        case attributeRemoved
        /// The attribute was called `from` (its `originalName`).
        case attributeRenamed(from: String)
        /// The attribute's type changed: not inferable.
        case typeChanged(from: AttributeType, to: AttributeType)
        /// The attribute may now be `nil`.
        case madeOptional
        /// The attribute may no longer be `nil`; its default replaces `nil` values.
        case madeRequired
        /// The attribute may no longer be `nil` and has no default: not inferable.
        case madeRequiredWithoutDefault
        /// The attribute's default value changed (existing values stay).
        case defaultValueChanged
        /// `.unique` was added: lightweight unless two models already share a value.
        case uniqueAdded
        /// `.unique` was removed.
        case uniqueRemoved
        /// `.externalStorage` was added or removed (where the value is kept, not what it is).
        case externalStorageChanged(isExternal: Bool)
        /// The value transformer changed: the stored bytes mean something else; not inferable.
        case transformerChanged(from: String?, to: String?)
        /// Other options were added or removed (`.preserveValueOnDeletion`, `.spotlight`, …).
        case optionsChanged(added: [String], removed: [String])
        /// The hash modifier changed.
        case hashModifierChanged
        /// A new relationship; existing models start with no destination.
        case relationshipAdded
        /// A relationship is gone, with its references.
        case relationshipRemoved
        /// The relationship was called `from` (its `originalName`).
        case relationshipRenamed(from: String)
        /// The relationship points at another entity: not inferable.
        case destinationChanged(from: String, to: String)
        /// The relationship changed between to-one and to-many: not inferable.
        case cardinalityChanged(isToMany: Bool)
        /// The delete rule changed.
        case deleteRuleChanged(from: Schema.Relationship.DeleteRule, to: Schema.Relationship.DeleteRule)
        /// The inverse changed.
        case inverseChanged(from: String?, to: String?)
        /// The minimum or maximum number of destinations changed.
        case modelCountChanged
        /// A uniqueness constraint (`#Unique`) was added: lightweight unless two models already
        /// share its values.
        case uniquenessConstraintAdded([String])
        /// A uniqueness constraint was removed.
        case uniquenessConstraintRemoved([String])
        /// An index (`#Index`) was added.
        case indexAdded([String])
        /// An index was removed.
        case indexRemoved([String])

        /// The change's name as `--json` output writes it (`attributeRenamed`).
        public var name: String {
            switch self {
            case .entityAdded: "entityAdded"
            case .entityRemoved: "entityRemoved"
            case .entityRenamed: "entityRenamed"
            case .entityRenamedWithoutOriginalName: "entityRenamedWithoutOriginalName"
            case .attributeAdded: "attributeAdded"
            case .requiredAttributeAddedWithoutDefault: "requiredAttributeAddedWithoutDefault"
            case .attributeRemoved: "attributeRemoved"
            case .attributeRenamed: "attributeRenamed"
            case .typeChanged: "typeChanged"
            case .madeOptional: "madeOptional"
            case .madeRequired: "madeRequired"
            case .madeRequiredWithoutDefault: "madeRequiredWithoutDefault"
            case .defaultValueChanged: "defaultValueChanged"
            case .uniqueAdded: "uniqueAdded"
            case .uniqueRemoved: "uniqueRemoved"
            case .externalStorageChanged: "externalStorageChanged"
            case .transformerChanged: "transformerChanged"
            case .optionsChanged: "optionsChanged"
            case .hashModifierChanged: "hashModifierChanged"
            case .relationshipAdded: "relationshipAdded"
            case .relationshipRemoved: "relationshipRemoved"
            case .relationshipRenamed: "relationshipRenamed"
            case .destinationChanged: "destinationChanged"
            case .cardinalityChanged: "cardinalityChanged"
            case .deleteRuleChanged: "deleteRuleChanged"
            case .inverseChanged: "inverseChanged"
            case .modelCountChanged: "modelCountChanged"
            case .uniquenessConstraintAdded: "uniquenessConstraintAdded"
            case .uniquenessConstraintRemoved: "uniquenessConstraintRemoved"
            case .indexAdded: "indexAdded"
            case .indexRemoved: "indexRemoved"
            }
        }
    }

    /// The entity, by its name in the new schema (the old one for a removed entity).
    public var entity: String
    /// The property, by its name in the new schema (the old one for a removed property), or
    /// `nil` for a change of the entity itself.
    public var property: String?
    /// What changed.
    public var kind: Kind

    /// Creates a change.
    public init(entity: String, property: String? = nil, kind: Kind) {
        self.entity = entity
        self.property = property
        self.kind = kind
    }

    /// Whether a lightweight migration makes the change on its own. A constraint made unique
    /// (``Kind/uniqueAdded``, ``Kind/uniquenessConstraintAdded(_:)``) is lightweight, but the
    /// migration refuses it when existing models already share the values.
    public var isLightweight: Bool {
        switch kind {
        case .entityRenamedWithoutOriginalName, .requiredAttributeAddedWithoutDefault, .typeChanged,
            .madeRequiredWithoutDefault, .transformerChanged, .destinationChanged, .cardinalityChanged:
            false
        default:
            true
        }
    }

    /// Whether the change can be made only to models that hold a value for the property: a
    /// required attribute added without a default value, or an optional one made required
    /// without a default. Such a change is not lightweight in general (``isLightweight``), but a
    /// ``SchemaMigration`` makes it when no model of the entity lacks the value: when the entity
    /// has no models (a custom stage's `willMigrate` deleted them, to insert them again in
    /// `didMigrate`), or every model has the optional value. SwiftData's migration, which checks
    /// the models it migrates, refuses it only then too.
    public var needsAValueInEveryModel: Bool {
        switch kind {
        case .requiredAttributeAddedWithoutDefault, .madeRequiredWithoutDefault: true
        default: false
        }
    }

    /// Whether the change needs the existing models checked for duplicates.
    public var addsUniqueness: Bool {
        switch kind {
        case .uniqueAdded, .uniquenessConstraintAdded: true
        default: false
        }
    }

    /// Where the change is: `Trip.startDate`, or `Trip`.
    public var place: String { property.map { "\(entity).\($0)" } ?? entity }

    /// What changed, in words: `attribute renamed from start_date`.
    public var summary: String {
        switch kind {
        case .entityAdded: "entity added"
        case .entityRemoved: "entity removed, with its models"
        case .entityRenamed(let from): "entity renamed from \(from)"
        case .entityRenamedWithoutOriginalName(let from):
            "looks like \(from) renamed, but has no originalName \"\(from)\""
        case .attributeAdded: "attribute added"
        case .requiredAttributeAddedWithoutDefault: "attribute added, neither optional nor with a default value"
        case .attributeRemoved: "attribute removed, with its values"
        case .attributeRenamed(let from): "attribute renamed from \(from)"
        case .typeChanged(let from, let to): "type changed from \(from.name) to \(to.name)"
        case .madeOptional: "made optional"
        case .madeRequired: "made required (nil values take the default value)"
        case .madeRequiredWithoutDefault: "made required without a default value"
        case .defaultValueChanged: "default value changed"
        case .uniqueAdded: "made unique"
        case .uniqueRemoved: "no longer unique"
        case .externalStorageChanged(let isExternal):
            isExternal ? "stored externally" : "no longer stored externally"
        case .transformerChanged(let from, let to):
            "value transformer changed from \(from ?? "none") to \(to ?? "none")"
        case .optionsChanged(let added, let removed):
            (added.map { "+\($0)" } + removed.map { "-\($0)" }).joined(separator: " ") + " (options)"
        case .hashModifierChanged: "hash modifier changed"
        case .relationshipAdded: "relationship added"
        case .relationshipRemoved: "relationship removed, with its references"
        case .relationshipRenamed(let from): "relationship renamed from \(from)"
        case .destinationChanged(let from, let to): "destination changed from \(from) to \(to)"
        case .cardinalityChanged(let isToMany): isToMany ? "changed from to-one to to-many" : "changed from to-many to to-one"
        case .deleteRuleChanged(let from, let to): "delete rule changed from \(from.rawValue) to \(to.rawValue)"
        case .inverseChanged(let from, let to): "inverse changed from \(from ?? "none") to \(to ?? "none")"
        case .modelCountChanged: "minimum or maximum model count changed"
        case .uniquenessConstraintAdded(let names): "uniqueness constraint added on \(names.joined(separator: ", "))"
        case .uniquenessConstraintRemoved(let names): "uniqueness constraint removed on \(names.joined(separator: ", "))"
        case .indexAdded(let names): "index added on \(names.joined(separator: ", "))"
        case .indexRemoved(let names): "index removed on \(names.joined(separator: ", "))"
        }
    }

    /// `Trip.startDate: attribute renamed from start_date`.
    public var description: String { "\(place): \(summary)" }
}
