import Foundation
import TripDoc

extension DocumentPatch {
    /// How a patch is applied.
    public struct ApplyOptions: Sendable {
        /// Apply the patch backwards: to its B, giving its A.
        public var reverse: Bool
        /// Skip the changes that do not hold (reported in ``ApplyOutcome/skipped``) instead of
        /// refusing the whole patch.
        public var partial: Bool
        /// The author of the history transaction that records the change.
        public var author: String
        /// The transaction's time.
        public var timestamp: Date

        /// Creates options.
        public init(reverse: Bool = false, partial: Bool = false, author: String = "tripdoc-patch", timestamp: Date = Date()) {
            self.reverse = reverse
            self.partial = partial
            self.author = author
            self.timestamp = timestamp
        }
    }

    /// What applying a patch did.
    public struct ApplyOutcome: Sendable {
        /// The changes that did not hold and were left out (only with ``ApplyOptions/partial``).
        public var skipped: [PatchConflict] = []
        /// Objects inserted.
        public var added = 0
        /// Objects deleted (as the patch names them; cascades not counted).
        public var removed = 0
        /// Objects updated.
        public var changed = 0
        /// The added objects the document holds under other identifiers than the patch gives
        /// them (new keys): the patch's identifier → the document's.
        public var newIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    }

    /// One change of a patch, named in its A's terms: what a merge leaves out.
    struct Item: Hashable {
        var entity: String
        var key: String
        var operation: PatchConflict.Operation
        var property: String?
    }

    /// How a merge applies the other side's patch: values already as it wants them are left,
    /// objects already removed are skipped, old values are not checked (the merge found the
    /// conflicts), `excluded` changes are left out, and an added object whose key the document
    /// holds or its history names gets a new key.
    struct MergeRules {
        var excluded: Set<Item> = []
        /// The document's integrity problems, when the merge has checked it already.
        var problems: [IntegrityProblem]?
    }

    /// Applies the patch to `document` (read from `path`, which errors name) through the save
    /// engine: each change is checked against the old value it expects, the result is checked
    /// like any save (integrity, uniqueness, delete rules) and recorded as one history
    /// transaction by `options.author`. Either the whole patch applies (less the skipped
    /// changes, with `partial`) or the document is unchanged.
    ///
    /// Added objects keep their keys when the patch is between versions of one store (so the
    /// result diffs by key as identical to B); otherwise they get new keys in the document's
    /// store, references to them rewritten.
    ///
    /// - Throws: ``PatchError``: `wrongStore`, `wrongSchemaVersion`, `unknownProperty`,
    ///   `foreignReference` (the patch is not for this document), `stale` (a change does not
    ///   hold), `refused` (the result breaks a rule of the schema);
    ///   ``TripDocError/documentHasProblems(path:problems:)`` when the document has integrity
    ///   problems already.
    @discardableResult
    public func apply(to document: inout Document, path: String, options: ApplyOptions = ApplyOptions()) throws -> ApplyOutcome {
        try apply(
            to: &document, path: path, reverse: options.reverse, partial: options.partial, author: options.author,
            timestamp: options.timestamp, merging: nil)
    }

    func apply(
        to document: inout Document, path: String, reverse: Bool, partial: Bool, author: String, timestamp: Date,
        merging rules: MergeRules?
    ) throws -> ApplyOutcome {
        let patch = reverse ? reversed : self
        let source = patch.a
        let target = patch.b
        guard document.storeIdentifier == source.storeIdentifier else {
            throw PatchError.wrongStore(
                path: path, found: document.storeIdentifier, expected: source.storeIdentifier, reverse: reverse)
        }
        guard document.schema.version.description == source.schemaVersion else {
            throw PatchError.wrongSchemaVersion(path: path, found: document.schema.version.description, expected: source.schemaVersion)
        }
        // A document with problems is refused as convert refuses it: a save could not tell the
        // problems it found from the ones the patch made.
        let problems = rules?.problems ?? IntegrityChecker().problems(in: document)
        guard problems.isEmpty else { throw TripDocError.documentHasProblems(path: path, problems: problems) }
        let entities = document.schema.entitiesByName
        let sameStore = source.storeIdentifier == target.storeIdentifier
        let entityNames = patch.entities.keys.sorted()
        for name in entityNames {
            guard let entity = entities[name] else { throw PatchError.unknownProperty(path: path, entity: name, property: nil) }
            let changes = patch.entities[name]!
            let known = Set(entity.propertyNames)
            let named = (changes.added + changes.removed).flatMap(\.values.keys) + changes.changed.flatMap(\.properties.keys)
            if let unknown = named.first(where: { !known.contains($0) }) {
                throw PatchError.unknownProperty(path: path, entity: name, property: unknown)
            }
        }

        // The document's objects by identifier, and the keys its history names (a merge gives
        // an added object whose key was used before a new one).
        // Only the objects the patch names are looked up: one pass that hashes each identifier
        // once, rather than a table of every object.
        var wanted: Set<PersistentIdentifier> = []
        for (name, changes) in patch.entities {
            for object in changes.removed {
                wanted.insert(PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: name, primaryKey: object.key))
            }
            for object in changes.changed {
                wanted.insert(PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: name, primaryKey: object.a))
            }
            if sameStore {
                for object in changes.added {
                    wanted.insert(PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: name, primaryKey: object.key))
                }
            }
        }
        var current: [PersistentIdentifier: Int] = [:]
        current.reserveCapacity(wanted.count)
        for (index, snapshot) in document.snapshots.enumerated() where wanted.contains(snapshot.persistentIdentifier) {
            current[snapshot.persistentIdentifier] = index
        }
        var named: Set<PersistentIdentifier> = []
        if rules != nil {
            for transaction in document.history.transactions {
                for change in transaction.changes { named.insert(change.changedPersistentIdentifier) }
            }
        }
        func value(of id: PersistentIdentifier, _ property: String) -> SnapshotValue? {
            current[id].map { document.snapshots[$0][property] ?? .null }
        }

        // Added objects: the identifier each is inserted under (its own, kept, or a temporary
        // one the engine replaces with a new key).
        var conflicts: [PatchConflict] = []
        var inserted: [PersistentIdentifier: PersistentIdentifier] = [:]
        var skippedInserts: Set<PersistentIdentifier> = []
        for name in entityNames {
            for object in patch.entities[name]!.added {
                let id = PersistentIdentifier(storeIdentifier: target.storeIdentifier, entityName: name, primaryKey: object.key)
                let held = current[id] != nil || named.contains(id)
                if sameStore, current[id] != nil, rules == nil {
                    conflicts.append(PatchConflict(object: id, operation: .add, kind: .objectExists))
                    skippedInserts.insert(id)
                }
                inserted[id] = sameStore && !held ? id : .temporary(entityName: name, primaryKey: "patch-\(object.key)")
            }
        }
        /// A reference of the patch in the document's terms.
        func translate(_ value: SnapshotValue) throws -> SnapshotValue {
            guard !value.referencedIdentifiers.isEmpty else { return value }
            var failure: PatchError?
            let result = value.remappingReferences { id in
                if let mapped = inserted[id] { return mapped }
                if id.storeIdentifier == source.storeIdentifier { return id }
                if id.storeIdentifier == target.storeIdentifier {
                    let key = patch.entities[id.entityName]?.keys[id.primaryKey] ?? id.primaryKey
                    return PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: id.entityName, primaryKey: key)
                }
                failure = PatchError.foreignReference(id)
                return id
            }
            if let failure { throw failure }
            return result
        }
        func comparable(_ value: SnapshotValue) -> SnapshotValue {
            if case .references(let ids) = value { return ids.isEmpty ? .null : .references(ids.sorted()) }
            return value
        }
        func excluded(_ item: Item) -> Bool { rules?.excluded.contains(item) ?? false }

        var request = DataStoreSaveChangesRequest<DefaultSnapshot>(editingState: EditingState(author: author))
        var outcome = ApplyOutcome()
        var deleting: Set<PersistentIdentifier> = []
        for name in entityNames {
            let entity = entities[name]!
            let changes = patch.entities[name]!
            for object in changes.removed {
                let id = PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: name, primaryKey: object.key)
                if excluded(Item(entity: name, key: object.key, operation: .remove)) { continue }
                guard let index = current[id] else {
                    if rules == nil { conflicts.append(PatchConflict(object: id, operation: .remove, kind: .objectMissing)) }
                    continue
                }
                if rules == nil {
                    var holds = true
                    for property in entity.propertyNames {
                        let expected = comparable(try translate(object.values[property] ?? .null))
                        let found = document.snapshots[index][property] ?? .null
                        if expected != comparable(found) {
                            conflicts.append(
                                PatchConflict(
                                    object: id, property: property, operation: .remove,
                                    kind: .valueDiffers(expected: expected, found: found)))
                            holds = false
                            break
                        }
                    }
                    if !holds { continue }
                }
                deleting.insert(id)
                request.deleted.append(document.snapshots[index])
                outcome.removed += 1
            }
            for object in changes.changed {
                let id = PersistentIdentifier(storeIdentifier: source.storeIdentifier, entityName: name, primaryKey: object.a)
                guard let index = current[id] else {
                    if rules == nil || !object.properties.keys.allSatisfy({ excluded(Item(entity: name, key: object.a, operation: .change, property: $0)) }) {
                        conflicts.append(PatchConflict(object: id, operation: .change, kind: .objectMissing))
                    }
                    continue
                }
                var snapshot = document.snapshots[index]
                var changedAny = false
                for (property, change) in object.properties.sorted(by: { $0.key < $1.key }) {
                    if excluded(Item(entity: name, key: object.a, operation: .change, property: property)) { continue }
                    let found = snapshot[property] ?? .null
                    let new = try translate(change.new)
                    if rules != nil {
                        if comparable(found) == comparable(new) { continue }
                    } else {
                        let expected = try translate(change.old)
                        guard comparable(found) == comparable(expected) else {
                            conflicts.append(
                                PatchConflict(
                                    object: id, property: property, operation: .change,
                                    kind: .valueDiffers(expected: expected, found: found)))
                            continue
                        }
                    }
                    snapshot[property] = new
                    changedAny = true
                }
                if changedAny {
                    request.updated.append(snapshot)
                    outcome.changed += 1
                }
            }
        }
        for name in entityNames {
            let entity = entities[name]!
            let added = patch.entities[name]!.added
            guard !added.isEmpty else { continue }
            // Added objects must not collide with the objects the document keeps.
            var index: [[String]: [[SnapshotValue]: PersistentIdentifier]] = [:]
            if rules == nil, !entity.effectiveUniquenessConstraints.isEmpty {
                for snapshot in document.snapshots
                where snapshot.entityName == name && !deleting.contains(snapshot.persistentIdentifier) {
                    for constraint in entity.effectiveUniquenessConstraints {
                        let key = constraint.map { comparable(snapshot[$0] ?? .null) }
                        if !key.contains(.null) { index[constraint, default: [:]][key] = snapshot.persistentIdentifier }
                    }
                }
            }
            for object in added {
                let id = PersistentIdentifier(storeIdentifier: target.storeIdentifier, entityName: name, primaryKey: object.key)
                if skippedInserts.contains(id) || excluded(Item(entity: name, key: object.key, operation: .add)) { continue }
                var values: [String: SnapshotValue] = [:]
                for (property, value) in object.values { values[property] = try translate(value) }
                if rules == nil {
                    let collision = entity.effectiveUniquenessConstraints.lazy.compactMap { constraint in
                        let key = constraint.map { comparable(values[$0] ?? .null) }
                        return key.contains(.null) ? nil : index[constraint]?[key].map { (constraint, $0) }
                    }.first
                    if let (constraint, existing) = collision {
                        conflicts.append(
                            PatchConflict(
                                object: id, operation: .add, kind: .uniquenessCollision(constraint: constraint, existing: existing)))
                        continue
                    }
                }
                request.inserted.append(DefaultSnapshot(persistentIdentifier: inserted[id]!, values: values))
                outcome.added += 1
            }
        }
        if let first = conflicts.first, !partial { throw PatchError.stale(first) }
        outcome.skipped = conflicts
        do {
            let result = try document.applySaveChanges(request, timestamp: timestamp, keepingInsertedIdentifiers: true)
            for (id, sent) in inserted {
                if let saved = result.remappedIdentifiers[sent], saved != id { outcome.newIdentifiers[id] = saved }
            }
        } catch let error as SaveChangesError {
            throw PatchError.refused(error)
        }
        return outcome
    }
}
