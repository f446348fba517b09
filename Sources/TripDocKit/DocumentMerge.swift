import Foundation
import TripDoc

/// A three-way merge of two lines of work on one store, by the identity of objects: what base →
/// ours and base → theirs changed (two ``DocumentPatch``es) is combined, changes to different
/// objects or different properties of one object both kept; the same property changed two
/// ways, an object changed on one side and deleted on the other, objects added on both sides
/// that collide on a uniqueness constraint, and a reference to an object the other side deleted
/// are ``MergeConflict``s.
///
/// The merged document is ours with theirs' changes applied through the save engine (so it is
/// checked like any save), as one history transaction after ours' history. An object theirs
/// added whose key ours holds (or named once) gets a new key, references to it rewritten.
public struct DocumentMerge {
    /// A side of the merge.
    public enum Side: String, Sendable, CaseIterable {
        /// The line of work being merged into (git's `%A`).
        case ours
        /// The line of work merged in (git's `%B`).
        case theirs
    }

    /// The conflicts, in entity order (empty when the two lines combine).
    public var conflicts: [MergeConflict]
    /// The merged document: `nil` when there are conflicts and none was asked to be kept.
    public var document: Document?
    /// Theirs' changes (or with `keepConflicts: .theirs`, ours') applied to the other side.
    public var applied: DocumentPatch.ApplyOutcome?

    /// Merges `ours` and `theirs`, both descended from `base`.
    ///
    /// - Parameters:
    ///   - base: The document both sides descend from.
    ///   - ours: Our side, whose history the merged document continues.
    ///   - theirs: Their side.
    ///   - paths: The three documents' paths, named in errors.
    ///   - keepConflicts: Merge all the same, keeping this side's version of each conflict:
    ///     `.ours` applies theirs' changes but the conflicting ones to ours; `.theirs` applies
    ///     ours' changes but the conflicting ones to theirs.
    ///   - author: The merge transaction's author.
    ///   - timestamp: The merge transaction's time.
    /// - Throws: ``TripDocError/invalidArgument(_:)`` when the three are not one store with one
    ///   schema; ``PatchError/refused(_:)`` when the merged document breaks a rule of the schema.
    public init(
        base: Document, ours: Document, theirs: Document, paths: (base: String, ours: String, theirs: String),
        keepConflicts: Side? = nil, author: String = "tripdoc-merge", timestamp: Date = Date()
    ) throws {
        let (first, second) = TwoThreads.run({ [DocumentRecords(base)] }, { [DocumentRecords(theirs)] })
        try self.init(
            base: first[0], ours: ours, theirs: second[0], paths: paths, keepConflicts: keepConflicts, author: author,
            timestamp: timestamp, readTheirs: { theirs })
    }

    /// Merges `ours` and `theirs`, both descended from `base`, which are given as records (what
    /// comparing needs); `readTheirs` gives theirs whole when `keepConflicts` is `.theirs`.
    ///
    /// - Throws: As ``init(base:ours:theirs:paths:keepConflicts:author:timestamp:)``, and what
    ///   `readTheirs` throws.
    public init(
        base: DocumentRecords, ours: Document, theirs: DocumentRecords, paths: (base: String, ours: String, theirs: String),
        keepConflicts: Side? = nil, author: String = "tripdoc-merge", timestamp: Date = Date(),
        readTheirs: () throws -> Document
    ) throws {
        for (store, schema, path) in [(ours.storeIdentifier, ours.schema, paths.ours), (theirs.storeIdentifier, theirs.schema, paths.theirs)] {
            guard store == base.storeIdentifier else {
                throw TripDocError.invalidArgument(
                    "\(path) is store \(store), but \(paths.base) is store \(base.storeIdentifier): "
                        + "a merge combines versions of one store (tripdoc diff compares any two documents)")
            }
            guard schema == base.schema else {
                throw TripDocError.invalidArgument(
                    "\(path) has another schema than \(paths.base): a merge combines changes of content under one schema")
            }
        }
        let oursRecords = DocumentRecords(ours)
        // The two patches on one thread; on the other, the check that applying theirs' patch to
        // ours needs first (a document with problems is refused), which takes about as long.
        let (made, oursProblems) = TwoThreads.run(
            {
                Result {
                    (
                        try DocumentPatch(from: base, at: paths.base, to: oursRecords, at: paths.ours),
                        try DocumentPatch(from: base, at: paths.base, to: theirs, at: paths.theirs)
                    )
                }
            },
            { keepConflicts == .theirs ? nil : IntegrityChecker().problems(in: ours) })
        let (oursPatch, theirsPatch) = try made.get()
        conflicts = Self.conflicts(oursPatch, theirsPatch, ours: oursRecords, store: base.storeIdentifier)
        if !conflicts.isEmpty, keepConflicts == nil {
            document = nil
            applied = nil
            return
        }
        var merged = keepConflicts == .theirs ? try readTheirs() : ours
        let patch = keepConflicts == .theirs ? oursPatch : theirsPatch
        let excluded = Set(conflicts.flatMap { keepConflicts == .theirs ? $0.oursItems : $0.theirsItems })
        let transactionsBefore = merged.history.transactions.count
        let outcome = try patch.apply(
            to: &merged, path: keepConflicts == .theirs ? paths.theirs : paths.ours, reverse: false, partial: false,
            author: author, timestamp: timestamp, merging: DocumentPatch.MergeRules(excluded: excluded, problems: oursProblems))
        applied = outcome
        Self.keepHistory(
            of: keepConflicts == .theirs ? ours.history : theirs.history, since: base, in: &merged,
            before: transactionsBefore, added: patch, newIdentifiers: outcome.newIdentifiers)
        document = merged
    }

    /// Puts the transactions the merged-in side saved since `base` into `merged`'s history,
    /// after its own and before the merge's transaction (which starts at `before`), numbered on
    /// from its own. Identifiers follow the objects: an object the merge gave a new key is named
    /// by it, and one the side added and deleted again (not in the merge) whose key `merged`
    /// holds or named gets a key of its own past the entity's sequence.
    static func keepHistory(
        of side: DocumentHistory, since base: DocumentRecords, in merged: inout Document, before: Int,
        added patch: DocumentPatch, newIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    ) {
        let baseLast = max(base.history.transactions.last?.transactionIdentifier ?? 0, base.history.deletedThrough)
        let own = side.transactions.filter { $0.transactionIdentifier > baseLast }
        guard !own.isEmpty else { return }
        var addedByPatch: Set<PersistentIdentifier> = []
        for (entity, changes) in patch.entities {
            for object in changes.added {
                addedByPatch.insert(
                    PersistentIdentifier(storeIdentifier: patch.b.storeIdentifier, entityName: entity, primaryKey: object.key))
            }
        }
        var renamed = newIdentifiers
        // Only the objects the side's transactions name are looked up in the base (its records
        // are in primary-key order) and in the base's and the merged document's histories; the
        // identifiers the merged document holds or names, a table of every object, are made
        // only when a passing object needs a new key.
        var inBaseHistory: Set<PersistentIdentifier> = []
        var wanted: Set<PersistentIdentifier> = []
        for transaction in own {
            for change in transaction.changes where renamed[change.changedPersistentIdentifier] == nil {
                wanted.insert(change.changedPersistentIdentifier)
            }
        }
        wanted.subtract(addedByPatch)
        if !wanted.isEmpty {
            for transaction in base.history.transactions {
                for change in transaction.changes where wanted.contains(change.changedPersistentIdentifier) {
                    inBaseHistory.insert(change.changedPersistentIdentifier)
                }
            }
        }
        func inBase(_ id: PersistentIdentifier) -> Bool {
            inBaseHistory.contains(id) || base.record(for: id) != nil
        }
        var namedByMerged: Set<PersistentIdentifier>?
        func named() -> Set<PersistentIdentifier> {
            if let namedByMerged { return namedByMerged }
            var named = Set(merged.snapshots.map(\.persistentIdentifier))
            for transaction in merged.history.transactions { for change in transaction.changes { named.insert(change.changedPersistentIdentifier) } }
            namedByMerged = named
            return named
        }
        func identifier(_ id: PersistentIdentifier) -> PersistentIdentifier {
            if let known = renamed[id] { return known }
            guard !addedByPatch.contains(id), !inBase(id), named().contains(id) else { return id }
            var next = merged.header.nextPrimaryKeys[id.entityName] ?? 1
            var fresh = merged.identifier(entityName: id.entityName, primaryKey: String(next))
            while named().contains(fresh) {
                next += 1
                fresh = merged.identifier(entityName: id.entityName, primaryKey: String(next))
            }
            merged.header.nextPrimaryKeys[id.entityName] = next + 1
            namedByMerged!.insert(fresh)
            renamed[id] = fresh
            return fresh
        }
        var transactions = Array(merged.history.transactions[..<before])
        var nextIdentifier = max(transactions.last?.transactionIdentifier ?? 0, merged.history.deletedThrough) + 1
        for var transaction in own {
            transaction.transactionIdentifier = nextIdentifier
            nextIdentifier += 1
            transaction.changes = transaction.changes.map { $0.remapped(identifier) }
            transactions.append(transaction)
        }
        for var transaction in merged.history.transactions[before...] {
            transaction.transactionIdentifier = nextIdentifier
            nextIdentifier += 1
            transactions.append(transaction)
        }
        merged.history.transactions = transactions
    }

    /// The conflicts between base → ours and base → theirs (patches of one store, so keys
    /// name the same objects in both).
    static func conflicts(_ ours: DocumentPatch, _ theirs: DocumentPatch, ours oursRecords: DocumentRecords, store: String)
        -> [MergeConflict]
    {
        var conflicts: [MergeConflict] = []
        func id(_ entity: String, _ key: String) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
        }
        func render(_ value: SnapshotValue) -> String { PatchConflict.render(value) }
        let empty = DocumentPatch.EntityChanges()
        let entityNames = Set(ours.entities.keys).union(theirs.entities.keys).sorted()
        let removedByOurs = Dictionary(uniqueKeysWithValues: entityNames.map { ($0, Set((ours.entities[$0] ?? empty).removed.map(\.key))) })
        let removedByTheirs = Dictionary(
            uniqueKeysWithValues: entityNames.map { ($0, Set((theirs.entities[$0] ?? empty).removed.map(\.key))) })
        for entity in entityNames {
            let o = ours.entities[entity] ?? empty
            let t = theirs.entities[entity] ?? empty
            let oChanged = Dictionary(o.changed.map { ($0.a, $0) }, uniquingKeysWith: { first, _ in first })
            let tChanged = Dictionary(t.changed.map { ($0.a, $0) }, uniquingKeysWith: { first, _ in first })
            func changeItems(_ object: DocumentPatch.ChangedObject) -> [DocumentPatch.Item] {
                object.properties.keys.map { DocumentPatch.Item(entity: entity, key: object.a, operation: .change, property: $0) }
            }
            // The same property changed two ways.
            for object in o.changed {
                guard let other = tChanged[object.a] else { continue }
                for (property, change) in object.properties.sorted(by: { $0.key < $1.key }) {
                    guard let theirChange = other.properties[property], theirChange.new != change.new else { continue }
                    var conflict = MergeConflict(
                        kind: .bothChanged, object: id(entity, object.a), property: property,
                        ours: "set it to \(render(change.new))", theirs: "set it to \(render(theirChange.new))")
                    let item = DocumentPatch.Item(entity: entity, key: object.a, operation: .change, property: property)
                    conflict.oursItems = [item]
                    conflict.theirsItems = [item]
                    conflicts.append(conflict)
                }
            }
            // Changed on one side, deleted on the other.
            for object in o.changed where removedByTheirs[entity]!.contains(object.a) {
                var conflict = MergeConflict(
                    kind: .changedAndDeleted, object: id(entity, object.a),
                    ours: "changed \(object.properties.keys.sorted().joined(separator: ", "))", theirs: "deleted it")
                conflict.oursItems = changeItems(object)
                conflict.theirsItems = [DocumentPatch.Item(entity: entity, key: object.a, operation: .remove)]
                conflicts.append(conflict)
            }
            for object in t.changed where removedByOurs[entity]!.contains(object.a) {
                var conflict = MergeConflict(
                    kind: .changedAndDeleted, object: id(entity, object.a), ours: "deleted it",
                    theirs: "changed \(object.properties.keys.sorted().joined(separator: ", "))")
                conflict.oursItems = [DocumentPatch.Item(entity: entity, key: object.a, operation: .remove)]
                conflict.theirsItems = changeItems(object)
                conflicts.append(conflict)
            }
            // References to what the other side deleted.
            for (side, changes, otherRemoved) in [(Side.ours, o, removedByTheirs), (.theirs, t, removedByOurs)] {
                func check(_ object: PersistentIdentifier, _ property: String, _ value: SnapshotValue, item: DocumentPatch.Item) {
                    for target in value.referencedIdentifiers where otherRemoved[target.entityName]?.contains(target.primaryKey) ?? false {
                        let deletion = DocumentPatch.Item(entity: target.entityName, key: target.primaryKey, operation: .remove)
                        var conflict = MergeConflict(
                            kind: .referenceToDeleted, object: object, property: property,
                            ours: side == .ours ? "made it refer to \(target)" : "deleted \(target)",
                            theirs: side == .ours ? "deleted \(target)" : "made it refer to \(target)")
                        conflict.oursItems = [side == .ours ? item : deletion]
                        conflict.theirsItems = [side == .ours ? deletion : item]
                        conflicts.append(conflict)
                    }
                }
                for object in changes.added {
                    let item = DocumentPatch.Item(entity: entity, key: object.key, operation: .add)
                    for (property, value) in object.values.sorted(by: { $0.key < $1.key }) {
                        check(id(entity, object.key), property, value, item: item)
                    }
                }
                for object in changes.changed {
                    for (property, change) in object.properties.sorted(by: { $0.key < $1.key }) {
                        let item = DocumentPatch.Item(entity: entity, key: object.a, operation: .change, property: property)
                        check(id(entity, object.a), property, change.new, item: item)
                    }
                }
            }
            // Added objects that collide on a uniqueness constraint with what ours holds.
            guard !t.added.isEmpty, let schemaEntity = oursRecords.schema.entity(named: entity),
                !schemaEntity.effectiveUniquenessConstraints.isEmpty
            else { continue }
            let addedByOurs = Set(o.added.map(\.key))
            // Only the values theirs' added objects hold are looked for among ours' objects.
            var sought: [[String]: Set<[SnapshotValue]>] = [:]
            for object in t.added {
                for constraint in schemaEntity.effectiveUniquenessConstraints {
                    let key = constraint.map { object.values[$0] ?? .null }
                    if !key.contains(.null) { sought[constraint, default: []].insert(key) }
                }
            }
            guard !sought.isEmpty else { continue }
            var index: [[String]: [[SnapshotValue]: PersistentIdentifier]] = [:]
            let records = oursRecords.records(of: entity)
            // Each constraint's properties by position (the records of an entity are laid out alike).
            let positions = records.first.map { first in
                schemaEntity.effectiveUniquenessConstraints.map { constraint in constraint.map { first.position(of: $0) } }
            }
            for record in records where !removedByTheirs[entity]!.contains(record.primaryKey) {
                // As the merge will leave it: with theirs' new values (a value theirs moved
                // away from is free for theirs' added objects).
                let theirChanges = tChanged[record.primaryKey]?.properties
                for (number, constraint) in schemaEntity.effectiveUniquenessConstraints.enumerated() {
                    var key: [SnapshotValue] = []
                    key.reserveCapacity(constraint.count)
                    for (property, position) in zip(constraint, positions![number]) {
                        key.append(theirChanges?[property]?.new ?? position.map { record.value(at: $0) } ?? .null)
                    }
                    guard sought[constraint]?.contains(key) ?? false else { continue }
                    index[constraint, default: [:]][key] = record.persistentIdentifier
                }
            }
            for object in t.added {
                for constraint in schemaEntity.effectiveUniquenessConstraints {
                    let key = constraint.map { object.values[$0] ?? .null }
                    guard !key.contains(.null), let existing = index[constraint]?[key] else { continue }
                    var conflict = MergeConflict(
                        kind: .uniquenessCollision, object: id(entity, object.key), property: constraint.joined(separator: ", "),
                        ours: addedByOurs.contains(existing.primaryKey) ? "added \(existing)" : "has \(existing)",
                        theirs: "added \(id(entity, object.key)) with the same values")
                    conflict.theirsItems = [DocumentPatch.Item(entity: entity, key: object.key, operation: .add)]
                    conflict.oursItems =
                        addedByOurs.contains(existing.primaryKey)
                        ? [DocumentPatch.Item(entity: entity, key: existing.primaryKey, operation: .add)]
                        : (oChanged[existing.primaryKey].map(changeItems) ?? [])
                    conflicts.append(conflict)
                    break
                }
            }
        }
        return conflicts
    }
}
