import TripDocCore

/// Makes a class a persistent model: its stored properties are saved by a ``ModelContext``
/// (a `var` is kept in the model's ``BackingData``; a `let` keeps its value in the object);
/// it conforms to ``PersistentModel``. The class may be `final` or not, `public` or `open`;
/// a property's type may be written out or inferred from its initial value
/// (`var name = ""`, `var sights = [Sight]()`, `let id = UUID()`).
///
/// Model inheritance is not supported: a `@Model` class whose superclass is a `@Model` class
/// is an error. (A plain subclass, without `@Model`, is saved and fetched as its superclass.)
///
/// Properties marked ``Transient()`` and computed properties are not persisted. Write
/// ``Attribute(_:originalName:hashModifier:)`` and ``Relationship(_:deleteRule:minimumModelCount:maximumModelCount:originalName:inverse:hashModifier:)``
/// on a property to say more about it, and `#Unique` / `#Index` inside the class body.
@attached(member, conformances: PersistentModel, names: named(_$backingData), named(persistentBackingData), named(schemaMetadata), named(init(backingData:)))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel)
public macro Model() = #externalMacro(module: "TripDocMacros", type: "ModelMacro")

/// Turns a stored property of a `@Model` class into one kept by the model's backing data.
/// `@Model` adds it; it is not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "TripDocMacros", type: "PersistedPropertyMacro")

/// Options of a persisted attribute: `@Attribute(.unique)`, `@Attribute(originalName: "start_date")`.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) = #externalMacro(module: "TripDocMacros", type: "AttributeMacro")

/// Options of a relationship: its delete rule, inverse, and how many models it may hold.
@attached(peer)
public macro Relationship(
    _ options: Schema.RelationshipMetadata.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "TripDocMacros", type: "RelationshipMacro")

/// A property of a `@Model` class that is not persisted; it needs an initial value.
@attached(peer)
public macro Transient() = #externalMacro(module: "TripDocMacros", type: "TransientMacro")

/// Sets of properties whose values together are unique among the model's instances:
/// `#Unique<Trip>([\.name, \.startDate, \.endDate])`. Saving a duplicate updates the existing
/// model instead (an upsert). Written inside the `@Model` class body.
@freestanding(declaration, names: named(_$uniquenessConstraints))
public macro Unique<Model>(_ constraints: [PartialKeyPath<Model>]...) =
    #externalMacro(module: "TripDocMacros", type: "UniqueMacro")

/// Property lists a store may index: `#Index<Trip>([\.name], [\.startDate, \.endDate])`.
/// Written inside the `@Model` class body.
@freestanding(declaration, names: named(_$indices))
public macro Index<Model>(_ indices: [PartialKeyPath<Model>]...) =
    #externalMacro(module: "TripDocMacros", type: "IndexMacro")

/// Makes an actor a ``ModelActor``: adds `modelExecutor`, `modelContainer` and
/// `init(modelContainer:)`, which gives the actor a ``ModelContext`` of its own over the
/// container, run by a ``DefaultSerialModelExecutor``.
///
///     @ModelActor
///     actor TripImporter {
///         func importTrips(named names: [String]) throws -> [PersistentIdentifier] {
///             let trips = names.map { Trip(name: $0) }
///             trips.forEach { modelContext.insert($0) }
///             try modelContext.save()
///             return trips.map(\.persistentModelID)
///         }
///     }
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "TripDocMacros", type: "ModelActorMacro")
