import Foundation
import TripDoc

extension DocumentDiff {
    /// The comparison of two documents whose objects are matched by their values (`unique`,
    /// `content`) or by a remap table (`map`), in two readings of each, without holding either:
    /// the first keeps, per entity and side, the primary keys compactly (``PrimaryKeyList``) and
    /// a 64-bit fingerprint of the values the matching uses, and matches A's objects with B's
    /// from those exactly as the comparison of documents read whole does (first come first
    /// served, in document order; content in two rounds); the second reads both again as a
    /// merge of each entity's matched pairs, checks that the values of every pair its
    /// fingerprints made are equal (a fingerprint only stands for them: two objects whose hashes
    /// collide make the comparison read both whole instead, so a collision never changes the
    /// result) and tells the differences.
    ///
    /// Memory holds the fingerprints, keys, matches and differences, and the objects of a pair
    /// one side lists much earlier than the other (none when both list them in one order).
    struct TwoPassComparison {
        let pathA: String
        let pathB: String
        let requested: MatchStrategy
        let remapTable: RemapTable?
        let onlyEntity: String?
        let ignoring: Set<String>
        let compareHistory: Bool
        /// A `--where` condition on ``onlyEntity``: only the differences of objects that meet it
        /// on either side are kept (as ``DocumentDiff/restrict(to:entity:a:b:)`` keeps them).
        let condition: String?
        /// The bits of each fingerprint kept: all but in the tests that make fingerprints
        /// collide on purpose.
        var fingerprintMask = ~0

        /// What the first reading keeps of one entity's objects on one side, by position (the
        /// objects' order in the document, which is primary-key order).
        struct EntityIndex {
            var keys = PrimaryKeyList()
            /// `unique`: each object's fingerprint of the constraint's values; `content`: of the
            /// compared attributes' values.
            var fingerprints: [Int] = []
            /// `content`, B's side: each object's fingerprint of the compared attributes and the
            /// to-one references.
            var fingerprintsWithReferences: [Int] = []
            /// `content`, A's side: each object's to-one targets, one per compared to-one
            /// relationship, object after object: a target of the relationship's destination
            /// whose key is a canonical number as that number, none as -1, any other as
            /// -2 - its place in ``otherTargets``.
            var targets: [Int64] = []
            var otherTargets: [PersistentIdentifier] = []
        }

        /// The matches of one entity's objects.
        struct EntityPairs {
            /// For each of A's positions, B's position of the object it was matched with, or -1.
            var partnerOfA: [Int32]
            /// For each of B's positions, A's position of the object it was matched with, or -1.
            var partnerOfB: [Int32]
            /// `content`: for each of A's positions, whether its match was made with the to-one
            /// references (the first round) rather than the attributes alone.
            var withReferences: [Bool] = []
        }

        /// The properties the matching and the comparison read of one entity.
        struct EntityPlan {
            var strategy: MatchStrategy
            /// `unique`: the constraint's properties; `content`: the compared attributes.
            var matched: [String] = []
            /// `content`: the compared to-one relationships, and their destinations.
            var toOne: [String] = []
            var destinations: [String] = []
        }

        private var comparison: Comparison!
        private var storeB = ""
        /// Whether identifiers are the same on both sides (one store, matched by key).
        private var identifiersAgree = false
        /// The condition, checked against each side's schema, and the objects it reads through
        /// to-one relationships on each side.
        private var queries: (SnapshotQuery, SnapshotQuery)?
        private var related = (RelatedSnapshots(), RelatedSnapshots())
        /// Per entity, whether each object of ``added``, ``removed`` and ``changed`` meets the
        /// condition (on its side, or on either for a change).
        private var addedMeets: [String: [Bool]] = [:]
        private var removedMeets: [String: [Bool]] = [:]
        private var changedMeets: [String: [Bool]] = [:]
        private var plans: [String: EntityPlan] = [:]
        private var indexA: [String: EntityIndex] = [:]
        private var indexB: [String: EntityIndex] = [:]
        private var pairs: [String: EntityPairs] = [:]
        /// Each entity's place in the matching order: a `content` fingerprint of A's sees the
        /// matches of the entities before it only.
        private var matchingRank: [String: Int] = [:]
        /// Per entity, an identifier of B's to name its objects from (`withPrimaryKey`).
        private var templatesB: [String: PersistentIdentifier] = [:]
        private var added: [String: [DefaultSnapshot]] = [:]
        private var removed: [String: [DefaultSnapshot]] = [:]
        private var changed: [String: [ChangedObject]] = [:]

        init(
            pathA: String, pathB: String, requested: MatchStrategy, remapTable: RemapTable?, onlyEntity: String?,
            ignoring: Set<String>, compareHistory: Bool, condition: String? = nil
        ) {
            self.condition = condition
            self.pathA = pathA
            self.pathB = pathB
            self.requested = requested
            self.remapTable = remapTable
            self.onlyEntity = onlyEntity
            self.ignoring = ignoring
            self.compareHistory = compareHistory
        }

        /// Compares the documents in `dataA` and `dataB`, each read twice by `stream`.
        ///
        /// - Throws: ``StreamUnavailable`` (read both whole instead); else A's reading error,
        ///   B's, or the request's error, in that order of preference.
        mutating func run(_ stream: (_ isA: Bool) -> DocumentRecordStream) throws -> DocumentDiff {
            var diff = try Self.withStreams(stream) { try firstPass($0, $1) }
            (CodingProgress.observer as? TerminalProgress)?.beginAgain(
                "comparing " + [pathA, pathB].map { $0 == "-" ? "standard input" : $0 }.joined(separator: " and "))
            try Self.withStreams(stream) { try secondPass($0, $1) }
            diff.entities = comparison.entityNames.filter { onlyEntity == nil || $0 == onlyEntity }.map { entity in
                var differences = EntityDifferences(
                    entity: entity, strategy: comparison.strategies[entity] ?? .content, added: added[entity] ?? [],
                    removed: removed[entity] ?? [], changed: changed[entity] ?? [])
                differences.removedInTermsOfB = differences.removed.map { snapshot in
                    snapshot.mapValues(translated)
                }
                return differences
            }
            // The keys are those of every difference, as when the condition is applied after.
            diff.differingKeys = differingKeys(referencedBy: diff.entities)
            if queries != nil {
                diff.entities = diff.entities.map { differences in
                    let entity = differences.entity
                    func meeting<T>(_ list: [T], _ meets: [Bool]?) -> [T] {
                        guard let meets else { return list }
                        return zip(list, meets).filter(\.1).map(\.0)
                    }
                    var kept = differences
                    kept.added = meeting(differences.added, addedMeets[entity])
                    kept.removed = meeting(differences.removed, removedMeets[entity])
                    kept.removedInTermsOfB = meeting(differences.removedInTermsOfB, removedMeets[entity])
                    kept.changed = meeting(differences.changed, changedMeets[entity])
                    return kept
                }
            }
            diff.reading = .twoPasses
            return diff
        }

        /// `body` with a stream of each side, both stopped after it.
        private static func withStreams<T>(
            _ stream: (_ isA: Bool) -> DocumentRecordStream,
            _ body: (DocumentRecordStream, DocumentRecordStream) throws -> T
        ) throws -> T {
            let streamA = stream(true)
            let streamB = stream(false)
            return try DocumentDiff.reading(streamA, streamB) { try body(streamA, streamB) }
        }

        // MARK: The first reading: keys and fingerprints, then the matching

        private mutating func firstPass(_ streamA: DocumentRecordStream, _ streamB: DocumentRecordStream) throws
            -> DocumentDiff
        {
            let (a, b, begun, historyA, historyB) = try DocumentDiff.beginning(
                streamA, at: pathA, streamB, at: pathB, match: requested, remapTable: remapTable, entity: onlyEntity,
                ignoring: ignoring)
            var diff = begun
            var comparison = Comparison(
                a: a, b: b, requested: requested, remapTable: remapTable, ignoring: ignoring, onlyEntity: onlyEntity)
            for entity in comparison.entityNames { comparison.strategies[entity] = comparison.strategy(for: entity) }
            // Matching by key needs one reading, unless a condition needs what the objects refer to.
            guard condition != nil || !comparison.strategies.values.contains(.key) else {
                throw StreamUnavailable(reason: "objects are matched by primary key")
            }
            self.comparison = comparison
            storeB = b.storeIdentifier
            identifiersAgree = a.storeIdentifier == b.storeIdentifier && comparison.strategies.values.allSatisfy { $0 == .key }
            if let condition, let onlyEntity {
                // The condition's errors after the request's, A's schema first.
                func query(_ schema: Schema) throws -> SnapshotQuery {
                    try SnapshotQuery(condition, entity: schema.entity(named: onlyEntity)!, schema: schema)
                }
                queries = (try query(a.schema), try query(b.schema))
            }
            for entity in comparison.entityNames {
                let strategy = comparison.strategies[entity]!
                var plan = EntityPlan(strategy: strategy)
                switch strategy {
                case .unique:
                    plan.matched = b.schema.entity(named: entity)!.effectiveUniquenessConstraints[0]
                case .content:
                    plan.matched = comparison.comparedAttributes(of: entity).map(\.name)
                    plan.toOne = comparison.contentToOneRelationships(of: entity)
                    let described = b.schema.entity(named: entity)
                    plan.destinations = plan.toOne.map { described?.relationship(named: $0)?.destination ?? "" }
                default: break
                }
                plans[entity] = plan
                templatesB[entity] = PersistentIdentifier(storeIdentifier: storeB, entityName: entity, primaryKey: "0")
            }
            let names = Set(comparison.entityNames)
            let relatedA = queries?.0.relatedProperties ?? [:]
            let relatedB = queries?.1.relatedProperties ?? [:]
            streamA.choose(entities: names.union(relatedA.keys))
            streamB.choose(entities: names.union(relatedB.keys))
            let plans = plans
            let mask = fingerprintMask
            let (resultA, resultB) = TwoThreads.run(
                { Result { try Self.index(streamA, path: pathA, isA: true, plans: plans, mask: mask, related: relatedA) } },
                { Result { try Self.index(streamB, path: pathB, isA: false, plans: plans, mask: mask, related: relatedB) } })
            for result in [resultA, resultB] {
                if case .failure(let error as StreamUnavailable) = result { throw error }
            }
            (indexA, related.0) = try resultA.get()
            (indexB, related.1) = try resultB.get()
            try matchAll()
            if compareHistory {
                diff.history = DocumentDiff.historyDifferences(
                    historyA ?? streamA.lateHistory ?? DocumentHistory(),
                    historyB ?? streamB.lateHistory ?? DocumentHistory())
            }
            return diff
        }

        /// What the first reading keeps of each entity `stream` lists, and of the objects of the
        /// entities `related` names, the properties it names of each.
        private static func index(
            _ stream: DocumentRecordStream, path: String, isA: Bool, plans: [String: EntityPlan], mask: Int,
            related properties: [String: Set<String>]
        ) throws -> ([String: EntityIndex], RelatedSnapshots) {
            var result: [String: EntityIndex] = [:]
            var related = RelatedSnapshots()
            var previousEntity: String?
            while let entity = try stream.nextEntity() {
                let name = entity.name
                if let last = previousEntity, !last.utf8.lexicographicallyPrecedes(name.utf8) {
                    throw StreamUnavailable(reason: "\(path) lists the snapshots of \(name) after those of \(last)")
                }
                previousEntity = name
                let relatedProperties = properties[name]
                guard let plan = plans[name] else {
                    while let record = try stream.nextRecord() {
                        if let relatedProperties { related.keep(record.snapshot, properties: relatedProperties) }
                    }
                    continue
                }
                var index = EntityIndex()
                var matchedPlaces: [Int?] = []
                var toOnePlaces: [Int?] = []
                var previousKey: String?
                while let record = try stream.nextRecord() {
                    if let previousKey, !PrimaryKeyOrder.precedes(previousKey, record.primaryKey) {
                        throw StreamUnavailable(reason: "\(path) lists \(name)/\(record.primaryKey) after \(name)/\(previousKey)")
                    }
                    previousKey = record.primaryKey
                    if let relatedProperties { related.keep(record.snapshot, properties: relatedProperties) }
                    if index.keys.count == 0 {
                        matchedPlaces = plan.matched.map { record.position(of: $0) }
                        toOnePlaces = plan.toOne.map { record.position(of: $0) }
                    }
                    guard index.keys.count < Int32.max else {
                        throw StreamUnavailable(reason: "\(path) lists more than \(Int32.max) snapshots of \(name)")
                    }
                    index.keys.append(record.primaryKey)
                    guard plan.strategy == .unique || plan.strategy == .content else { continue }
                    var hasher = Hasher()
                    for place in matchedPlaces { hasher.combine(Comparison.value(of: record, at: place)) }
                    let fingerprint = hasher.finalize() & mask
                    index.fingerprints.append(fingerprint)
                    guard plan.strategy == .content else { continue }
                    if isA {
                        for (place, destination) in zip(toOnePlaces, plan.destinations) {
                            guard case .reference(let target) = Comparison.value(of: record, at: place) else {
                                index.targets.append(-1)
                                continue
                            }
                            if let number = PrimaryKeyOrder.canonicalNumber(target.primaryKey), target.entityName == destination {
                                index.targets.append(number)
                            } else {
                                index.targets.append(-2 - Int64(index.otherTargets.count))
                                index.otherTargets.append(target)
                            }
                        }
                    } else {
                        var withReferences = Hasher()
                        withReferences.combine(fingerprint)
                        for place in toOnePlaces {
                            if case .reference(let target) = Comparison.value(of: record, at: place) {
                                withReferences.combine(1 as UInt8)
                                withReferences.combine(target)
                            } else {
                                withReferences.combine(0 as UInt8)
                            }
                        }
                        index.fingerprintsWithReferences.append(withReferences.finalize() & mask)
                    }
                }
                result[name] = index
            }
            return (result, related)
        }

        /// Matches every entity's objects, in the order of the comparison of documents read
        /// whole: content last, since its fingerprints use the matches of the others.
        private mutating func matchAll() throws {
            let names = comparison.entityNames
            let order = names.filter { plans[$0]?.strategy != .content } + names.filter { plans[$0]?.strategy == .content }
            for (rank, entity) in order.enumerated() {
                matchingRank[entity] = rank
                try match(entity)
            }
        }

        private mutating func match(_ entity: String) throws {
            let fromA = indexA[entity] ?? EntityIndex()
            let fromB = indexB[entity] ?? EntityIndex()
            var made = EntityPairs(
                partnerOfA: [Int32](repeating: -1, count: fromA.keys.count),
                partnerOfB: [Int32](repeating: -1, count: fromB.keys.count))
            func pair(_ i: Int, _ j: Int) {
                made.partnerOfA[i] = Int32(j)
                made.partnerOfB[j] = Int32(i)
            }
            switch plans[entity]!.strategy {
            case .key, .auto:
                // Both sides are in primary-key order: walk them together.
                DocumentDiff.pairEqualKeys(
                    fromA.keys.count, { fromA.keys.key(at: $0) }, fromB.keys.count, { fromB.keys.key(at: $0) }, pair)
            case .map:
                for (keyA, keyB) in remapTable?.identifiers[entity] ?? [:] {
                    guard let i = fromA.keys.position(of: keyA), let j = fromB.keys.position(of: keyB) else { continue }
                    // Two of A's objects mapped to one of B's: the whole comparison says what then.
                    guard made.partnerOfB[j] < 0 else {
                        throw StreamUnavailable(reason: "the remap table maps two objects of \(entity) to \(entity)/\(keyB)")
                    }
                    pair(i, j)
                }
            case .unique:
                for (i, j) in Self.firstComeFirstServed(fromA.fingerprints, fromB.fingerprints) { pair(i, j) }
            case .content:
                // First objects equal in everything (A's references named in B's terms, by the
                // matches made before this entity's), then, among the rest, objects with equal
                // attributes.
                let rank = matchingRank[entity]!
                let destinations = plans[entity]!.destinations
                // Looked up in a copy made once: a method of a mutating method's `self` copied
                // the whole comparison (every table's retain and release) at each call.
                let matches = self
                let width = destinations.count
                var withReferences = [Int](repeating: 0, count: fromA.keys.count)
                for i in withReferences.indices {
                    var hasher = Hasher()
                    hasher.combine(fromA.fingerprints[i])
                    for (offset, destination) in destinations.enumerated() {
                        let target = fromA.targets[i * width + offset]
                        let found: PersistentIdentifier?
                        switch target {
                        case -1:
                            hasher.combine(0 as UInt8)
                            continue
                        case 0...:
                            found = matches.matched(
                                entity: destination, position: matches.indexA[destination]?.keys.position(ofNumber: target),
                                before: rank)
                        default:
                            found = matches.matched(fromA.otherTargets[Int(-2 - target)], before: rank)
                        }
                        if let found {
                            hasher.combine(1 as UInt8)
                            hasher.combine(found)
                        } else {
                            // Unmatched: equal to nothing of B's (never paired by this round).
                            hasher.combine(2 as UInt8)
                            hasher.combine(target)
                        }
                    }
                    withReferences[i] = hasher.finalize() & fingerprintMask
                }
                made.withReferences = [Bool](repeating: false, count: fromA.keys.count)
                for (i, j) in Self.firstComeFirstServed(withReferences, fromB.fingerprintsWithReferences) {
                    pair(i, j)
                    made.withReferences[i] = true
                }
                let restA = made.partnerOfA.map { $0 < 0 }
                let restB = made.partnerOfB.map { $0 < 0 }
                for (i, j) in Self.firstComeFirstServed(fromA.fingerprints, fromB.fingerprints, onlyA: restA, onlyB: restB) {
                    pair(i, j)
                }
            }
            pairs[entity] = made
        }

        /// For each of B's positions in order (among those `onlyB` admits), the first of A's
        /// positions not yet taken (among those `onlyA` admits) with the same fingerprint: the
        /// matching of the comparison of documents read whole, on the assumption that equal
        /// fingerprints mean equal values, which the second reading checks.
        static func firstComeFirstServed(
            _ fingerprintsA: [Int], _ fingerprintsB: [Int], onlyA: [Bool]? = nil, onlyB: [Bool]? = nil
        ) -> [(Int, Int)] {
            // A's positions by fingerprint, first in document order at the head of each chain.
            var head: [Int: Int] = [:]
            head.reserveCapacity(fingerprintsA.count)
            var next = [Int](repeating: -1, count: fingerprintsA.count)
            for i in fingerprintsA.indices.reversed() where onlyA?[i] ?? true {
                next[i] = head.updateValue(i, forKey: fingerprintsA[i]) ?? -1
            }
            var matches: [(Int, Int)] = []
            for j in fingerprintsB.indices where onlyB?[j] ?? true {
                guard let i = head[fingerprintsB[j]] else { continue }
                head[fingerprintsB[j]] = next[i] < 0 ? nil : next[i]
                matches.append((i, j))
            }
            return matches
        }

        /// B's identifier of the object A's `target` was matched with, if it was (among the
        /// entities matched before the one of rank `rank`, when given).
        private func matched(_ target: PersistentIdentifier, before rank: Int = .max) -> PersistentIdentifier? {
            let entity = target.entityName
            return matched(entity: entity, position: indexA[entity]?.keys.position(of: target.primaryKey), before: rank)
        }

        /// B's identifier of the object A's object of `entity` at `position` was matched with, if
        /// it was (among the entities matched before the one of rank `rank`).
        private func matched(entity: String, position: Int?, before rank: Int = .max) -> PersistentIdentifier? {
            guard !identifiersAgree, let i = position, let entityRank = matchingRank[entity], entityRank < rank,
                let made = pairs[entity]
            else { return nil }
            let j = Int(made.partnerOfA[i])
            guard j >= 0, let template = templatesB[entity], let keys = indexB[entity]?.keys else { return nil }
            return template.withPrimaryKey(keys.key(at: j))
        }

        /// A's references in B's terms where their targets are matched; to-many lists sorted.
        private func translated(_ value: SnapshotValue) -> SnapshotValue {
            if identifiersAgree {
                if case .references(let targets) = value { return .references(targets.sorted()) }
                return value
            }
            switch value {
            case .reference(let target): return .reference(matched(target) ?? target)
            case .references(let targets): return .references(targets.map { matched($0) ?? $0 }.sorted())
            default: return value
            }
        }

        // MARK: The second reading: the matched pairs checked and compared

        private mutating func secondPass(_ streamA: DocumentRecordStream, _ streamB: DocumentRecordStream) throws {
            _ = try streamA.begin()
            _ = try streamB.begin()
            // Matches made by fingerprints are checked in every entity; a remap table's need not be.
            let checked = plans.values.contains { $0.strategy == .unique || $0.strategy == .content }
            let wanted = checked || onlyEntity == nil ? Set(comparison.entityNames) : [onlyEntity!]
            streamA.choose(entities: wanted)
            streamB.choose(entities: wanted)
            var entityA = try streamA.nextEntity()
            var entityB = try streamB.nextEntity()
            while entityA != nil || entityB != nil {
                if let nameA = entityA?.name, nameA == entityB?.name {
                    try compare(nameA, streamA, streamB)
                    entityA = try streamA.nextEntity()
                    entityB = try streamB.nextEntity()
                } else if let nameA = entityA?.name,
                    entityB.map({ nameA.utf8.lexicographicallyPrecedes($0.name.utf8) }) ?? true
                {
                    try compare(nameA, streamA, nil)
                    entityA = try streamA.nextEntity()
                } else if let nameB = entityB?.name {
                    try compare(nameB, nil, streamB)
                    entityB = try streamB.nextEntity()
                }
            }
        }

        /// Walks `entity`'s objects on both sides (a side that does not list the entity is
        /// `nil`), comparing each matched pair once both of its objects are read: an object read
        /// before its partner waits for it.
        private mutating func compare(_ entity: String, _ streamA: DocumentRecordStream?, _ streamB: DocumentRecordStream?)
            throws
        {
            guard let plan = plans[entity], let made = pairs[entity] else { return }
            let reported = onlyEntity == nil || onlyEntity == entity
            let countA = made.partnerOfA.count
            let countB = made.partnerOfB.count
            let attributes = comparison.comparedAttributes(of: entity)
            let relationships = comparison.reportedRelationships(of: entity)
            let rank = matchingRank[entity]!
            // Read through a copy made once (see `match`); this entity's results are recorded
            // in `self` after.
            let frozen = self
            var places: Places?
            var waitingA: [Int: SnapshotRecord] = [:]
            var waitingB: [Int: SnapshotRecord] = [:]
            var addedHere: [DefaultSnapshot] = []
            var removedHere: [DefaultSnapshot] = []
            var changedHere: [(Int, ChangedObject, Bool)] = []
            var addedMeetHere: [Bool] = []
            var removedMeetHere: [Bool] = []
            let queries = reported ? queries : nil
            var positionA = 0
            var positionB = 0
            var x = try streamA?.nextRecord()
            var y = try streamB?.nextRecord()
            func advanceA() throws {
                positionA += 1
                x = try streamA!.nextRecord()
            }
            func advanceB() throws {
                positionB += 1
                y = try streamB!.nextRecord()
            }
            func documentChanged() -> StreamUnavailable {
                StreamUnavailable(reason: "a document changed between its two readings")
            }
            func pairOf(_ old: SnapshotRecord, _ new: SnapshotRecord, at j: Int) throws {
                if places == nil {
                    places = Places(
                        old, new, plan: plan, attributes: attributes.map(\.name), relationships: relationships.map(\.name))
                }
                let i = Int(made.partnerOfB[j])
                let withReferences = !made.withReferences.isEmpty && made.withReferences[i]
                guard frozen.agree(old, new, plan: plan, places: places!, withReferences: withReferences, rank: rank) else {
                    throw StreamUnavailable(reason: "two objects of \(entity) share a fingerprint but not their values")
                }
                if reported, let object = frozen.changes(old, new, attributes: attributes, relationships: relationships, places!) {
                    let meets = queries.map {
                        $0.0.matches(old.snapshot, related: frozen.related.0) || $0.1.matches(new.snapshot, related: frozen.related.1)
                    }
                    changedHere.append((j, object, meets ?? true))
                }
            }
            while x != nil || y != nil {
                guard positionA < countA || x == nil, positionB < countB || y == nil else { throw documentChanged() }
                let partnerOfX = x == nil ? -1 : Int(made.partnerOfA[positionA])
                let partnerOfY = y == nil ? -1 : Int(made.partnerOfB[positionB])
                if let old = x, partnerOfX < 0 {
                    if reported {
                        let snapshot = old.snapshot
                        removedHere.append(snapshot)
                        if let queries { removedMeetHere.append(queries.0.matches(snapshot, related: frozen.related.0)) }
                    }
                    try advanceA()
                } else if let new = y, partnerOfY < 0 {
                    if reported {
                        let snapshot = new.snapshot
                        addedHere.append(snapshot)
                        if let queries { addedMeetHere.append(queries.1.matches(snapshot, related: frozen.related.1)) }
                    }
                    try advanceB()
                } else if let old = x, let new = y, partnerOfX == positionB {
                    try pairOf(old, new, at: positionB)
                    try advanceA()
                    try advanceB()
                } else if let old = x, let new = waitingB.removeValue(forKey: partnerOfX) {
                    try pairOf(old, new, at: partnerOfX)
                    try advanceA()
                } else if let new = y, let old = waitingA.removeValue(forKey: partnerOfY) {
                    try pairOf(old, new, at: positionB)
                    try advanceB()
                } else if let old = x, y == nil || partnerOfX - positionB <= partnerOfY - positionA {
                    // Both partners are further on: the one nearer waits.
                    waitingA[positionA] = old
                    try advanceA()
                } else if let new = y {
                    waitingB[positionB] = new
                    try advanceB()
                }
            }
            guard positionA == countA, positionB == countB, waitingA.isEmpty, waitingB.isEmpty else { throw documentChanged() }
            if reported {
                added[entity, default: []] += addedHere
                removed[entity, default: []] += removedHere
                let inOrder = changedHere.sorted { $0.0 < $1.0 }
                changed[entity, default: []] += inOrder.map(\.1)
                if queries != nil {
                    addedMeets[entity, default: []] += addedMeetHere
                    removedMeets[entity, default: []] += removedMeetHere
                    changedMeets[entity, default: []] += inOrder.map(\.2)
                }
            }
        }

        /// Where one entity's records on each side hold the properties the second reading reads.
        struct Places {
            var matched: ([Int?], [Int?])
            var toOne: ([Int?], [Int?])
            var attributes: ([Int?], [Int?])
            var relationships: ([Int?], [Int?])

            init(_ old: SnapshotRecord, _ new: SnapshotRecord, plan: EntityPlan, attributes: [String], relationships: [String]) {
                func both(_ names: [String]) -> ([Int?], [Int?]) {
                    (names.map { old.position(of: $0) }, names.map { new.position(of: $0) })
                }
                matched = both(plan.matched)
                toOne = both(plan.toOne)
                self.attributes = both(attributes)
                self.relationships = both(relationships)
            }
        }

        /// Whether the matched values of A's `old` and B's `new` are equal, as the comparison of
        /// documents read whole tests them (A's references as matched before the entity).
        private func agree(
            _ old: SnapshotRecord, _ new: SnapshotRecord, plan: EntityPlan, places: Places, withReferences: Bool, rank: Int
        ) -> Bool {
            guard plan.strategy == .unique || plan.strategy == .content else { return true }
            guard zip(places.matched.0, places.matched.1).allSatisfy({ Comparison.value(of: old, at: $0) == Comparison.value(of: new, at: $1) })
            else { return false }
            guard withReferences else { return true }
            return zip(places.toOne.0, places.toOne.1).allSatisfy { placeA, placeB in
                switch (Comparison.value(of: old, at: placeA), Comparison.value(of: new, at: placeB)) {
                case (.reference(let targetA), .reference(let targetB)): matched(targetA, before: rank) == targetB
                case (.reference, _), (_, .reference): false
                default: true  // neither refers to anything
                }
            }
        }

        /// The changes from A's `old` to B's `new`, or `nil` when they agree.
        private func changes(
            _ old: SnapshotRecord, _ new: SnapshotRecord, attributes: [Schema.Attribute],
            relationships: [Schema.Relationship], _ places: Places
        ) -> ChangedObject? {
            var attributeChanges: [ValueChange] = []
            for (index, attribute) in attributes.enumerated() {
                let before = Comparison.value(of: old, at: places.attributes.0[index])
                let after = Comparison.value(of: new, at: places.attributes.1[index])
                if before != after {
                    attributeChanges += ValueChange.changes(
                        of: attribute.name, from: before, to: after, descendingArrays: attribute.type == .codable)
                }
            }
            var relationshipChanges: [ValueChange] = []
            for (index, relationship) in relationships.enumerated() {
                let before = translated(Comparison.value(of: old, at: places.relationships.0[index]))
                var after = Comparison.value(of: new, at: places.relationships.1[index])
                if case .references(let targets) = after { after = .references(targets.sorted()) }
                if before != after {
                    relationshipChanges.append(ValueChange(property: relationship.name, old: before, new: after))
                }
            }
            guard !attributeChanges.isEmpty || !relationshipChanges.isEmpty else { return nil }
            return ChangedObject(
                a: old.persistentIdentifier, b: new.persistentIdentifier, attributes: attributeChanges,
                relationships: relationshipChanges)
        }

        /// Per entity, B's primary key → A's for the matched pairs whose keys differ and whose B
        /// object `differences` refer to (as ``Comparison/differingKeys(referencedBy:)``).
        private func differingKeys(referencedBy differences: [EntityDifferences]) -> [String: [String: String]] {
            var result: [String: [String: String]] = [:]
            func note(_ value: SnapshotValue) {
                for target in value.referencedIdentifiers where target.storeIdentifier == storeB {
                    let entity = target.entityName
                    guard let j = indexB[entity]?.keys.position(of: target.primaryKey), let made = pairs[entity] else { continue }
                    let i = Int(made.partnerOfB[j])
                    guard i >= 0, let keys = indexA[entity]?.keys else { continue }
                    let keyA = keys.key(at: i)
                    if keyA != target.primaryKey { result[entity, default: [:]][target.primaryKey] = keyA }
                }
            }
            guard comparison.a.storeIdentifier != storeB else { return [:] }
            DocumentDiff.forEachReferringValue(in: differences, note)
            return result
        }
    }
}
