import Foundation
import TripDoc

extension DocumentDiff {
    /// Why two documents cannot be compared as they are read; they are then read whole.
    struct StreamUnavailable: Error, CustomStringConvertible {
        /// What keeps them from it.
        var reason: String
        /// Whether objects are matched by their values or a remap table: the documents may
        /// then be compared in two readings of each (``TwoPassComparison``).
        var matchedOtherwiseThanByKey = false
        var description: String { reason }
    }

    /// Compares the document at `pathA` with the one at `pathB` (standard input for `-`, a
    /// journal beside a document folded in, as ``DocumentFile/contents(of:limits:mapped:)`` reads
    /// them), as ``init(_:at:_:at:match:remapTable:entity:ignoring:history:)`` does with both read
    /// whole (followed by ``restrict(to:entity:a:b:)`` for a `condition`), with the same result.
    ///
    /// When every entity is matched by primary key (one store, or two of one lineage, or
    /// `match: .key`), the two documents are read at once, each on a thread of its own, and
    /// compared as a merge of their snapshots in key order: memory holds the differences and,
    /// for two stores, the keys of the matched objects of entities that relationships point to
    /// (to name them in B's terms), never the documents. When objects are matched by their
    /// values or a remap table, or a `condition` is given, each document is read twice: once
    /// for the keys and the fingerprints of the values the matching uses (and the objects the
    /// condition reads through to-one relationships), which are matched, then for the matched
    /// pairs, compared as both come. When a document does not list its entities in name order
    /// and their snapshots in primary-key order (tripdoc always does), refers to an object
    /// neither side matched where the other side refers to the same key, or when two objects'
    /// fingerprints turn out to be equal where their values are not, both are read whole as
    /// records instead.
    ///
    /// - Parameters:
    ///   - pathA: The document compared from (A); `-` for standard input.
    ///   - pathB: The document compared with (B); `-` for standard input.
    ///   - match: How objects of A are matched to objects of B.
    ///   - remapTable: A table written by `convert --remap-table` for A → B, to match by.
    ///   - entity: Compare only this entity.
    ///   - ignoring: Properties left out of the comparison.
    ///   - compareHistory: Also compare the histories: the transactions only one side has.
    ///   - condition: A `--where` condition on `entity`: only the differences of the objects
    ///     that meet it on either side are kept.
    ///   - limits: The limits both documents are read under.
    /// - Throws: A reading error (`FileReadError`, `DocumentReadError`, …), A's when both
    ///   fail; else as ``init(_:at:_:at:match:remapTable:entity:ignoring:history:)``, then a
    ///   ``QueryError`` for a condition that does not parse or fit either schema;
    ///   ``TripDocError/invalidArgument(_:)`` for a condition without an entity.
    public init(
        files pathA: String, _ pathB: String, match: MatchStrategy = .auto, remapTable: RemapTable? = nil,
        entity: String? = nil, ignoring: Set<String> = [], history compareHistory: Bool = false,
        condition: String? = nil, limits: DocumentLimits = .standard
    ) throws {
        if condition != nil, entity == nil {
            throw TripDocError.invalidArgument("a condition applies to the objects of one entity: give the entity")
        }
        let dataA = try DocumentFile.contents(of: pathA, limits: limits, mapped: true)
        let dataB: Data
        do {
            dataB = try DocumentFile.contents(of: pathB, limits: limits, mapped: true)
        } catch {
            let streamA = Self.stream(dataA, path: pathA, limits: limits)
            defer { streamA.cancel() }
            throw streamA.errorAtTheEnd() ?? error
        }
        func stream(_ isA: Bool) -> DocumentRecordStream {
            Self.stream(isA ? dataA : dataB, path: isA ? pathA : pathB, limits: limits)
        }
        do {
            if condition == nil {
                do {
                    var merge = StreamedComparison(
                        pathA: pathA, pathB: pathB, requested: match, remapTable: remapTable, onlyEntity: entity,
                        ignoring: ignoring, compareHistory: compareHistory)
                    self = try merge.run(stream(true), stream(false))
                    return
                } catch let unavailable as StreamUnavailable where unavailable.matchedOtherwiseThanByKey {
                    // Read twice, below.
                }
            }
            var passes = TwoPassComparison(
                pathA: pathA, pathB: pathB, requested: match, remapTable: remapTable, onlyEntity: entity,
                ignoring: ignoring, compareHistory: compareHistory, condition: condition)
            self = try passes.run(stream)
        } catch is StreamUnavailable {
            let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(dataA, at: pathA, dataB, at: pathB, limits: limits)
            try self.init(
                recordsA, at: pathA, recordsB, at: pathB, match: match, remapTable: remapTable, entity: entity,
                ignoring: ignoring, history: compareHistory)
            if let condition, let entity { try restrict(to: condition, entity: entity, a: recordsA, b: recordsB) }
        }
    }

    /// The document in `data`, from `path`, read on a thread of its own, which reports to the
    /// caller's progress observer (``CodingProgress``; a thread does not inherit it by itself).
    static func stream(_ data: Data, path: String, limits: DocumentLimits) -> DocumentRecordStream {
        let observer = ProgressObserver(value: CodingProgress.observer)
        return DocumentRecordStream.start { feeder in
            try CodingProgress.$observer.withValue(observer.value) {
                try DocumentFileReader.reading(data, path: path) {
                    try DocumentFile.format(of: data, path: path).readDocument(
                        from: data, file: path, limits: limits, into: &feeder)
                }
            }
        }
    }

    /// The caller's progress observer, handed to a reading thread: observers take reports from
    /// any thread (both of `diff`'s readers report to one).
    private struct ProgressObserver: @unchecked Sendable {
        let value: (any CodingProgressObserver)?
    }

    /// The transactions only A's history has and only B's (compared by identifier, time, author
    /// and the kinds and entities of their changes).
    static func historyDifferences(_ a: DocumentHistory, _ b: DocumentHistory)
        -> (onlyInA: [HistoryTransactionRecord], onlyInB: [HistoryTransactionRecord])
    {
        func signature(_ transaction: HistoryTransactionRecord) -> String {
            "\(transaction.transactionIdentifier)|\(transaction.timestamp.timeIntervalSinceReferenceDate)|"
                + "\(transaction.author ?? "")|"
                + transaction.changes.map { "\($0.kind) \($0.changedPersistentIdentifier.entityName)" }.joined(separator: ",")
        }
        let inA = Set(a.transactions.map(signature))
        let inB = Set(b.transactions.map(signature))
        return (a.transactions.filter { !inB.contains(signature($0)) }, b.transactions.filter { !inA.contains(signature($0)) })
    }

    /// The comparison of two documents by primary key as they are read: a merge of each entity's
    /// snapshots from both, in key order.
    struct StreamedComparison {
        let pathA: String
        let pathB: String
        let requested: MatchStrategy
        let remapTable: RemapTable?
        let onlyEntity: String?
        let ignoring: Set<String>
        let compareHistory: Bool

        /// The choices of the matching, made from the headers and schemas.
        private var comparison: Comparison?
        private var storeB = ""
        private var identifiersAgree = false
        /// The entities whose matched keys are kept: those A's relationships point to, when the
        /// sides are two stores.
        private var keyedEntities: Set<String> = []
        /// Per entity, the primary keys of its matched objects.
        private var matchedKeys: [String: PrimaryKeySet] = [:]
        /// The entities whose snapshots both sides have listed in full.
        private var finished: Set<String> = []
        /// Per entity not yet finished, keys of targets taken to be matched (both sides of a pair
        /// refer to them): checked once the entity is finished.
        private var assumedMatched: [String: [String]] = [:]
        private var added: [String: [DefaultSnapshot]] = [:]
        private var removed: [String: [DefaultSnapshot]] = [:]
        private var changed: [String: [ChangedObject]] = [:]

        init(
            pathA: String, pathB: String, requested: MatchStrategy, remapTable: RemapTable?, onlyEntity: String?,
            ignoring: Set<String>, compareHistory: Bool
        ) {
            self.pathA = pathA
            self.pathB = pathB
            self.requested = requested
            self.remapTable = remapTable
            self.onlyEntity = onlyEntity
            self.ignoring = ignoring
            self.compareHistory = compareHistory
        }

        /// Compares what `streamA` and `streamB` read, and stops both.
        ///
        /// - Throws: ``StreamUnavailable`` (read both whole instead); else A's reading error, B's,
        ///   or the request's error, in that order of preference.
        mutating func run(_ streamA: DocumentRecordStream, _ streamB: DocumentRecordStream) throws -> DocumentDiff {
            try DocumentDiff.reading(streamA, streamB) { try compare(streamA, streamB) }
        }

        private mutating func compare(_ streamA: DocumentRecordStream, _ streamB: DocumentRecordStream) throws
            -> DocumentDiff
        {
            let (a, b, begun, historyA, historyB) = try DocumentDiff.beginning(
                streamA, at: pathA, streamB, at: pathB, match: requested, remapTable: remapTable, entity: onlyEntity,
                ignoring: ignoring)
            var diff = begun
            let comparison = Comparison(
                a: a, b: b, requested: requested, remapTable: remapTable, ignoring: ignoring, onlyEntity: onlyEntity)
            guard comparison.entityNames.allSatisfy({ comparison.strategy(for: $0) == .key }) else {
                throw StreamUnavailable(reason: "objects are matched by their values", matchedOtherwiseThanByKey: true)
            }
            self.comparison = comparison
            storeB = b.storeIdentifier
            identifiersAgree = a.storeIdentifier == b.storeIdentifier
            let names = Set(comparison.entityNames)
            if !identifiersAgree {
                keyedEntities = Set(a.schema.entities.flatMap { $0.relationships.map(\.destination) }).intersection(names)
            }
            // Other entities are read only for the keys they match, which one store needs not.
            let wanted = onlyEntity.map { keyedEntities.union([$0]) } ?? names
            streamA.choose(entities: wanted)
            streamB.choose(entities: wanted)

            var entityA = try streamA.nextEntity()
            var entityB = try streamB.nextEntity()
            var previousA: String?
            var previousB: String?
            func inOrder(_ name: String, after previous: inout String?, path: String) throws {
                if let last = previous, !last.utf8.lexicographicallyPrecedes(name.utf8) {
                    throw StreamUnavailable(reason: "\(path) lists the snapshots of \(name) after those of \(last)")
                }
                previous = name
            }
            while entityA != nil || entityB != nil {
                if let nameA = entityA?.name, nameA == entityB?.name {
                    try inOrder(nameA, after: &previousA, path: pathA)
                    try inOrder(nameA, after: &previousB, path: pathB)
                    try merge(nameA, streamA, streamB)
                    entityA = try streamA.nextEntity()
                    entityB = try streamB.nextEntity()
                } else if let nameA = entityA?.name,
                    entityB.map({ nameA.utf8.lexicographicallyPrecedes($0.name.utf8) }) ?? true
                {
                    try inOrder(nameA, after: &previousA, path: pathA)
                    try merge(nameA, streamA, nil)
                    entityA = try streamA.nextEntity()
                } else if let nameB = entityB?.name {
                    try inOrder(nameB, after: &previousB, path: pathB)
                    try merge(nameB, nil, streamB)
                    entityB = try streamB.nextEntity()
                }
            }
            // Keys taken to be matched in entities neither side listed were not.
            for (entity, keys) in assumedMatched where !keys.isEmpty {
                throw StreamUnavailable(reason: "a reference to \(entity)/\(keys[0]), which is not matched")
            }

            diff.entities = comparison.entityNames.filter { onlyEntity == nil || $0 == onlyEntity }.map { entity in
                var differences = EntityDifferences(
                    entity: entity, strategy: .key, added: added[entity] ?? [], removed: removed[entity] ?? [],
                    changed: (changed[entity] ?? []).map { object in
                        var object = object
                        if !identifiersAgree {
                            object.relationships = object.relationships.map {
                                var change = $0
                                change.old = translated(change.old)
                                return change
                            }
                        }
                        return object
                    })
                differences.removedInTermsOfB = differences.removed.map { snapshot in
                    snapshot.mapValues(translated)
                }
                return differences
            }
            if compareHistory {
                diff.history = DocumentDiff.historyDifferences(
                    historyA ?? streamA.lateHistory ?? DocumentHistory(),
                    historyB ?? streamB.lateHistory ?? DocumentHistory())
            }
            diff.reading = .merged
            return diff
        }

        /// Walks `entity`'s snapshots on both sides together (a side that does not list the
        /// entity is `nil`), pairing equal keys.
        private mutating func merge(_ entity: String, _ streamA: DocumentRecordStream?, _ streamB: DocumentRecordStream?)
            throws
        {
            let comparison = comparison!
            let reported = onlyEntity == nil || onlyEntity == entity
            let keepsKeys = keyedEntities.contains(entity)
            let attributes = comparison.comparedAttributes(of: entity)
            let relationships = comparison.reportedRelationships(of: entity)
            var attributePlaces: ([Int?], [Int?])?
            var relationshipPlaces: ([Int?], [Int?])?
            var keys = PrimaryKeySet()
            var addedHere: [DefaultSnapshot] = []
            var removedHere: [DefaultSnapshot] = []
            var changedHere: [ChangedObject] = []

            var x = try streamA?.nextRecord()
            var y = try streamB?.nextRecord()
            func advanceA() throws {
                let previous = x!.primaryKey
                x = try streamA!.nextRecord()
                if let key = x?.primaryKey, !PrimaryKeyOrder.precedes(previous, key) {
                    throw StreamUnavailable(reason: "\(pathA) lists \(entity)/\(key) after \(entity)/\(previous)")
                }
            }
            func advanceB() throws {
                let previous = y!.primaryKey
                y = try streamB!.nextRecord()
                if let key = y?.primaryKey, !PrimaryKeyOrder.precedes(previous, key) {
                    throw StreamUnavailable(reason: "\(pathB) lists \(entity)/\(key) after \(entity)/\(previous)")
                }
            }
            while x != nil || y != nil {
                if let old = x, let new = y, old.primaryKey == new.primaryKey {
                    if keepsKeys { keys.append(old.primaryKey) }
                    if reported {
                        if attributePlaces == nil {
                            attributePlaces = (attributes.map { old.position(of: $0.name) }, attributes.map { new.position(of: $0.name) })
                            relationshipPlaces = (
                                relationships.map { old.position(of: $0.name) }, relationships.map { new.position(of: $0.name) }
                            )
                        }
                        if let object = try changes(
                            old, new, attributes: attributes, attributePlaces!, relationships: relationships,
                            relationshipPlaces!)
                        {
                            changedHere.append(object)
                        }
                    }
                    try advanceA()
                    try advanceB()
                } else if let old = x, y.map({ PrimaryKeyOrder.precedes(old.primaryKey, $0.primaryKey) }) ?? true {
                    if reported { removedHere.append(old.snapshot) }
                    try advanceA()
                } else if let new = y {
                    if reported { addedHere.append(new.snapshot) }
                    try advanceB()
                }
            }
            if reported {
                added[entity, default: []] += addedHere
                removed[entity, default: []] += removedHere
                changed[entity, default: []] += changedHere
            }
            if keepsKeys { matchedKeys[entity] = keys }
            finished.insert(entity)
            for key in assumedMatched.removeValue(forKey: entity) ?? [] where !isMatched(entity, key) {
                throw StreamUnavailable(reason: "a reference to \(entity)/\(key), which is not matched")
            }
        }

        /// The changes from A's `old` to B's `new`, or `nil` when they agree.
        private mutating func changes(
            _ old: SnapshotRecord, _ new: SnapshotRecord, attributes: [Schema.Attribute], _ attributePlaces: ([Int?], [Int?]),
            relationships: [Schema.Relationship], _ relationshipPlaces: ([Int?], [Int?])
        ) throws -> ChangedObject? {
            var attributeChanges: [ValueChange] = []
            for (index, attribute) in attributes.enumerated() {
                let before = Comparison.value(of: old, at: attributePlaces.0[index])
                let after = Comparison.value(of: new, at: attributePlaces.1[index])
                if before != after {
                    attributeChanges += ValueChange.changes(
                        of: attribute.name, from: before, to: after, descendingArrays: attribute.type == .codable)
                }
            }
            var relationshipChanges: [ValueChange] = []
            for (index, relationship) in relationships.enumerated() {
                var before = Comparison.value(of: old, at: relationshipPlaces.0[index])
                var after = Comparison.value(of: new, at: relationshipPlaces.1[index])
                if case .references(let targets) = after { after = .references(targets.sorted()) }
                if identifiersAgree {
                    if case .references(let targets) = before { before = .references(targets.sorted()) }
                    if before != after { relationshipChanges.append(ValueChange(property: relationship.name, old: before, new: after)) }
                } else if try !agree(before, after) {
                    // A's references are named in B's terms once every entity is matched.
                    relationshipChanges.append(ValueChange(property: relationship.name, old: before, new: after))
                }
            }
            guard !attributeChanges.isEmpty || !relationshipChanges.isEmpty else { return nil }
            return ChangedObject(
                a: old.persistentIdentifier, b: new.persistentIdentifier, attributes: attributeChanges,
                relationships: relationshipChanges)
        }

        /// Whether A's references `before`, named in B's terms, are B's `after` (sorted): each
        /// target of A's must be matched, with B's target of the same key. Whether a target of an
        /// entity not yet finished is matched is noted, and checked when it is.
        private mutating func agree(_ before: SnapshotValue, _ after: SnapshotValue) throws -> Bool {
            let targets: [PersistentIdentifier]
            switch (before, after) {
            case (.reference(let x), .reference(let y)):
                // Part by part: cheaper than making B's identifier of x for every pair.
                guard x.primaryKey == y.primaryKey, x.entityName == y.entityName, !y.isTemporary, y.storeIdentifier == storeB
                else { return false }
                targets = [x]
            case (.references(let xs), .references(let ys)):
                guard xs.count == ys.count else { return false }
                let named = xs.map { PersistentIdentifier(storeIdentifier: storeB, entityName: $0.entityName, primaryKey: $0.primaryKey) }
                guard named.sorted() == ys else { return false }
                targets = xs
            default:
                return before == after
            }
            for target in targets {
                if finished.contains(target.entityName) {
                    if !isMatched(target.entityName, target.primaryKey) { return false }
                } else if keyedEntities.contains(target.entityName) {
                    // Objects of one parent usually come together: a key once for each run.
                    if assumedMatched[target.entityName]?.last != target.primaryKey {
                        assumedMatched[target.entityName, default: []].append(target.primaryKey)
                    }
                } else {
                    return false  // an entity that matches nothing
                }
            }
            return true
        }

        /// Whether A's object `key` of `entity` was matched (its entity is finished).
        private func isMatched(_ entity: String, _ key: String) -> Bool {
            matchedKeys[entity]?.contains(key) ?? false
        }

        /// A's references in B's terms where their targets are matched; to-many lists sorted.
        private func translated(_ value: SnapshotValue) -> SnapshotValue {
            func named(_ target: PersistentIdentifier) -> PersistentIdentifier {
                guard !identifiersAgree, isMatched(target.entityName, target.primaryKey) else { return target }
                return PersistentIdentifier(storeIdentifier: storeB, entityName: target.entityName, primaryKey: target.primaryKey)
            }
            switch value {
            case .reference(let target): return .reference(named(target))
            case .references(let targets): return .references(targets.map(named).sorted())
            default: return value
            }
        }
    }

    /// `body`, which reads `streamA` and `streamB`, with both stopped after it; a failure is
    /// reported as when both are read whole: A's reading error first, then B's, then any other
    /// (``StreamUnavailable`` as it is).
    static func reading<T>(
        _ streamA: DocumentRecordStream, _ streamB: DocumentRecordStream, _ body: () throws -> T
    ) throws -> T {
        defer {
            streamA.cancel()
            streamB.cancel()
        }
        do {
            return try body()
        } catch let error as StreamUnavailable {
            throw error
        } catch {
            if let errorA = streamA.errorAtTheEnd() { throw errorA }
            if let errorB = streamB.errorAtTheEnd() { throw errorB }
            throw error
        }
    }

    /// The header, schema and history of both streams as records to add snapshots to, the
    /// comparison of those (throwing the request's errors, as the comparison of documents read
    /// whole does), before any snapshot is compared, and each side's history if it came before
    /// the snapshots (`nil`: after them, in the stream's `lateHistory`).
    static func beginning(
        _ streamA: DocumentRecordStream, at pathA: String, _ streamB: DocumentRecordStream, at pathB: String,
        match: MatchStrategy, remapTable: RemapTable?, entity: String?, ignoring: Set<String>
    ) throws -> (
        a: DocumentRecords, b: DocumentRecords, diff: DocumentDiff, historyA: DocumentHistory?, historyB: DocumentHistory?
    ) {
        let beginA = try streamA.begin()
        let beginB = try streamB.begin()
        let a = DocumentRecords(
            Document(header: beginA.header, schema: beginA.schema, history: beginA.history ?? DocumentHistory()))
        let b = DocumentRecords(
            Document(header: beginB.header, schema: beginB.schema, history: beginB.history ?? DocumentHistory()))
        let diff = try DocumentDiff(
            a, at: pathA, b, at: pathB, match: match, remapTable: remapTable, entity: entity, ignoring: ignoring,
            history: false)
        return (a, b, diff, beginA.history, beginB.history)
    }
}
