import Foundation

/// Finds what is wrong with a document's contents: duplicate identifiers, identifiers of another
/// store, values that do not fit the schema, dangling references, relationships whose inverse
/// disagrees, and models equal on a uniqueness constraint. Used by the store engine before it
/// changes a document, by `tripdoc inspect`, and (one snapshot at a time, through ``Session``) by
/// `tripdoc convert` on documents larger than memory.
public struct IntegrityChecker {
    /// Creates a checker.
    public init() {}

    /// Every problem in `document`, in document order.
    public func problems(in document: Document) -> [IntegrityProblem] {
        var session = Session(schema: document.schema, storeIdentifier: document.storeIdentifier)
        for snapshot in document.snapshots { session.add(snapshot) }
        return session.finish()
    }

    /// A check fed one snapshot at a time, in document order, that keeps only what the checks
    /// need: each identifier once (as a number), each reference as two numbers, and the values
    /// of uniqueness constraints. ``finish()`` gives the same problems, in the same order, as
    /// ``IntegrityChecker/problems(in:)`` gives for the whole document.
    public struct Session {
        private let storeIdentifier: String
        /// ``storeIdentifier`` as identifiers hold it.
        private let storeName: InternedName
        /// What the checks need of one entity, worked out once (an object, so that each
        /// snapshot's check does not copy it).
        private final class EntityPlan {
            let name: String
            /// The coding plan records of this entity are laid out by.
            let coding: EntityCodingPlan
            /// The attributes in schema order (the order their problems are reported in), with
            /// their place in a record.
            let attributes: [(name: String, type: AttributeType, isOptional: Bool, index: Int)]
            /// Each relationship in schema order: its place in a record, its number, and its
            /// destination's place among the entities. Plain numbers, so the per-snapshot loop
            /// copies no strings; ``relationshipDestinations`` has the destinations, by the same
            /// position, as identifiers hold them.
            let relationships: [(index: Int, number: Int32, place: Int?)]
            let relationshipDestinations: [InternedName]
            /// The last plan of another schema whose records were found laid out like ``coding``.
            private var compatible: EntityCodingPlan?
            /// The last plan of another schema whose attributes were found to be ``coding``'s.
            private var sameAttributes: EntityCodingPlan?

            /// Whether records of `other` are laid out as this entity's are.
            func accepts(_ other: EntityCodingPlan) -> Bool {
                if other === coding || other === compatible { return true }
                guard coding.hasTheLayout(of: other) else { return false }
                compatible = other
                return true
            }

            /// Whether `record`'s values are known to fit this entity's attributes: decoded by
            /// the types of a plan whose attributes are this entity's.
            func knowsFitting(_ record: SnapshotRecord) -> Bool {
                guard record.valuesFitPlan else { return false }
                let other = record.plan
                if other === coding || other === sameAttributes { return true }
                guard other.entity.attributes == coding.entity.attributes else { return false }
                sameAttributes = other
                return true
            }

            /// Each uniqueness constraint, and the places of its properties in a record.
            let uniquenessConstraints: [(names: [String], indices: [Int]?)]

            init(_ entity: Schema.Entity, numbers: [String: Int], places: [String: Int]) {
                name = entity.name
                let coding = EntityCodingPlan(entity)
                self.coding = coding
                func index(_ name: String) -> Int? { coding.propertiesByName[name]?.index }
                attributes = entity.attributes.map { ($0.name, $0.type, $0.isOptional, index($0.name)!) }
                relationships = entity.relationships.map {
                    (index($0.name)!, Int32(numbers[$0.name]!), places[$0.destination])
                }
                relationshipDestinations = entity.relationships.map { InternedName($0.destination) }
                uniquenessConstraints = entity.effectiveUniquenessConstraints.map { names in
                    let indices = names.compactMap(index)
                    return (names, indices.count == names.count ? indices : nil)
                }
            }
        }
        private let plans: [EntityPlan]
        private let entities: [String: Schema.Entity]
        /// Each relationship of the schema by entity and name, numbered.
        private var relationshipNumbers: [String: [String: Int]] = [:]
        /// For each relationship number: its inverse's number, or -1 when it has none declared,
        /// or -2 when the declared inverse is not a relationship of the destination.
        private var inverseNumbers: [Int] = []

        /// The entities' names, and each one's place in them.
        private let entityNames: [String]
        private let entityNumbers: [String: Int]
        /// Identifiers of this store, numbered, per entity: canonical numeric keys by value,
        /// other keys by text.
        private var numbersByValue: [NumericKeys]
        private var numbersByText: [[String: Int32]]
        /// Identifiers of other stores, temporary ones, and ones of entities the schema lacks.
        private var otherNumbers: [PersistentIdentifier: Int32] = [:]
        /// How many identifiers have been numbered: the number the next one gets.
        private var identifierCount: Int32 = 0
        /// Each number's identifier, worked out from the tables above the first time a problem
        /// names one (``identifier(_:)``), and kept up to date from then on: a document without
        /// problems never needs it, and for a million identifiers it would take tens of MB.
        private var identifiersByNumber: [PersistentIdentifier]?
        /// For each numbered identifier, the place among the snapshots of the first snapshot
        /// with it, or -1 while none has come.
        private var firstSnapshots: [Int32] = []

        /// Numbers by numeric primary key: keys up to a bound that grows with the count (the
        /// usual `1, 2, 3, …`) index an array, larger ones a dictionary.
        private struct NumericKeys {
            private var dense: [Int32] = []
            private var sparse: [Int64: Int32] = [:]
            private var count = 0

            /// Makes room for keys up to about `count` in the array.
            mutating func reserveCapacity(_ count: Int) { dense.reserveCapacity(count + 1) }

            /// Calls `body` with each key numbered and its number.
            func forEach(_ body: (_ key: Int64, _ number: Int32) -> Void) {
                for (key, number) in dense.enumerated() where number >= 0 { body(Int64(key), number) }
                for (key, number) in sparse { body(key, number) }
            }

            /// The number of `key`, or `next` (recorded) when it has none yet.
            mutating func number(of key: Int64, next: Int32) -> Int32 {
                if key < Int64(dense.count) {
                    let number = dense[Int(key)]
                    if number >= 0 { return number }
                    // Numbered before the array reached it.
                    if !sparse.isEmpty, let number = sparse[key] { return number }
                    dense[Int(key)] = next
                    count += 1
                    return next
                }
                if key < Int64(4 * count + 4096) {
                    dense.append(contentsOf: repeatElement(-1, count: max(Int(key) + 1 - dense.count, dense.count)))
                    return number(of: key, next: next)
                }
                let number = sparse[key, default: next]
                if number == next {
                    sparse[key] = next
                    count += 1
                }
                return number
            }
        }

        /// Each relationship's references, by the relationship's number, kept until every
        /// snapshot is known: (source, target) pairs (``pair(_:_:)``), eight bytes each, in
        /// document order. The snapshot a pair is from is the first with its source
        /// (``firstSnapshots``), and its place in that snapshot's list is how far it is into the
        /// run of pairs with that source. A target of another entity than the relationship's
        /// destination is kept as its number's complement, which is negative: it is dangling
        /// whatever it names. The references of a snapshot whose identifier came before go to
        /// ``repeatedReferences`` instead.
        private var referencePairs: [ChunkedList<UInt64>]

        /// A reference with where it is: what ``repeatedReferences`` keeps, and what
        /// ``forEachReference(of:_:)`` works out for a pair.
        private struct LocatedReference {
            var relationship: Int32
            var source: Int32
            /// As in ``referencePairs``: the complement of the number for another entity.
            var target: Int32
            /// The place of the snapshot among the document's.
            var snapshot: Int32
            /// The place in the snapshot's list for the relationship.
            var position: Int32
        }
        /// The references of snapshots whose identifier came before, by relationship number, in
        /// document order (by relationship, so that a pass over each relationship's does not
        /// go through every relationship's).
        private var repeatedReferences: [Int32: [LocatedReference]] = [:]

        /// The values of a uniqueness constraint in one snapshot, hashed once: a table of a
        /// million keys hashes each key again every time it grows, and hashing the strings and
        /// dates of every key again was most of what the uniqueness check cost.
        private struct UniqueKey: Hashable {
            let values: [SnapshotValue]
            let hash: Int

            init(_ values: [SnapshotValue]) {
                self.values = values
                hash = values.hashValue
            }

            static func == (a: UniqueKey, b: UniqueKey) -> Bool { a.hash == b.hash && a.values == b.values }
            func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        }

        /// Per entity and uniqueness constraint: the values seen, and whose they were.
        private var uniqueKeys: [[[UniqueKey: Int32]]]
        private var snapshotCount = 0
        /// Whether the snapshot being checked repeats an identifier seen before.
        private var isDuplicate = false
        /// Problems found so far, with where they sort: (phase, snapshot, slot, order).
        private var found: [(key: (Int, Int, Int, Int), problem: IntegrityProblem)] = []

        /// A session for a document of `schema` in the store `storeIdentifier`.
        public init(schema: Schema, storeIdentifier: String) {
            self.storeIdentifier = storeIdentifier
            storeName = InternedName(storeIdentifier)
            entities = schema.entitiesByName
            entityNames = schema.entities.map(\.name)
            entityNumbers = Dictionary(schema.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
            numbersByValue = Array(repeating: NumericKeys(), count: schema.entities.count)
            numbersByText = Array(repeating: [:], count: schema.entities.count)
            for entity in schema.entities {
                for relationship in entity.relationships {
                    relationshipNumbers[entity.name, default: [:]][relationship.name] = inverseNumbers.count
                    inverseNumbers.append(-1)
                }
            }
            for entity in schema.entities {
                for relationship in entity.relationships {
                    guard let inverse = relationship.inverseName else { continue }
                    let number = relationshipNumbers[entity.name]![relationship.name]!
                    inverseNumbers[number] = relationshipNumbers[relationship.destination]?[inverse] ?? -2
                }
            }
            let numbers = relationshipNumbers
            let places = entityNumbers
            plans = schema.entities.map { EntityPlan($0, numbers: numbers[$0.name] ?? [:], places: places) }
            uniqueKeys = plans.map { Array(repeating: [:], count: $0.uniquenessConstraints.count) }
            referencePairs = Array(repeating: ChunkedList(), count: inverseNumbers.count)
        }

        /// A session for a document with `header` and `schema`, with room made from the header's
        /// `nextPrimaryKeys` (``reserveCapacity(forSnapshotCounts:)``): what a reader that checks
        /// as it decodes starts with.
        public init(schema: Schema, header: DocumentHeader) {
            self.init(schema: schema, storeIdentifier: header.storeIdentifier)
            reserveCapacity(forSnapshotCounts: header.nextPrimaryKeys)
        }

        /// How many snapshots in all ``reserveCapacity(forSnapshotCounts:)`` makes room for in the
        /// identifier tables (about 8 bytes each), and how many keys in all in the uniqueness
        /// tables (about 60 bytes each, every constraint counting), whatever the counts say: at
        /// most about 80 MB of address space, little of it touched.
        public static var largestReservation: (snapshots: Int, uniqueKeys: Int) { (1 << 21, 1 << 20) }

        /// Makes room for about `counts[entity]` snapshots of each entity, so that the tables do
        /// not grow by copying themselves as the snapshots come (a header's `nextPrimaryKeys` is
        /// such a hint: the next key, so at least the count of a store that never deleted).
        /// Room is made for at most ``largestReservation``: a count is a hint, not a promise.
        public mutating func reserveCapacity(forSnapshotCounts counts: [String: Int64]) {
            var snapshotsLeft = Self.largestReservation.snapshots
            var keysLeft = Self.largestReservation.uniqueKeys
            for (name, count) in counts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                guard let place = entityNumbers[name], count > 0 else { continue }
                let expected = Int(min(count, Int64(snapshotsLeft)))
                snapshotsLeft -= expected
                numbersByValue[place].reserveCapacity(expected)
                for (index, constraint) in plans[place].uniquenessConstraints.enumerated() where constraint.indices != nil {
                    let keys = Int(min(count, Int64(keysLeft)))
                    keysLeft -= keys
                    uniqueKeys[place][index].reserveCapacity(keys)
                }
            }
            firstSnapshots.reserveCapacity(Self.largestReservation.snapshots - snapshotsLeft)
        }

        /// The number of `identifier`, given on first sight.
        private mutating func number(of identifier: PersistentIdentifier) -> Int32 {
            if identifier.isPermanent(in: storeName), let entity = entityNumbers[identifier.entityName]
            {
                return number(ofKey: identifier.primaryKey, entity: entity)
            }
            if let number = otherNumbers[identifier] { return number }
            let number = takeNumber()
            otherNumbers[identifier] = number
            identifiersByNumber?.append(identifier)
            return number
        }

        /// The number of the identifier of this store with `key` in the entity numbered `entity`.
        private mutating func number(ofKey key: String, entity: Int) -> Int32 {
            let next = identifierCount
            if let value = PrimaryKeyOrder.canonicalNumber(key) {
                let number = numbersByValue[entity].number(of: value, next: next)
                if number == next {
                    _ = takeNumber()
                    if identifiersByNumber != nil { identifiersByNumber!.append(identifier(ofKey: String(value), entity: entity)) }
                }
                return number
            }
            let number = numbersByText[entity][key, default: next]
            if number == next {
                numbersByText[entity][key] = next
                _ = takeNumber()
                if identifiersByNumber != nil { identifiersByNumber!.append(identifier(ofKey: key, entity: entity)) }
            }
            return number
        }

        /// The next number, taken for an identifier the caller puts in the tables (and in
        /// ``identifiersByNumber``, once that exists).
        private mutating func takeNumber() -> Int32 {
            let number = identifierCount
            identifierCount += 1
            firstSnapshots.append(-1)
            return number
        }

        /// The identifier of this store with `key` in the entity numbered `entity`.
        private func identifier(ofKey key: String, entity: Int) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityNames[entity], primaryKey: key)
        }

        /// The identifier numbered `number`.
        private mutating func identifier(_ number: Int32) -> PersistentIdentifier {
            if identifiersByNumber == nil {
                var identifiers = [PersistentIdentifier?](repeating: nil, count: Int(identifierCount))
                for (entity, keys) in numbersByValue.enumerated() {
                    keys.forEach { key, number in identifiers[Int(number)] = identifier(ofKey: String(key), entity: entity) }
                }
                for (entity, keys) in numbersByText.enumerated() {
                    for (key, number) in keys { identifiers[Int(number)] = identifier(ofKey: key, entity: entity) }
                }
                for (identifier, number) in otherNumbers { identifiers[Int(number)] = identifier }
                identifiersByNumber = identifiers.map { $0! }
            }
            return identifiersByNumber![Int(number)]
        }

        /// Marks the identifier numbered `source` seen in the snapshot being checked, and
        /// reports it when it was seen before.
        private mutating func markSeen(_ source: Int32, _ identifier: @autoclosure () -> PersistentIdentifier) {
            isDuplicate = firstSnapshots[Int(source)] >= 0
            if isDuplicate {
                report(
                    .init(kind: .duplicateIdentifier, identifier: identifier(), message: "appears more than once"),
                    phase: 0, slot: 0)
            } else {
                firstSnapshots[Int(source)] = Int32(snapshotCount)
            }
        }

        private mutating func report(_ problem: IntegrityProblem, phase: Int = 1, slot: Int, order: Int = 0) {
            found.append(((phase, snapshotCount, slot, order), problem))
        }

        /// Checks the next snapshot.
        public mutating func add(_ snapshot: DefaultSnapshot) {
            defer { snapshotCount += 1 }
            let identifier = snapshot.persistentIdentifier
            let source = number(of: identifier)
            guard let place = checkIdentity(identifier, number: source) else { return }
            let (record, unknown) = SnapshotRecord.of(snapshot, plan: plans[place].coding)
            for name in unknown {
                report(
                    .init(kind: .unknownProperty, identifier: identifier, property: name, message: "is not a property of \(plans[place].name)"),
                    slot: 1)
            }
            check(record, identifier: identifier, number: source, place: place)
        }

        /// Checks the next snapshot, as a reader decoded it.
        public mutating func add(record: SnapshotRecord) {
            guard let place = entityNumbers[record.entityName], record.store == storeName,
                plans[place].accepts(record.plan)
            else { return add(record.snapshot) }
            defer { snapshotCount += 1 }
            let source = number(ofKey: record.primaryKey, entity: place)
            markSeen(source, record.persistentIdentifier)
            check(record, identifier: nil, number: source, place: place)
        }

        /// Marks the identifier seen and reports a duplicate, a foreign identifier or an unknown
        /// entity; returns the entity's place, or `nil` when the schema lacks it.
        private mutating func checkIdentity(_ identifier: PersistentIdentifier, number source: Int32) -> Int? {
            markSeen(source, identifier)
            if !identifier.isPermanent(in: storeName) {
                report(
                    .init(
                        kind: .foreignIdentifier, identifier: identifier,
                        message: "belongs to store \(identifier.storeIdentifier ?? "(temporary)"), "
                            + "not to this document's store \(storeIdentifier)"),
                    phase: 0, slot: 1)
            }
            guard let place = entityNumbers[identifier.entityName] else {
                report(
                    .init(kind: .unknownEntity, identifier: identifier, message: "the schema has no entity '\(identifier.entityName)'"),
                    slot: 0)
                return nil
            }
            return place
        }

        /// The checks of one snapshot's values: types, references (kept for ``finish()``) and
        /// uniqueness. `identifier` names it in problems (the record's own when `nil`).
        private mutating func check(_ record: SnapshotRecord, identifier: PersistentIdentifier?, number source: Int32, place: Int) {
            let plan = plans[place]
            let values = record.values
            if !plan.knowsFitting(record) {
                for attribute in plan.attributes {
                    let value = values[attribute.index]
                    if case .null = value {
                        if !attribute.isOptional {
                            report(
                                .init(
                                    kind: .valueDoesNotFitSchema, identifier: identifier ?? record.persistentIdentifier,
                                    property: attribute.name, message: "is nil but the attribute is not optional"),
                                slot: 2)
                        }
                    } else if !value.fits(attribute.type) {
                        report(
                            .init(
                                kind: .valueDoesNotFitSchema, identifier: identifier ?? record.persistentIdentifier,
                                property: attribute.name,
                                message: "holds \(value.kindDescription), expected \(attribute.type.name)"),
                            slot: 2)
                    }
                }
            }
            for position in plan.relationships.indices {
                let relationship = plan.relationships[position]
                var listPosition: Int32 = 0
                func refer(to target: PersistentIdentifier) {
                    let isOfDestination = target.isOf(plan.relationshipDestinations[position])
                    let targetNumber: Int32 =
                        if let place = relationship.place, isOfDestination, target.isPermanent(in: storeName) {
                            number(ofKey: target.primaryKey, entity: place)
                        } else {
                            number(of: target)
                        }
                    let kept = isOfDestination ? targetNumber : ~targetNumber
                    if isDuplicate {
                        repeatedReferences[relationship.number, default: []].append(
                            LocatedReference(
                                relationship: relationship.number, source: source, target: kept,
                                snapshot: Int32(snapshotCount), position: listPosition))
                    } else {
                        referencePairs[Int(relationship.number)].append(Self.pair(source, kept))
                    }
                    listPosition += 1
                }
                switch values[relationship.index] {
                case .reference(let target): refer(to: target)
                case .references(let targets): for target in targets { refer(to: target) }
                default: break
                }
            }
            for (index, constraint) in plan.uniquenessConstraints.enumerated() {
                guard let indices = constraint.indices else { continue }
                var keyValues: [SnapshotValue] = []
                keyValues.reserveCapacity(indices.count)
                for position in indices {
                    let value = values[position]
                    if case .null = value { break }
                    keyValues.append(value)
                }
                guard keyValues.count == indices.count else { continue }
                let key = UniqueKey(keyValues)
                // One lookup: the first owner stays, a new key is taken by this snapshot. A second
                // snapshot of one identifier clashes with the first even though they share a number.
                let owner: Int32
                let clashes: Bool
                if isDuplicate, let existing = uniqueKeys[place][index][key] {
                    owner = existing
                    clashes = true
                } else {
                    owner = Self.owner(&uniqueKeys[place][index][key, default: source])
                    clashes = owner != source
                }
                if clashes {
                    report(
                        .init(
                            kind: .uniquenessViolated, identifier: identifier ?? record.persistentIdentifier,
                            message: "has the same \(constraint.names.joined(separator: ", ")) as \(self.identifier(owner))"),
                        slot: 4)
                }
            }
        }

        /// Every problem of the snapshots added, in document order. This ends the session: add
        /// nothing after it (a large session's tables are freed as it returns).
        public mutating func finish() -> [IntegrityProblem] {
            let unmatched = unmatchedPairs()
            // The references that are problems, in document order per relationship. Names are
            // worked out only for these.
            var dangling: [LocatedReference] = []
            var mismatched: [LocatedReference] = []
            for relationship in referencePairs.indices {
                let inverse = inverseNumbers[relationship]
                let unmatchedHere = unmatched[relationship]
                forEachReference(of: relationship) { reference in
                    if reference.target < 0 || firstSnapshots[Int(reference.target)] < 0 {
                        dangling.append(reference)
                    } else if inverse == -2
                        || (inverse >= 0 && !unmatchedHere.isEmpty
                            && unmatchedHere.contains(Self.pair(reference.source, reference.target)))
                    {
                        mismatched.append(reference)
                    }
                }
            }
            if !dangling.isEmpty || !mismatched.isEmpty {
                var relationshipNames: [Int: String] = [:]
                var inverseNames: [Int: String] = [:]
                for (entityName, relationships) in relationshipNumbers {
                    for (name, number) in relationships {
                        relationshipNames[number] = name
                        if let inverse = entities[entityName]?.relationship(named: name)?.inverseName {
                            inverseNames[number] = inverse
                        }
                    }
                }
                // A snapshot's references sort by relationship (numbered in schema order), then
                // by place in its list.
                func report(
                    _ references: [LocatedReference], _ kind: IntegrityProblem.Kind,
                    _ message: (_ target: PersistentIdentifier, _ relationship: Int) -> String
                ) {
                    for reference in references {
                        let relationship = Int(reference.relationship)
                        let target = reference.target < 0 ? ~reference.target : reference.target
                        let problem = IntegrityProblem(
                            kind: kind, identifier: identifier(reference.source), property: relationshipNames[relationship]!,
                            message: message(identifier(target), relationship))
                        found.append(((1, Int(reference.snapshot), 3, relationship << 32 | Int(reference.position)), problem))
                    }
                }
                report(dangling, .danglingReference) { target, _ in
                    // An identifier of another store is named with it: its entity and key may
                    // well be a model of this document.
                    if let store = target.storeIdentifier, store != storeIdentifier, !target.isTemporary {
                        "points at \(target) of store \(store), which the document does not hold"
                    } else {
                        "points at \(target), which the document does not hold"
                    }
                }
                report(mismatched, .inverseMismatch) { target, relationship in
                    "points at \(target), whose \(inverseNames[relationship]!) does not point back"
                }
            }
            let problems = found.enumerated().sorted { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
            }.map(\.element.problem)
            if snapshotCount > Self.largestFreedInPlace { releaseTables() }
            return problems
        }

        /// Calls `body` with each reference of `relationship`, in document order, with where it is.
        private func forEachReference(of relationship: Int, _ body: (LocatedReference) -> Void) {
            var runSource: Int32 = -1
            var position: Int32 = 0
            for pair in referencePairs[relationship] {
                let source = Self.source(of: pair)
                if source == runSource {
                    position += 1
                } else {
                    runSource = source
                    position = 0
                }
                body(
                    LocatedReference(
                        relationship: Int32(relationship), source: source, target: Self.target(of: pair),
                        snapshot: firstSnapshots[Int(source)], position: position))
            }
            for reference in repeatedReferences[Int32(relationship)] ?? [] { body(reference) }
        }

        /// Per relationship with an inverse: the pairs (source, target) whose inverse does not
        /// point back.
        ///
        /// Each relationship's pairs are sorted, and compared with its inverse's, turned round, in
        /// one pass over both lists (a search per reference, a million searches through a
        /// million pairs, missed the cache at every step). A relationship and the inverse that
        /// names it back take one pass for both: the first's pairs that the second lacks do not
        /// point back, and the reverse. The sorted lists are made one relationship at a time,
        /// so at most two of them exist at once.
        private func unmatchedPairs() -> [Set<UInt64>] {
            // The relationships naming each one as their inverse: more than one when several
            // relationships of an entity share an inverse, which must then hold what they all
            // hold (each of them is checked one way, against it; it against all of them).
            var sharers = [[Int]](repeating: [], count: inverseNumbers.count)
            for (relationship, inverse) in inverseNumbers.enumerated() where inverse >= 0 { sharers[inverse].append(relationship) }
            // Whether a relationship is the second of two that name each other back (and share
            // no inverse with another).
            let isSecondOfTwo = inverseNumbers.indices.map { relationship in
                let inverse = inverseNumbers[relationship]
                return inverse >= 0 && inverse < relationship && inverseNumbers[inverse] == relationship
                    && sharers[inverse].count < 2 && sharers[relationship].count < 2
            }
            var unmatched = [Set<UInt64>](repeating: [], count: inverseNumbers.count)
            for (relationship, inverse) in inverseNumbers.enumerated() where inverse >= 0 && !isSecondOfTwo[relationship] {
                if isSecondOfTwo[inverse] && inverseNumbers[inverse] == relationship {
                    let (forwards, backwards) = Self.differences(
                        sortedPairs(of: relationship, turned: false), sortedPairs(of: inverse, turned: true))
                    unmatched[relationship] = forwards
                    unmatched[inverse] = Set(backwards.map(Self.swapped))
                } else if referencePairs[relationship].count > 0
                    || repeatedReferences[Int32(relationship)] != nil
                {
                    unmatched[relationship] = Self.differences(
                        sortedPairs(of: relationship, turned: false), sortedPairs(of: inverse, turned: true),
                        collectingSecond: false
                    ).onlyInFirst
                }
            }
            for shared in sharers.indices where sharers[shared].count >= 2 {
                var union: [UInt64] = []
                for sharer in sharers[shared] { union += sortedPairs(of: sharer, turned: true) }
                union.sort()
                unmatched[shared] = Self.differences(
                    sortedPairs(of: shared, turned: false), union, collectingSecond: false
                ).onlyInFirst
            }
            return unmatched
        }

        /// The pairs of `relationship` whose target is of its destination, (target, source) when
        /// `turned`, sorted.
        private func sortedPairs(of relationship: Int, turned: Bool) -> [UInt64] {
            var pairs: [UInt64] = []
            pairs.reserveCapacity(referencePairs[relationship].count)
            for pair in referencePairs[relationship] where Self.target(of: pair) >= 0 {
                pairs.append(turned ? Self.swapped(pair) : pair)
            }
            for reference in repeatedReferences[Int32(relationship)] ?? [] where reference.target >= 0 {
                let pair = Self.pair(reference.source, reference.target)
                pairs.append(turned ? Self.swapped(pair) : pair)
            }
            // Pairs come in document order, so mostly in order already: sorting is cheap.
            pairs.sort()
            return pairs
        }

        /// A session of more snapshots than this frees its tables on a thread of its own when it
        /// finishes: freeing a million keys (a release per key) took a tenth of a second, with
        /// one core idle, at the end of a conversion or an inspection.
        static let largestFreedInPlace = 100_000

        /// Hands the tables to ``BackgroundRelease``: the session is finished with them, and takes
        /// no more snapshots.
        private mutating func releaseTables() {
            BackgroundRelease.release(
                (numbersByValue, numbersByText, otherNumbers, identifiersByNumber, firstSnapshots, referencePairs,
                 repeatedReferences, uniqueKeys))
            numbersByValue = []
            numbersByText = []
            otherNumbers = [:]
            identifiersByNumber = nil
            firstSnapshots = []
            referencePairs = []
            repeatedReferences = [:]
            uniqueKeys = []
        }

        private static func owner(_ value: inout Int32) -> Int32 { value }

        /// The elements of the sorted list `first` that the sorted list `second` lacks, and (when
        /// `collectingSecond`) the reverse, in one pass over both.
        private static func differences(
            _ first: [UInt64], _ second: [UInt64], collectingSecond: Bool = true
        ) -> (onlyInFirst: Set<UInt64>, onlyInSecond: Set<UInt64>) {
            var onlyInFirst: Set<UInt64> = []
            var onlyInSecond: Set<UInt64> = []
            var i = 0
            var j = 0
            while i < first.count, j < second.count {
                let a = first[i]
                let b = second[j]
                if a < b {
                    onlyInFirst.insert(a)
                    i += 1
                } else if b < a {
                    if collectingSecond { onlyInSecond.insert(b) }
                    j += 1
                } else {
                    while i < first.count, first[i] == a { i += 1 }
                    while j < second.count, second[j] == a { j += 1 }
                }
            }
            onlyInFirst.formUnion(first[i...])
            if collectingSecond { onlyInSecond.formUnion(second[j...]) }
            return (onlyInFirst, onlyInSecond)
        }

        /// `pair` the other way round: (target, source) for (source, target).
        private static func swapped(_ pair: UInt64) -> UInt64 { Self.pair(target(of: pair), source(of: pair)) }

        private static func pair(_ a: Int32, _ b: Int32) -> UInt64 {
            UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b))
        }
        private static func source(of pair: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: pair >> 32)) }
        private static func target(of pair: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: pair)) }
    }
}
