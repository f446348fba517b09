import Foundation

/// The state of one save while it is worked out against a document it leaves unchanged: what
/// the save changes is kept beside the document, and taken into it only once the whole save
/// has been found valid (``IndexedDocument/commit(_:header:transaction:)``).
struct SaveChangesWorkspace {
    /// The document as it was before the save; never changed here.
    let base: IndexedDocument
    /// The header as the save leaves it (its key sequences move on).
    var header: DocumentHeader
    /// Each model the save has changed so far: its new snapshot, or `nil` once removed.
    var overlay = ChangedSnapshots()
    var entities: [String: Schema.Entity]
    /// Changes to the base's uniqueness indexes: the model now holding a combination of
    /// values, or `nil` once none does.
    var uniqueOverlay: [String: [[String]: [[SnapshotValue]: PersistentIdentifier?]]] = [:]
    /// What the save changed, in order, for the history.
    var changes: [HistoryChangeRecord] = []
    /// The models the request deletes (as it names them).
    var deleting: Set<PersistentIdentifier> = []
    /// Whether inserts with free permanent identifiers of this store keep them.
    var keepsInsertedIdentifiers = false
    /// Identifiers kept by this save's inserts, which minting must pass over.
    var kept: Set<PersistentIdentifier> = []
    /// The identifiers minted before the request's snapshots were made (``mintAhead(for:)``),
    /// and whether an insert has taken each yet: an insert holding one keeps it, so references
    /// to it need no rewriting (and a bulk insert no table of temporary identifiers).
    var mintedAhead = IdentifierTable<Bool>()

    init(base: IndexedDocument) {
        self.base = base
        self.header = base.header
        self.entities = base.schema.entitiesByName
    }

    var storeIdentifier: String { header.storeIdentifier }

    /// The snapshot of `identifier` as the save has left it so far.
    func current(_ identifier: PersistentIdentifier) -> DefaultSnapshot? {
        if let changed = overlay[identifier] { return changed }
        return base.byIdentifier[identifier]
    }

    /// Sets the snapshot of `identifier`, or removes it (`nil`).
    mutating func set(_ identifier: PersistentIdentifier, _ snapshot: DefaultSnapshot?) {
        overlay.set(identifier, snapshot)
    }

    /// The identifiers of `entityName`'s models as the save has left them so far, in no order.
    func currentIdentifiers(of entityName: String) -> [PersistentIdentifier] {
        var identifiers = base.identifiers(of: entityName).filter { overlay[$0] == nil }
        overlay.forEach { identifier, snapshot in
            if snapshot != nil, identifier.entityName == entityName { identifiers.append(identifier) }
        }
        return identifiers
    }

    mutating func apply(
        _ request: consuming DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        guard base.problems.isEmpty else { throw SaveChangesError.documentHasProblems(base.problems) }
        // The inserted snapshots are taken out of the request one by one as they go into the
        // document: when the caller gave the request up, nothing else holds their values, which
        // are then rewritten in place rather than copied (a bulk insert's, all of them).
        var inserts = request.inserted
        let updates = request.updated
        let deletes = request.deleted
        _ = consume request

        // Models this save deletes cannot take an insert as an upsert.
        deleting = Set(deletes.map(\.persistentIdentifier))

        // Inserts: decide every new identifier first, so references among them can be rewritten.
        // Sized for every insert at once, rather than grown (and rehashed) as they come.
        // (Inserts keeping identifiers minted ahead are not mapped: only upserts among them.)
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        if mintedAhead.isEmpty { remapped.reserveCapacity(inserts.count) }
        var upserted: Set<PersistentIdentifier> = []
        // Each insert's permanent identifier, in the order of `inserts` (one each), and whether
        // the identifier was minted (so that no model holds it yet).
        var pendingInserts = PendingInserts(reservingCapacity: inserts.count)
        if keepsInsertedIdentifiers {
            // Kept identifiers first, so that the keys minted below pass over all of them.
            for snapshot in inserts {
                let original = snapshot.persistentIdentifier
                guard !original.isTemporary, original.storeIdentifier == storeIdentifier, current(original) == nil,
                    entities[original.entityName] != nil, kept.insert(original).inserted
                else { continue }
                if let number = PrimaryKeyOrder.canonicalNumber(original.primaryKey), number < Int64.max - 2,
                    number >= header.nextPrimaryKeys[original.entityName] ?? 0
                {
                    if header.nextPrimaryKeys[original.entityName] == nil {
                        _ = try mintIdentifier(for: original.entityName)
                    }
                    header.nextPrimaryKeys[original.entityName] = max(
                        number + 1, header.nextPrimaryKeys[original.entityName] ?? 0)
                }
            }
        }
        for snapshot in inserts {
            let original = snapshot.persistentIdentifier
            guard let entity = entities[original.entityName] else { throw SaveChangesError.unknownEntity(original) }
            // Minted ahead for this insert: no model holds it, and no other insert may take it.
            let isMintedAhead = !mintedAhead.isEmpty && mintedAhead[original] != nil
            if isMintedAhead {
                guard mintedAhead.updateValue(true, forKey: original) == false else {
                    throw SaveChangesError.duplicateIdentifier(original)
                }
            } else {
                guard remapped[original] == nil else { throw SaveChangesError.duplicateIdentifier(original) }
                if !keepsInsertedIdentifiers, !original.isTemporary, original.storeIdentifier == storeIdentifier,
                    current(original) != nil
                {
                    throw SaveChangesError.duplicateIdentifier(original)
                }
            }
            // A patch's or merge's inserts are new objects, never upserts: their uniqueness is
            // checked once the whole save is in place (an update in the same save may move an
            // object's values out of their way).
            if !keepsInsertedIdentifiers, let existing = try existingMatch(for: snapshot, entity: entity) {
                remapped[original] = existing
                upserted.insert(existing)
                pendingInserts.append(existing, isMinted: false)
                continue
            }
            let isKept = !kept.isEmpty && kept.contains(original)
            let permanent: PersistentIdentifier
            if isMintedAhead {
                permanent = original
                pendingInserts.appendKeepingRequestIdentifier()
            } else {
                permanent = isKept ? original : try mintIdentifier(for: entity.name)
                remapped[original] = permanent
                pendingInserts.append(permanent, isMinted: !isKept)
            }
            if !keepsInsertedIdentifiers { registerUniqueKeys(of: snapshot, as: permanent, entity: entity) }
        }
        var reregister: [PersistentIdentifier: DefaultSnapshot] = [:]
        // What the models that were saved before held: those an insert merged into or kept the
        // identifier of (in the order of `pendingInserts`; a minted insert held nothing), then
        // the updated ones. A bulk insert's minted identifiers are not listed again.
        var previousOfUnminted: [DefaultSnapshot?] = []
        var updated: [(PersistentIdentifier, previous: DefaultSnapshot?)] = []
        updated.reserveCapacity(updates.count)
        overlay.prepareRuns(for: pendingInserts.resolved(inserts.lazy.map(\.persistentIdentifier)).lazy.map(\.0))
        changes.reserveCapacity(pendingInserts.count + updates.count + deletes.count)
        // Whether each insert may refer to a model the store does not hold: unless every
        // reference it holds named another insert of this save (and was rewritten to its
        // permanent identifier), or it merged into a saved model.
        var mayDangle: [Bool] = []
        mayDangle.reserveCapacity(pendingInserts.count)
        var pending = PendingInserts.Cursor()
        for index in inserts.indices {
            // The insert leaves an empty snapshot under the identifier the request gave it in
            // its place: messages name the insert by it (see `checkReferences` below).
            let original = inserts[index].persistentIdentifier
            let (identifier, isMinted) = pending.next(in: pendingInserts, requested: original)
            let entity = entities[identifier.entityName]!
            var copy = DefaultSnapshot(persistentIdentifier: original, values: [:])
            swap(&copy, &inserts[index])
            let refersToInsertsOnly = copy.remapReferences(remapped) { !mintedAhead.isEmpty && mintedAhead[$0] == true }
            copy.persistentIdentifier = identifier
            // A minted identifier is new: minting passed over every one the document or this
            // save holds, and no other insert is given it. Others are looked up once.
            let previous = isMinted ? nil : current(identifier)
            mayDangle.append(previous != nil || !refersToInsertsOnly)
            if let previous { copy = Self.upsert(copy, onto: previous, entity: entity) }
            let rewritten = try normalized(copy, entity: entity, reportedAs: original, listsMayRepeat: !upserted.isEmpty)
            if !isMinted { previousOfUnminted.append(previous) }
            if let previous {
                try checkUniqueness(of: rewritten, replacing: previous, entity: entity)
                set(identifier, rewritten)
                recordUpdate(from: previous, to: rewritten, entity: entity)
            } else {
                set(identifier, rewritten)
                changes.append(.insert(identifier))
            }
            if !upserted.isEmpty, upserted.contains(identifier) { reregister[identifier] = rewritten }
        }

        for snapshot in updates {
            let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            guard let entity = entities[identifier.entityName] else { throw SaveChangesError.unknownEntity(identifier) }
            guard let previous = current(identifier) else {
                throw SaveChangesError.unknownIdentifier(identifier, operation: "update")
            }
            let rewritten = try normalized(
                snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped), entity: entity,
                reportedAs: identifier, listsMayRepeat: !upserted.isEmpty)
            try checkUniqueness(of: rewritten, replacing: previous, entity: entity)
            updated.append((identifier, previous))
            set(identifier, rewritten)
            recordUpdate(from: previous, to: rewritten, entity: entity)
        }
        // (The request's inserts change no more: they are read beside the list from here on.)
        let insertedAs = pendingInserts.resolved(inserts.lazy.map(\.persistentIdentifier))
        keepInversesConsistent(
            after: SavedModels(inserts: insertedAs, previousOfUnminted: previousOfUnminted, updated: updated))

        var deleted: Set<PersistentIdentifier> = []
        let requested = Set(deletes.map { remapped[$0.persistentIdentifier] ?? $0.persistentIdentifier })
        for snapshot in deletes {
            let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            guard current(identifier) != nil || deleted.contains(identifier) else {
                throw SaveChangesError.unknownIdentifier(identifier, operation: "delete")
            }
            try delete(identifier, alsoDeleting: requested, deleted: &deleted)
        }

        if keepsInsertedIdentifiers {
            try checkUniquenessOfInserts(Set(insertedAs.lazy.map(\.0)).subtracting(deleted), reported: remapped)
        }

        // When the save deletes nothing, an insert whose references all named inserts of this
        // save refers only to models the save holds: the others are checked (an update of an
        // insert is checked as an update). An identifier twice among the inserts (two upserts
        // of one model) is checked twice, which finds what checking it once does.
        let insertedIdentifiers =
            deleted.isEmpty
            ? zip(insertedAs, mayDangle).compactMap { insert, mayDangle in mayDangle ? insert.0 : nil }
            : insertedAs.compactMap { deleted.contains($0.0) ? nil : $0.0 }
        try checkReferences(of: insertedIdentifiers) {
            var reported: [PersistentIdentifier: PersistentIdentifier] = [:]
            for ((identifier, _), placeholder) in zip(insertedAs, inserts) where reported[identifier] == nil {
                reported[identifier] = placeholder.persistentIdentifier
            }
            return reported
        }
        try checkReferences(
            of: updates.map { remapped[$0.persistentIdentifier] ?? $0.persistentIdentifier }
                .filter { !deleted.contains($0) })

        return DataStoreSaveChangesResult(
            for: storeIdentifier, remappedIdentifiers: remapped, snapshotsToReregister: reregister)
    }

    /// What an insert that matches `existing` on a uniqueness constraint leaves (an upsert, as
    /// SwiftData's constraint merge with the inserted object's values winning): the values the
    /// insert holds replace the existing model's; a property the insert leaves out, and a
    /// relationship it holds no destination in (a `nil` to-one, an empty to-many: what a new
    /// object has for a relationship it never set), keep the existing model's value, so an
    /// upsert never empties the existing model's relationships. To empty them, update the model.
    static func upsert(_ inserted: DefaultSnapshot, onto existing: DefaultSnapshot, entity: Schema.Entity) -> DefaultSnapshot {
        var values = inserted
        for name in entity.propertyNames {
            switch values[name] {
            case nil: values[name] = existing[name]
            case .null? where entity.relationship(named: name) != nil,
                .references([])? where entity.relationship(named: name) != nil:
                values[name] = existing[name] ?? values[name]
            default: break
            }
        }
        return values
    }

    /// Records an update: the properties whose values differ, and the new values of the
    /// attributes among them (nil values omitted). Nothing when nothing differs.
    mutating func recordUpdate(from previous: DefaultSnapshot, to current: DefaultSnapshot, entity: Schema.Entity) {
        let changed = entity.propertyNames.filter { (previous[$0] ?? .null) != (current[$0] ?? .null) }
        guard !changed.isEmpty else { return }
        var values: [String: SnapshotValue] = [:]
        for name in changed where entity.attribute(named: name) != nil {
            if let value = current[name], value != .null { values[name] = value }
        }
        changes.append(.update(current.persistentIdentifier, updatedAttributes: changed, values: values))
    }

    // MARK: Inverse relationships

    /// Makes the other side of every relationship a save changed agree with it: a destination
    /// no longer referred to drops the source from its inverse, a new destination gets the
    /// source (and leaves the source it pointed at before, for a to-one inverse). A context that
    /// sends both sides changes nothing here; a save that sends one side (an upsert replacing a
    /// list, a tool editing snapshots) leaves no model pointing the wrong way. Each model so
    /// changed is recorded as an update, unless the save already records one for it.
    mutating func keepInversesConsistent(after saved: some Sequence<(PersistentIdentifier, previous: DefaultSnapshot?)>) {
        var touched: [PersistentIdentifier: DefaultSnapshot] = [:]
        func edit(_ id: PersistentIdentifier, _ change: (inout DefaultSnapshot) -> Void) {
            guard var snapshot = current(id) else { return }
            if touched[id] == nil { touched[id] = snapshot }
            change(&snapshot)
            set(id, snapshot)
        }
        func remove(_ source: PersistentIdentifier, from relationship: Schema.Relationship, of target: PersistentIdentifier) {
            edit(target) { snapshot in
                switch snapshot[relationship.name] {
                case .reference(source): snapshot[relationship.name] = .null
                case .references(let list) where list.contains(source):
                    snapshot[relationship.name] = .references(list.filter { $0 != source })
                default: break
                }
            }
        }
        // Each entity's relationships with an inverse, worked out once per save (a bulk insert
        // passes here once per model).
        var inversesByEntity: [String: [Inverses]] = [:]
        for (id, previous) in saved {
            guard let snapshot = current(id), let entity = entities[id.entityName] else { continue }
            let inverses: [Inverses]
            if let known = inversesByEntity[entity.name] {
                inverses = known
            } else {
                inverses = self.inverses(of: entity)
                inversesByEntity[entity.name] = inverses
            }
            for plan in inverses {
                let (relationship, others, inverse, siblings) = (plan.relationship, plan.others, plan.inverse, plan.siblings)
                let beforeValue = previous?[relationship.name]
                let afterValue = snapshot[relationship.name]
                // An update that leaves the relationship as it was changes no other side.
                if previous != nil, beforeValue == afterValue { continue }
                let before = beforeValue?.referencedIdentifiers ?? []
                let after = afterValue?.referencedIdentifiers ?? []
                for target in before where !after.contains(target) {
                    let stillHeld = siblings.contains { snapshot[$0.name]?.refers { $0 == target } == true }
                    guard !stillHeld else { continue }
                    for other in others { remove(id, from: other, of: target) }
                }
                for target in after where !before.contains(target) {
                    guard let destination = current(target) else { continue }
                    // A shared inverse gaining a model that already holds the destination in one
                    // of the relationships sharing it: nothing to add.
                    if others.count > 1,
                        others.contains(where: { destination[$0.name]?.refers { $0 == id } == true })
                    {
                        continue
                    }
                    switch destination[inverse.name] {
                    case .references(let list):
                        if !list.contains(id) { edit(target) { $0[inverse.name] = .references(list + [id]) } }
                    case .reference(id):
                        break
                    case .reference(let other):
                        // The destination leaves the model it belonged to.
                        remove(target, from: relationship, of: other)
                        edit(target) { $0[inverse.name] = .reference(id) }
                    default:
                        if !inverse.isToMany { edit(target) { $0[inverse.name] = .reference(id) } }
                        else { edit(target) { $0[inverse.name] = .references([id]) } }
                    }
                }
            }
        }
        // Made only when a model was changed here (a context sends both sides, so a bulk insert
        // changes none): a table of every model the save records.
        guard !touched.isEmpty else { return }
        let recorded = Set(changes.map(\.changedPersistentIdentifier))
        for (id, previous) in touched.sorted(by: { $0.key < $1.key }) where !recorded.contains(id) {
            guard let entity = entities[id.entityName], let snapshot = current(id) else { continue }
            recordUpdate(from: previous, to: snapshot, entity: entity)
        }
    }

    /// A relationship with an inverse, and what keeping its other side consistent needs.
    struct Inverses {
        let relationship: Schema.Relationship
        /// The destination's relationships holding the other side (see ``counterparts(of:in:)``).
        let others: [Schema.Relationship]
        /// The first of `others`.
        let inverse: Schema.Relationship
        /// Relationships of the same entity holding the same other side (several sharing an
        /// inverse): a destination one of them still holds keeps the model in its inverse.
        let siblings: [Schema.Relationship]
    }

    /// `entity`'s relationships that have an inverse.
    func inverses(of entity: Schema.Entity) -> [Inverses] {
        entity.relationships.compactMap { relationship in
            let others = counterparts(of: relationship, in: entity)
            guard let inverse = others.first else { return nil }
            let siblings = entity.relationships.filter { sibling in
                sibling.name != relationship.name
                    && counterparts(of: sibling, in: entity).contains { other in others.contains { $0.name == other.name } }
            }
            return Inverses(relationship: relationship, others: others, inverse: inverse, siblings: siblings)
        }
    }

    /// The relationships of `relationship`'s destination that hold its other side: its inverse;
    /// for an inverse that several relationships of the destination share (SwiftData accepts
    /// two relationships naming one inverse), all of them, the one it names back first.
    func counterparts(of relationship: Schema.Relationship, in entity: Schema.Entity) -> [Schema.Relationship] {
        guard let destination = entities[relationship.destination] else { return [] }
        let sharers = destination.relationships.filter { $0.inverseName == relationship.name && $0.destination == entity.name }
        if sharers.count > 1 {
            let named = relationship.inverseName
            return sharers.filter { $0.name == named } + sharers.filter { $0.name != named }
        }
        guard let inverseName = relationship.inverseName, let inverse = destination.relationship(named: inverseName) else {
            return []
        }
        return [inverse]
    }

    // MARK: Identifiers

    /// A new permanent identifier for an insert whose snapshot is still to be made: the insert
    /// keeps it, and the snapshots refer to it from the start. Minted as ``mintIdentifier(for:)``
    /// mints; a save that fails burns it, as a sequence does its numbers.
    mutating func mintAhead(for entityName: String) throws -> PersistentIdentifier {
        let identifier = try mintIdentifier(for: entityName)
        mintedAhead.updateValue(false, forKey: identifier)
        return identifier
    }

    /// A new permanent identifier from the entity's sequence. A sequence that is missing, or
    /// lower than a key in use (a document edited by hand), is moved past the keys in use:
    /// minting never reuses an identifier.
    mutating func mintIdentifier(for entityName: String) throws -> PersistentIdentifier {
        /// Keys at or above this cannot be minted: the next key must still fit the header.
        let limit = Int64.max - 2
        var next: Int64
        if let stored = header.nextPrimaryKeys[entityName] {
            next = stored
        } else {
            let inUse = currentIdentifiers(of: entityName).lazy.map(\.primaryKey)
                .filter(PrimaryKeyOrder.isCanonicalNumber).compactMap { Int64($0) }.max() ?? 0
            let inHistory = base.history.transactions.lazy.flatMap(\.changes).map(\.changedPersistentIdentifier)
                .filter { $0.entityName == entityName }.map(\.primaryKey).filter(PrimaryKeyOrder.isCanonicalNumber)
                .compactMap { Int64($0) }.max() ?? 0
            guard max(inUse, inHistory) < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
            next = max(inUse, inHistory) + 1
        }
        var identifier = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: String(next))
        while current(identifier) != nil || (!kept.isEmpty && kept.contains(identifier)) {
            guard next < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
            next += 1
            identifier = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: String(next))
        }
        guard next < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
        header.nextPrimaryKeys[entityName] = next + 1
        return identifier
    }

    // MARK: Values

    /// The snapshot with every property present (`nil` as ``SnapshotValue/null``, defaults
    /// filled in), checked against the schema. Errors name the model as `reportedAs` (the
    /// identifier the caller knows it by). `listsMayRepeat` says that the save merged an insert
    /// into a saved model, so that a to-many list may name that model twice: it is kept once.
    func normalized(
        _ snapshot: DefaultSnapshot, entity: Schema.Entity, reportedAs identifier: PersistentIdentifier,
        listsMayRepeat: Bool = false
    ) throws -> DefaultSnapshot {
        // The values to fill in are gathered and set after the checks, and only when there are
        // some: a snapshot holding every property, as a context's do, is returned as it came,
        // sharing its values. (Setting them as they are found let the optimizer make the values
        // unique before the loops, which copied every snapshot of a bulk insert: 104 MB at
        // 100,000 trips.)
        var filledIn: [(name: String, value: SnapshotValue)] = []
        for name in snapshot.layout.names where !entity.hasProperty(named: name) {
            throw SaveChangesError.unknownProperty(identifier, property: name)
        }
        for attribute in entity.attributes {
            let stored = snapshot[attribute.name]
            let value = stored ?? .null
            if value == .null {
                if attribute.isOptional {
                    if stored == nil { filledIn.append((attribute.name, .null)) }
                } else if let defaultValue = attribute.defaultValue {
                    filledIn.append((attribute.name, defaultValue))
                } else {
                    throw SaveChangesError.missingValue(identifier, property: attribute.name)
                }
            } else if !value.fits(attribute.type) {
                throw SaveChangesError.valueDoesNotFit(
                    identifier, property: attribute.name, expected: attribute.type.name, found: value.kindDescription)
            }
        }
        for relationship in entity.relationships {
            let stored = snapshot[relationship.name]
            let value = stored ?? (relationship.isToMany ? .references([]) : .null)
            switch (relationship.isToMany, value) {
            case (true, .references(let targets)) where listsMayRepeat && stored != nil && targets.count > 1:
                // An insert merged into a saved model (an upsert) is named by that model's
                // identifier: a list holding both names it twice, and a to-many relationship
                // holds a model once.
                var seen = Set<PersistentIdentifier>()
                let once = targets.filter { seen.insert($0).inserted }
                if once.count != targets.count { filledIn.append((relationship.name, .references(once))) }
            case (false, .null), (false, .reference), (true, .references):
                if stored == nil { filledIn.append((relationship.name, value)) }
            default:
                throw SaveChangesError.valueDoesNotFit(
                    identifier, property: relationship.name,
                    expected: relationship.isToMany
                        ? "a list of \(relationship.destination) references" : "a \(relationship.destination) reference",
                    found: value.kindDescription)
            }
            for target in value.referencedIdentifiers where target.entityName != relationship.destination {
                throw SaveChangesError.danglingReference(identifier, property: relationship.name, target: target)
            }
            if case .references(let targets) = value,
                (relationship.minimumModelCount > 0 && targets.count < relationship.minimumModelCount)
                    || (relationship.maximumModelCount > 0 && targets.count > relationship.maximumModelCount)
            {
                throw SaveChangesError.modelCountOutOfRange(
                    identifier, relationship: relationship.name, count: targets.count,
                    minimum: relationship.minimumModelCount, maximum: relationship.maximumModelCount)
            }
        }
        guard !filledIn.isEmpty else { return snapshot }
        var values = snapshot
        for (name, value) in filledIn { values[name] = value }
        return values
    }

    /// Throws if a snapshot among `identifiers` refers to a model the store does not hold, in
    /// a reference the save adds (one the model did not hold in that property before the save:
    /// a reference it kept was checked when it was made, and one left dangling by a delete
    /// rule of no action stays as it is); the error names the model by the identifier
    /// `reported` maps it to, if any.
    func checkReferences(
        of identifiers: [PersistentIdentifier], reported: () -> [PersistentIdentifier: PersistentIdentifier] = { [:] }
    ) throws {
        // One pass in any order finds whether any reference dangles; only then are they looked
        // at in order, so that the error names the first in the order of identifiers.
        // A model of an entity the document does not hold (one holding only some entities,
        // which holds every entity whose references the save changes) is taken as held.
        func isMissing(_ target: PersistentIdentifier, in property: String, of identifier: PersistentIdentifier) -> Bool {
            guard current(target) == nil, base.holds(target.entityName) else { return false }
            return !(base.snapshot(for: identifier)?[property]?.refers { $0 == target } ?? false)
        }
        func dangles(_ identifier: PersistentIdentifier) -> Bool {
            guard let snapshot = current(identifier) else { return false }
            return snapshot.slots.indices.contains { position in
                snapshot.slots[position].refers { isMissing($0, in: snapshot.layout.names[position], of: identifier) }
            }
        }
        guard identifiers.contains(where: dangles) else { return }
        let reported = reported()
        for identifier in identifiers.sorted() {
            guard let snapshot = current(identifier) else { continue }
            for (property, value) in snapshot.values.sorted(by: { $0.key < $1.key }) {
                for target in value.referencedIdentifiers where isMissing(target, in: property, of: identifier) {
                    throw SaveChangesError.danglingReference(
                        reported[identifier] ?? identifier, property: property, target: target)
                }
            }
        }
    }

    // MARK: Uniqueness

    /// The model that holds `key`'s values on `constraint` as the save has left them so far,
    /// if any. Models this save deletes hold none.
    func holder(of key: [SnapshotValue], entity: Schema.Entity, constraint: [String]) -> PersistentIdentifier? {
        let holder: PersistentIdentifier?
        if let changed = uniqueOverlay[entity.name]?[constraint]?[key] {
            holder = changed
        } else {
            holder = base.uniqueIndex(of: entity.name, constraint: constraint)[key]
        }
        guard let holder, !deleting.contains(holder) else { return nil }
        return holder
    }

    /// Records that `holder` (or nobody, `nil`) now holds `key`'s values on `constraint`.
    mutating func setHolder(_ holder: PersistentIdentifier?, of key: [SnapshotValue], entity: Schema.Entity, constraint: [String]) {
        uniqueOverlay[entity.name, default: [:]][constraint, default: [:]].updateValue(holder, forKey: key)
    }

    mutating func existingMatch(for snapshot: DefaultSnapshot, entity: Schema.Entity) throws -> PersistentIdentifier? {
        for constraint in entity.effectiveUniquenessConstraints {
            guard let key = IndexedDocument.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            if let existing = holder(of: key, entity: entity, constraint: constraint) { return existing }
        }
        return nil
    }

    mutating func registerUniqueKeys(of snapshot: DefaultSnapshot, as identifier: PersistentIdentifier, entity: Schema.Entity) {
        for constraint in entity.effectiveUniquenessConstraints {
            guard let key = IndexedDocument.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            setHolder(identifier, of: key, entity: entity, constraint: constraint)
        }
    }

    mutating func checkUniqueness(of snapshot: DefaultSnapshot, replacing previous: DefaultSnapshot, entity: Schema.Entity) throws {
        let identifier = snapshot.persistentIdentifier
        for constraint in entity.effectiveUniquenessConstraints {
            let oldKey = IndexedDocument.uniqueKey(of: previous, constraint: constraint)
            // Values the model keeps are its own still (unless this save gave them to another,
            // which the overlay says): the index need not be asked, nor built.
            if let oldKey, oldKey == IndexedDocument.uniqueKey(of: snapshot, constraint: constraint),
                uniqueOverlay[entity.name]?[constraint]?[oldKey] == nil
            {
                continue
            }
            if let oldKey, holder(of: oldKey, entity: entity, constraint: constraint) == identifier {
                setHolder(nil, of: oldKey, entity: entity, constraint: constraint)
            }
            guard let key = IndexedDocument.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            if let existing = holder(of: key, entity: entity, constraint: constraint), existing != identifier {
                throw SaveChangesError.uniquenessViolated(identifier, constraint: constraint, existing: existing)
            }
            setHolder(identifier, of: key, entity: entity, constraint: constraint)
        }
    }

    /// Throws if a model among `inserted` has the values of another model of its entity on a
    /// uniqueness constraint, as the save leaves them; the error names the insert as the request
    /// did (`reported` maps request identifiers to the ones given).
    ///
    /// Only the inserts' values are looked up, in the uniqueness indexes as the save left them
    /// (a save's updates keep them up to date; these inserts are not in them), so the work is
    /// proportional to the inserts, not to their entities' sizes. Of several collisions the one
    /// reported is the one a walk of the entity's models in identifier order meets first.
    func checkUniquenessOfInserts(
        _ inserted: Set<PersistentIdentifier>, reported: [PersistentIdentifier: PersistentIdentifier]
    ) throws {
        let requestNames = Dictionary(reported.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let byEntity = Dictionary(grouping: inserted, by: \.entityName)
        for entityName in byEntity.keys.sorted() {
            guard let entity = entities[entityName], !entity.effectiveUniquenessConstraints.isEmpty else { continue }
            let identifiers = byEntity[entityName]!.sorted()
            for constraint in entity.effectiveUniquenessConstraints {
                // The models holding each of the inserts' combinations of values: the inserts,
                // and the model the index names when it still holds them.
                var holders: [[SnapshotValue]: [PersistentIdentifier]] = [:]
                for identifier in identifiers {
                    guard let snapshot = current(identifier),
                        let key = IndexedDocument.uniqueKey(of: snapshot, constraint: constraint)
                    else { continue }
                    holders[key, default: []].append(identifier)
                }
                // A walk in identifier order meets a collision at the second model of a
                // combination: the first such second model is the one reported.
                var first: (at: PersistentIdentifier, other: PersistentIdentifier)?
                for (key, var models) in holders {
                    if let holder = holder(of: key, entity: entity, constraint: constraint), !inserted.contains(holder),
                        let snapshot = current(holder), IndexedDocument.uniqueKey(of: snapshot, constraint: constraint) == key
                    {
                        models.append(holder)
                    }
                    guard models.count > 1 else { continue }
                    models.sort()
                    if first.map({ models[1] < $0.at }) ?? true { first = (models[1], models[0]) }
                }
                guard let (at, other) = first else { continue }
                let (new, existing) = inserted.contains(at) ? (at, other) : (other, at)
                throw SaveChangesError.uniquenessViolated(requestNames[new] ?? new, constraint: constraint, existing: existing)
            }
        }
    }

    // MARK: Deletion

    mutating func delete(
        _ identifier: PersistentIdentifier, alsoDeleting requested: Set<PersistentIdentifier>,
        deleted: inout Set<PersistentIdentifier>
    ) throws {
        guard let snapshot = current(identifier), deleted.insert(identifier).inserted else { return }
        let entity = entities[identifier.entityName]!
        var tombstone: [String: SnapshotValue] = [:]
        for attribute in entity.attributes where attribute.preservesValueOnDeletion {
            if let value = snapshot[attribute.name], value != .null { tombstone[attribute.name] = value }
        }
        changes.append(.delete(identifier, tombstone: tombstone))
        for relationship in entity.relationships {
            let targets = (snapshot[relationship.name] ?? .null).referencedIdentifiers
            switch relationship.deleteRule {
            case .deny:
                if let blocker = targets.first(where: { !requested.contains($0) && !deleted.contains($0) && current($0) != nil }) {
                    throw SaveChangesError.deleteDenied(identifier, relationship: relationship.name, related: blocker)
                }
            case .cascade:
                for target in targets { try delete(target, alsoDeleting: requested, deleted: &deleted) }
            case .nullify:
                let inverses = counterparts(of: relationship, in: entity).map(\.name)
                guard !inverses.isEmpty else { break }
                for target in targets {
                    guard var related = current(target) else { continue }
                    for inverse in inverses {
                        switch related[inverse] {
                        case .reference(let back) where back == identifier: related[inverse] = .null
                        case .references(let backs): related[inverse] = .references(backs.filter { $0 != identifier })
                        default: break
                        }
                    }
                    set(target, related)
                }
            case .noAction:
                break
            }
        }
        set(identifier, nil)
    }
}

extension SaveChangesWorkspace {
    /// The models a save inserted and updated, each with what it held before the save (`nil`
    /// for a new model), in the order the save took them: the inserts, then the updates. An
    /// insert given a minted identifier held nothing, so only the others' earlier snapshots
    /// are kept (a bulk insert lists its identifiers once, in `inserts`).
    struct SavedModels<Inserts: Sequence<(PersistentIdentifier, isMinted: Bool)>>: Sequence {
        /// Each insert's permanent identifier, and whether it was minted.
        let inserts: Inserts
        /// What each insert whose identifier was not minted held before, in order.
        let previousOfUnminted: [DefaultSnapshot?]
        /// The updated models and what each held before.
        let updated: [(PersistentIdentifier, previous: DefaultSnapshot?)]

        func makeIterator() -> Iterator { Iterator(models: self, inserts: inserts.makeIterator()) }

        struct Iterator: IteratorProtocol {
            let models: SavedModels
            var inserts: Inserts.Iterator
            var unminted = 0
            var update = 0

            mutating func next() -> (PersistentIdentifier, previous: DefaultSnapshot?)? {
                if let (identifier, isMinted) = inserts.next() {
                    if isMinted { return (identifier, nil) }
                    unminted += 1
                    return (identifier, models.previousOfUnminted[unminted - 1])
                }
                guard update < models.updated.count else { return nil }
                update += 1
                return models.updated[update - 1]
            }
        }
    }
}
