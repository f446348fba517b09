import Foundation
import TripDocCore

extension ModelContext {
    /// The models a relationship value holds: a model, an optional model or an array of models.
    static func models(in value: Any?) -> [any PersistentModel] {
        guard let value else { return [] }
        // One conformance check for the array's type, rather than one per element (a cast to
        // `[any PersistentModel]` checks each element).
        if let list = value as? any ModelList { return list.models }
        if let model = value as? any PersistentModel { return [model] }
        if let optional = value as? any OptionalValue { return models(in: optional.wrappedAny) }
        return []
    }

    /// The models a value of the relationship `property` holds. The destination type is known:
    /// the value is first cast to an array or an optional of it, a comparison of types, rather
    /// than asked whether its type conforms to a protocol (a lookup the runtime makes for every
    /// relationship set, and a bulk insert sets one per model).
    static func models(in value: Any?, of property: ModelDescription.Property) -> [any PersistentModel] {
        guard let value else { return [] }
        guard case .relationship(let destination, let isToMany, _) = property.kind else { return models(in: value) }
        func typed<M: PersistentModel>(_ type: M.Type) -> [any PersistentModel]? {
            if isToMany {
                // Through a buffer: an array's subscript, in this code left generic, allocates
                // for each element it yields.
                if let list = value as? [M] { return list.withUnsafeBufferPointer { $0.map { $0 } } }
            } else if let model = value as? M? {
                return model.map { [$0] } ?? []
            }
            return nil
        }
        return typed(destination) ?? models(in: value)
    }

    /// `models` as the value of `property`: a typed array, optional or model.
    static func value(of models: [any PersistentModel], for property: ModelDescription.Property) -> Any? {
        guard case .relationship(let destination, let isToMany, let isOptional) = property.kind else { return nil }
        func typed<M: PersistentModel>(_ type: M.Type) -> Any? {
            let list = models.compactMap { $0 as? M }
            if isToMany { return isOptional ? (list as [M]?) as Any : list }
            if isOptional { return list.first as M? as Any }
            return list.first.map { $0 as Any }
        }
        return typed(destination)
    }

    /// The value of a relationship stored in a snapshot, as models.
    func resolve(_ stored: SnapshotValue, property: ModelDescription.Property) -> Any? {
        guard case .relationship(let destination, _, _) = property.kind else { return nil }
        switch stored {
        case .reference(let id):
            return Self.value(of: [(try? existingModel(for: id, as: destination)) ?? nil].compactMap { $0 }, for: property)
        case .references(let ids):
            return Self.value(of: ids.compactMap { (try? existingModel(for: $0, as: destination)) ?? nil }, for: property)
        default:
            return Self.value(of: [], for: property)
        }
    }

    /// Keeps the inverse of `property` in step after `model`'s destinations changed, and
    /// inserts destinations that are not in the context yet.
    func relationshipDidChange(
        of model: any PersistentModel, property: ModelDescription.Property, removed: [any PersistentModel],
        added: [any PersistentModel]
    ) {
        let sides = model.backing.description.otherSides(of: property)
        let others = sides.counterparts
        // Relationships of the model holding the same other side (several sharing an inverse).
        let siblings = sides.siblings
        for destination in removed where !added.contains(where: { $0 === destination }) {
            let stillHeld = siblings.contains { sibling in
                model.backing.destinations(of: sibling).contains { $0 === destination }
            }
            guard !stillHeld else { continue }
            for other in others { remove(model, from: other, of: destination) }
        }
        for destination in added {
            if destination.backing.context !== self { insertModel(destination) }
            guard let inverse = others.first else { continue }
            if others.count > 1,
                others.contains(where: { other in destination.backing.destinations(of: other).contains { $0 === model } })
            {
                continue
            }
            add(model, to: inverse, of: destination, forward: property)
        }
    }

    /// Removes `source` from the relationship `property` of `destination`.
    private func remove(_ source: any PersistentModel, from property: ModelDescription.Property, of destination: any PersistentModel) {
        let backing = destination.backing
        let current = backing.destinations(of: property)
        guard current.contains(where: { $0 === source }) else { return }
        let remaining = current.filter { $0 !== source }
        if case .relationship(_, false, false) = property.kind, remaining.isEmpty { return }  // a required to-one stays
        if let value = Self.value(of: remaining, for: property) { backing.setRelationshipValue(value, for: property) }
        modelDidChange(backing)
    }

    /// Adds `source` to the relationship `property` of `destination`; for a to-one, first takes
    /// `destination` out of the `forward` relationship of whatever it pointed at before.
    private func add(
        _ source: any PersistentModel, to property: ModelDescription.Property, of destination: any PersistentModel,
        forward: ModelDescription.Property
    ) {
        let backing = destination.backing
        let current = backing.destinations(of: property)
        guard !current.contains(where: { $0 === source }) else { return }
        let updated: [any PersistentModel]
        if case .relationship(_, true, _) = property.kind {
            updated = current + [source]
        } else {
            for previous in current { remove(destination, from: forward, of: previous) }
            updated = [source]
        }
        if let value = Self.value(of: updated, for: property) { backing.setRelationshipValue(value, for: property) }
        modelDidChange(backing)
    }
}

/// An array of models, as a to-many relationship holds them.
protocol ModelList {
    /// The models, in order.
    var models: [any PersistentModel] { get }
}

extension Array: ModelList where Element: PersistentModel {
    var models: [any PersistentModel] { map { $0 } }
}
