import Foundation

extension Document {
    /// Applies one save to the document, as every archive store does: inserted snapshots get
    /// permanent identifiers (or, when they match an existing model on a uniqueness constraint,
    /// update it: an upsert), references to them are rewritten, updates replace, deletes remove
    /// and follow the delete rules. Either the whole save applies or nothing does.
    ///
    /// A save that changes anything is recorded in ``history`` as one transaction: inserts,
    /// then updates (with the names and new values of the changed attributes), then deletes
    /// (cascades included, each with a tombstone of its `.preserveValueOnDeletion` attributes).
    ///
    /// - Parameters:
    ///   - request: The inserted, updated and deleted snapshots, and the saving context's state
    ///     (its author names the transaction's).
    ///   - timestamp: The transaction's time.
    ///   - processIdentifier: The saving process, if known.
    ///   - bundleIdentifier: The saving program, if known.
    ///   - keepingInsertedIdentifiers: An inserted snapshot whose identifier is a permanent one of
    ///     this store that the document does not hold keeps it (the entity's key sequence moves
    ///     past it), instead of getting a new one; one the document holds gets a new key, with
    ///     references to it rewritten, instead of being refused. Inserts are then never upserts:
    ///     one with the values of another model on a uniqueness constraint, as the whole save
    ///     leaves them, is refused. What applying a patch and merging two lines of work need.
    /// - Returns: The store identifier, the temporary → permanent identifier map and the
    ///   snapshots the context should re-register (upserted models).
    /// - Throws: ``SaveChangesError``; the document is unchanged.
    @discardableResult
    public mutating func applySaveChanges(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>, timestamp: Date = Date(),
        processIdentifier: String? = nil, bundleIdentifier: String? = nil, keepingInsertedIdentifiers: Bool = false
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        // The history is set aside while the save is worked out, so that appending to it does
        // not copy every transaction the workspace's copy of the document would share.
        var kept = history
        history = DocumentHistory()
        var working = SaveChangesWorkspace(document: self, keysInHistory: kept)
        working.keepsInsertedIdentifiers = keepingInsertedIdentifiers
        let result: DataStoreSaveChangesResult<DefaultSnapshot>
        do {
            result = try working.apply(request)
        } catch {
            history = kept
            throw error
        }
        self = working.finishedDocument()
        if !working.changes.isEmpty {
            kept.transactions.append(
                HistoryTransactionRecord(
                    transactionIdentifier: kept.nextTransactionIdentifier, author: request.editingState.author,
                    timestamp: timestamp, bundleIdentifier: bundleIdentifier, processIdentifier: processIdentifier,
                    changes: working.changes))
        }
        history = kept
        return result
    }
}

/// The state of one save while it is applied; discarded if the save fails.
private struct SaveChangesWorkspace {
    var document: Document
    var byIdentifier: [PersistentIdentifier: DefaultSnapshot] = [:]
    var insertionOrder: [PersistentIdentifier] = []
    var entities: [String: Schema.Entity]
    var uniqueIndexes: [String: [[String]: [[SnapshotValue]: PersistentIdentifier]]] = [:]
    /// What the save changed, in order, for the history.
    var changes: [HistoryChangeRecord] = []
    /// The models the request deletes (as it names them).
    var deleting: Set<PersistentIdentifier> = []
    /// Whether inserts with free permanent identifiers of this store keep them.
    var keepsInsertedIdentifiers = false
    /// Identifiers kept by this save's inserts, which minting must pass over.
    var kept: Set<PersistentIdentifier> = []

    /// The history of the document, consulted only when a sequence is missing (keys named in
    /// history are never handed out again).
    let keysInHistory: DocumentHistory

    init(document: Document, keysInHistory: DocumentHistory) {
        self.document = document
        self.entities = document.schema.entitiesByName
        self.keysInHistory = keysInHistory
    }

    var storeIdentifier: String { document.header.storeIdentifier }

    mutating func apply(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        byIdentifier.reserveCapacity(document.snapshots.count + request.inserted.count)
        for snapshot in document.snapshots {
            guard byIdentifier.updateValue(snapshot, forKey: snapshot.persistentIdentifier) == nil else {
                throw SaveChangesError.documentHasProblems(IntegrityChecker().problems(in: document))
            }
        }

        // Models this save deletes cannot take an insert as an upsert.
        deleting = Set(request.deleted.map(\.persistentIdentifier))

        // Inserts: decide every new identifier first, so references among them can be rewritten.
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        var upserted: Set<PersistentIdentifier> = []
        var pendingInserts: [(PersistentIdentifier, DefaultSnapshot)] = []
        if keepsInsertedIdentifiers {
            // Kept identifiers first, so that the keys minted below pass over all of them.
            for snapshot in request.inserted {
                let original = snapshot.persistentIdentifier
                guard !original.isTemporary, original.storeIdentifier == storeIdentifier, byIdentifier[original] == nil,
                    entities[original.entityName] != nil, kept.insert(original).inserted
                else { continue }
                if let number = PrimaryKeyOrder.canonicalNumber(original.primaryKey), number < Int64.max - 2,
                    number >= document.header.nextPrimaryKeys[original.entityName] ?? 0
                {
                    if document.header.nextPrimaryKeys[original.entityName] == nil {
                        _ = try mintIdentifier(for: original.entityName)
                    }
                    document.header.nextPrimaryKeys[original.entityName] = max(
                        number + 1, document.header.nextPrimaryKeys[original.entityName] ?? 0)
                }
            }
        }
        for snapshot in request.inserted {
            let original = snapshot.persistentIdentifier
            guard let entity = entities[original.entityName] else { throw SaveChangesError.unknownEntity(original) }
            guard remapped[original] == nil else { throw SaveChangesError.duplicateIdentifier(original) }
            if !keepsInsertedIdentifiers, !original.isTemporary, original.storeIdentifier == storeIdentifier,
                byIdentifier[original] != nil
            {
                throw SaveChangesError.duplicateIdentifier(original)
            }
            // A patch's or merge's inserts are new objects, never upserts: their uniqueness is
            // checked once the whole save is in place (an update in the same save may move an
            // object's values out of their way).
            if !keepsInsertedIdentifiers, let existing = try existingMatch(for: snapshot, entity: entity) {
                remapped[original] = existing
                upserted.insert(existing)
                pendingInserts.append((existing, snapshot))
                continue
            }
            let permanent = kept.contains(original) ? original : try mintIdentifier(for: entity.name)
            remapped[original] = permanent
            pendingInserts.append((permanent, snapshot))
            if !keepsInsertedIdentifiers { registerUniqueKeys(of: snapshot, as: permanent, entity: entity) }
        }
        var reregister: [PersistentIdentifier: DefaultSnapshot] = [:]
        var saved: [(PersistentIdentifier, previous: DefaultSnapshot?)] = []
        for (identifier, snapshot) in pendingInserts {
            let entity = entities[identifier.entityName]!
            var copy = snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped)
            if let existing = byIdentifier[identifier] { copy = Self.upsert(copy, onto: existing, entity: entity) }
            let rewritten = try normalized(copy, entity: entity, reportedAs: snapshot.persistentIdentifier)
            saved.append((identifier, byIdentifier[identifier]))
            if let previous = byIdentifier[identifier] {
                try checkUniqueness(of: rewritten, replacing: previous, entity: entity)
                byIdentifier[identifier] = rewritten
                recordUpdate(from: previous, to: rewritten, entity: entity)
            } else {
                byIdentifier[identifier] = rewritten
                insertionOrder.append(identifier)
                changes.append(.insert(identifier))
            }
            if upserted.contains(identifier) { reregister[identifier] = rewritten }
        }

        for snapshot in request.updated {
            let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            guard let entity = entities[identifier.entityName] else { throw SaveChangesError.unknownEntity(identifier) }
            guard let previous = byIdentifier[identifier] else {
                throw SaveChangesError.unknownIdentifier(identifier, operation: "update")
            }
            let rewritten = try normalized(
                snapshot.copy(persistentIdentifier: identifier, remappedIdentifiers: remapped), entity: entity,
                reportedAs: identifier)
            try checkUniqueness(of: rewritten, replacing: previous, entity: entity)
            saved.append((identifier, previous))
            byIdentifier[identifier] = rewritten
            recordUpdate(from: previous, to: rewritten, entity: entity)
        }
        keepInversesConsistent(after: saved)

        var deleted: Set<PersistentIdentifier> = []
        let requested = Set(request.deleted.map { remapped[$0.persistentIdentifier] ?? $0.persistentIdentifier })
        for snapshot in request.deleted {
            let identifier = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            guard byIdentifier[identifier] != nil || deleted.contains(identifier) else {
                throw SaveChangesError.unknownIdentifier(identifier, operation: "delete")
            }
            try delete(identifier, alsoDeleting: requested, deleted: &deleted)
        }

        if keepsInsertedIdentifiers {
            try checkUniquenessOfInserts(Set(pendingInserts.map(\.0)).subtracting(deleted), reported: remapped)
        }

        let originals = Dictionary(
            pendingInserts.map { ($0.0, $0.1.persistentIdentifier) }, uniquingKeysWith: { first, _ in first })
        try checkReferences(of: Array(Set(pendingInserts.map(\.0)).subtracting(deleted)), reported: originals)
        try checkReferences(
            of: request.updated.map { remapped[$0.persistentIdentifier] ?? $0.persistentIdentifier }
                .filter { !deleted.contains($0) })

        return DataStoreSaveChangesResult(
            for: storeIdentifier, remappedIdentifiers: remapped, snapshotsToReregister: reregister)
    }

    func finishedDocument() -> Document {
        var result = document
        var kept: [DefaultSnapshot] = []
        kept.reserveCapacity(byIdentifier.count)
        for snapshot in document.snapshots {
            if let current = byIdentifier[snapshot.persistentIdentifier] { kept.append(current) }
        }
        let inserted = insertionOrder.compactMap { byIdentifier[$0] }
            .sorted { $0.persistentIdentifier < $1.persistentIdentifier }
        // The document's snapshots are in order already (as read, or as the last save left
        // them): the few inserted ones are merged in, rather than everything sorted again.
        result.snapshots = Self.merged(Document.ordered(kept), inserted)
        return result
    }

    /// The snapshots of two runs sorted by identifier, in one sorted run.
    private static func merged(_ a: [DefaultSnapshot], _ b: [DefaultSnapshot]) -> [DefaultSnapshot] {
        guard !b.isEmpty else { return a }
        var result: [DefaultSnapshot] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if b[j].persistentIdentifier < a[i].persistentIdentifier {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
            }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }

    /// What an insert that matches `existing` on a uniqueness constraint leaves (an upsert, as
    /// SwiftData's constraint merge with the inserted object's values winning): the values the
    /// insert holds replace the existing model's; a property the insert leaves out, and a
    /// relationship it holds no destination in (a `nil` to-one, an empty to-many: what a new
    /// object has for a relationship it never set), keep the existing model's value, so an
    /// upsert never empties the existing model's relationships. To empty them, update the model.
    static func upsert(_ inserted: DefaultSnapshot, onto existing: DefaultSnapshot, entity: Schema.Entity) -> DefaultSnapshot {
        var values = inserted.values
        for name in entity.propertyNames {
            switch values[name] {
            case nil: values[name] = existing.values[name]
            case .null?, .references([])? where entity.relationship(named: name) != nil:
                values[name] = existing.values[name] ?? values[name]
            default: break
            }
        }
        return DefaultSnapshot(persistentIdentifier: inserted.persistentIdentifier, values: values)
    }

    /// Records an update: the properties whose values differ, and the new values of the
    /// attributes among them (nil values omitted). Nothing when nothing differs.
    mutating func recordUpdate(from previous: DefaultSnapshot, to current: DefaultSnapshot, entity: Schema.Entity) {
        let changed = entity.propertyNames.filter { (previous.values[$0] ?? .null) != (current.values[$0] ?? .null) }
        guard !changed.isEmpty else { return }
        var values: [String: SnapshotValue] = [:]
        for name in changed where entity.attribute(named: name) != nil {
            if let value = current.values[name], value != .null { values[name] = value }
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
    mutating func keepInversesConsistent(after saved: [(PersistentIdentifier, previous: DefaultSnapshot?)]) {
        let recorded = Set(changes.map(\.changedPersistentIdentifier))
        var touched: [PersistentIdentifier: DefaultSnapshot] = [:]
        func current(_ id: PersistentIdentifier) -> DefaultSnapshot? { byIdentifier[id] }
        func edit(_ id: PersistentIdentifier, _ change: (inout DefaultSnapshot) -> Void) {
            guard var snapshot = byIdentifier[id] else { return }
            if touched[id] == nil { touched[id] = snapshot }
            change(&snapshot)
            byIdentifier[id] = snapshot
        }
        func remove(_ source: PersistentIdentifier, from relationship: Schema.Relationship, of target: PersistentIdentifier) {
            edit(target) { snapshot in
                switch snapshot.values[relationship.name] {
                case .reference(source): snapshot.values[relationship.name] = .null
                case .references(let list) where list.contains(source):
                    snapshot.values[relationship.name] = .references(list.filter { $0 != source })
                default: break
                }
            }
        }
        for (id, previous) in saved {
            guard let snapshot = current(id), let entity = entities[id.entityName] else { continue }
            for relationship in entity.relationships {
                let others = counterparts(of: relationship, in: entity)
                guard let inverse = others.first else { continue }
                // Relationships of this model holding the same other side (several sharing an
                // inverse): a destination one of them still holds keeps the model in its inverse.
                let siblings = entity.relationships.filter { sibling in
                    sibling.name != relationship.name
                        && counterparts(of: sibling, in: entity).contains { other in others.contains { $0.name == other.name } }
                }
                let before = previous?.values[relationship.name]?.referencedIdentifiers ?? []
                let after = snapshot.values[relationship.name]?.referencedIdentifiers ?? []
                for target in before where !after.contains(target) {
                    let stillHeld = siblings.contains { snapshot.values[$0.name]?.referencedIdentifiers.contains(target) == true }
                    guard !stillHeld else { continue }
                    for other in others { remove(id, from: other, of: target) }
                }
                for target in after where !before.contains(target) {
                    guard let destination = current(target) else { continue }
                    // A shared inverse gaining a model that already holds the destination in one
                    // of the relationships sharing it: nothing to add.
                    if others.count > 1,
                        others.contains(where: { destination.values[$0.name]?.referencedIdentifiers.contains(id) == true })
                    {
                        continue
                    }
                    switch destination.values[inverse.name] {
                    case .references(let list):
                        if !list.contains(id) { edit(target) { $0.values[inverse.name] = .references(list + [id]) } }
                    case .reference(id):
                        break
                    case .reference(let other):
                        // The destination leaves the model it belonged to.
                        remove(target, from: relationship, of: other)
                        edit(target) { $0.values[inverse.name] = .reference(id) }
                    default:
                        if !inverse.isToMany { edit(target) { $0.values[inverse.name] = .reference(id) } }
                        else { edit(target) { $0.values[inverse.name] = .references([id]) } }
                    }
                }
            }
        }
        for (id, previous) in touched.sorted(by: { $0.key < $1.key }) where !recorded.contains(id) {
            guard let entity = entities[id.entityName], let snapshot = byIdentifier[id] else { continue }
            recordUpdate(from: previous, to: snapshot, entity: entity)
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

    /// A new permanent identifier from the entity's sequence. A sequence that is missing, or
    /// lower than a key in use (a document edited by hand), is moved past the keys in use:
    /// minting never reuses an identifier.
    mutating func mintIdentifier(for entityName: String) throws -> PersistentIdentifier {
        /// Keys at or above this cannot be minted: the next key must still fit the header.
        let limit = Int64.max - 2
        var next: Int64
        if let stored = document.header.nextPrimaryKeys[entityName] {
            next = stored
        } else {
            let inUse = document.snapshots.lazy.map(\.persistentIdentifier)
                .filter { $0.entityName == entityName }.map(\.primaryKey)
                .filter(PrimaryKeyOrder.isCanonicalNumber).compactMap { Int64($0) }.max() ?? 0
            let inHistory = keysInHistory.transactions.lazy.flatMap(\.changes).map(\.changedPersistentIdentifier)
                .filter { $0.entityName == entityName }.map(\.primaryKey).filter(PrimaryKeyOrder.isCanonicalNumber)
                .compactMap { Int64($0) }.max() ?? 0
            guard max(inUse, inHistory) < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
            next = max(inUse, inHistory) + 1
        }
        var identifier = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: String(next))
        while byIdentifier[identifier] != nil || kept.contains(identifier) {
            guard next < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
            next += 1
            identifier = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: String(next))
        }
        guard next < limit else { throw SaveChangesError.primaryKeysExhausted(entity: entityName) }
        document.header.nextPrimaryKeys[entityName] = next + 1
        return identifier
    }

    // MARK: Values

    /// The snapshot with every property present (`nil` as ``SnapshotValue/null``, defaults
    /// filled in), checked against the schema. Errors name the model as `reportedAs` (the
    /// identifier the caller knows it by).
    func normalized(
        _ snapshot: DefaultSnapshot, entity: Schema.Entity, reportedAs identifier: PersistentIdentifier
    ) throws -> DefaultSnapshot {
        var values = snapshot.values
        let known = Set(entity.propertyNames)
        for name in values.keys where !known.contains(name) {
            throw SaveChangesError.unknownProperty(identifier, property: name)
        }
        for attribute in entity.attributes {
            let value = values[attribute.name] ?? .null
            if value == .null {
                if attribute.isOptional {
                    values[attribute.name] = .null
                } else if let defaultValue = attribute.defaultValue {
                    values[attribute.name] = defaultValue
                } else {
                    throw SaveChangesError.missingValue(identifier, property: attribute.name)
                }
            } else if !value.fits(attribute.type) {
                throw SaveChangesError.valueDoesNotFit(
                    identifier, property: attribute.name, expected: attribute.type.name, found: value.kindDescription)
            }
        }
        for relationship in entity.relationships {
            let value = values[relationship.name] ?? (relationship.isToMany ? .references([]) : .null)
            switch (relationship.isToMany, value) {
            case (false, .null), (false, .reference), (true, .references): values[relationship.name] = value
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
        return DefaultSnapshot(persistentIdentifier: snapshot.persistentIdentifier, values: values)
    }

    /// Throws if a snapshot among `identifiers` refers to a model the store does not hold;
    /// the error names the model by the identifier `reported` maps it to, if any.
    func checkReferences(
        of identifiers: [PersistentIdentifier], reported: [PersistentIdentifier: PersistentIdentifier] = [:]
    ) throws {
        for identifier in identifiers.sorted() {
            guard let snapshot = byIdentifier[identifier] else { continue }
            for (property, value) in snapshot.values.sorted(by: { $0.key < $1.key }) {
                for target in value.referencedIdentifiers where byIdentifier[target] == nil {
                    throw SaveChangesError.danglingReference(
                        reported[identifier] ?? identifier, property: property, target: target)
                }
            }
        }
    }

    // MARK: Uniqueness

    mutating func existingMatch(for snapshot: DefaultSnapshot, entity: Schema.Entity) throws -> PersistentIdentifier? {
        for constraint in entity.effectiveUniquenessConstraints {
            guard let key = Self.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            if let existing = index(for: entity, constraint: constraint)[key] { return existing }
        }
        return nil
    }

    mutating func registerUniqueKeys(of snapshot: DefaultSnapshot, as identifier: PersistentIdentifier, entity: Schema.Entity) {
        for constraint in entity.effectiveUniquenessConstraints {
            guard let key = Self.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            _ = index(for: entity, constraint: constraint)
            uniqueIndexes[entity.name]![constraint]![key] = identifier
        }
    }

    mutating func checkUniqueness(of snapshot: DefaultSnapshot, replacing previous: DefaultSnapshot, entity: Schema.Entity) throws {
        for constraint in entity.effectiveUniquenessConstraints {
            let index = index(for: entity, constraint: constraint)
            if let oldKey = Self.uniqueKey(of: previous, constraint: constraint), index[oldKey] == snapshot.persistentIdentifier {
                uniqueIndexes[entity.name]![constraint]![oldKey] = nil
            }
            guard let key = Self.uniqueKey(of: snapshot, constraint: constraint) else { continue }
            if let existing = uniqueIndexes[entity.name]![constraint]![key], existing != snapshot.persistentIdentifier {
                throw SaveChangesError.uniquenessViolated(snapshot.persistentIdentifier, constraint: constraint, existing: existing)
            }
            uniqueIndexes[entity.name]![constraint]![key] = snapshot.persistentIdentifier
        }
    }

    /// Throws if a model among `inserted` has the values of another model of its entity on a
    /// uniqueness constraint, as the save leaves them; the error names the insert as the request
    /// did (`reported` maps request identifiers to the ones given).
    func checkUniquenessOfInserts(
        _ inserted: Set<PersistentIdentifier>, reported: [PersistentIdentifier: PersistentIdentifier]
    ) throws {
        let requestNames = Dictionary(reported.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for entityName in Set(inserted.map(\.entityName)).sorted() {
            guard let entity = entities[entityName], !entity.effectiveUniquenessConstraints.isEmpty else { continue }
            for constraint in entity.effectiveUniquenessConstraints {
                var seen: [[SnapshotValue]: PersistentIdentifier] = [:]
                for (identifier, snapshot) in byIdentifier where identifier.entityName == entityName {
                    guard let key = Self.uniqueKey(of: snapshot, constraint: constraint) else { continue }
                    guard let other = seen.updateValue(identifier, forKey: key) else { continue }
                    let (new, existing) = inserted.contains(identifier) ? (identifier, other) : (other, identifier)
                    throw SaveChangesError.uniquenessViolated(requestNames[new] ?? new, constraint: constraint, existing: existing)
                }
            }
        }
    }

    /// The index of existing models by their values on `constraint`, built on first use.
    mutating func index(for entity: Schema.Entity, constraint: [String]) -> [[SnapshotValue]: PersistentIdentifier] {
        if let existing = uniqueIndexes[entity.name]?[constraint] { return existing }
        var index: [[SnapshotValue]: PersistentIdentifier] = [:]
        for (identifier, snapshot) in byIdentifier where identifier.entityName == entity.name && !deleting.contains(identifier) {
            if let key = Self.uniqueKey(of: snapshot, constraint: constraint) { index[key] = identifier }
        }
        uniqueIndexes[entity.name, default: [:]][constraint] = index
        return index
    }

    /// The values of `constraint`'s properties, or `nil` when one is missing or `nil` (models
    /// without a value never collide).
    static func uniqueKey(of snapshot: DefaultSnapshot, constraint: [String]) -> [SnapshotValue]? {
        var key: [SnapshotValue] = []
        for name in constraint {
            guard let value = snapshot.values[name], value != .null else { return nil }
            key.append(value)
        }
        return key
    }

    // MARK: Deletion

    mutating func delete(
        _ identifier: PersistentIdentifier, alsoDeleting requested: Set<PersistentIdentifier>,
        deleted: inout Set<PersistentIdentifier>
    ) throws {
        guard let snapshot = byIdentifier[identifier], deleted.insert(identifier).inserted else { return }
        let entity = entities[identifier.entityName]!
        var tombstone: [String: SnapshotValue] = [:]
        for attribute in entity.attributes where attribute.preservesValueOnDeletion {
            if let value = snapshot.values[attribute.name], value != .null { tombstone[attribute.name] = value }
        }
        changes.append(.delete(identifier, tombstone: tombstone))
        for relationship in entity.relationships {
            let targets = (snapshot.values[relationship.name] ?? .null).referencedIdentifiers
            switch relationship.deleteRule {
            case .deny:
                if let blocker = targets.first(where: { !requested.contains($0) && !deleted.contains($0) && byIdentifier[$0] != nil }) {
                    throw SaveChangesError.deleteDenied(identifier, relationship: relationship.name, related: blocker)
                }
            case .cascade:
                for target in targets { try delete(target, alsoDeleting: requested, deleted: &deleted) }
            case .nullify:
                let inverses = counterparts(of: relationship, in: entity).map(\.name)
                guard !inverses.isEmpty else { break }
                for target in targets {
                    guard var related = byIdentifier[target] else { continue }
                    for inverse in inverses {
                        switch related.values[inverse] {
                        case .reference(let back) where back == identifier: related.values[inverse] = .null
                        case .references(let backs): related.values[inverse] = .references(backs.filter { $0 != identifier })
                        default: break
                        }
                    }
                    byIdentifier[target] = related
                }
            case .noAction:
                break
            }
        }
        byIdentifier[identifier] = nil
    }
}
