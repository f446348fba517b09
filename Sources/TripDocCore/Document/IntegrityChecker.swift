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
    /// need: each identifier once (as a number), each reference as three numbers, and the values
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
        /// Each number's identifier: the entity's place and the key's value, or (-1, -1 - n)
        /// for `texts[n]`… see ``identifier(_:)``.
        private var numbered: [(entity: Int32, key: Int64)] = []
        private var texts: [String] = []
        private var others: [PersistentIdentifier] = []
        /// Whether a snapshot with the numbered identifier has been added.
        private var present: [Bool] = []

        /// Numbers by numeric primary key: keys up to a bound that grows with the count (the
        /// usual `1, 2, 3, …`) index an array, larger ones a dictionary.
        private struct NumericKeys {
            private var dense: [Int32] = []
            private var sparse: [Int64: Int32] = [:]
            private var count = 0

            /// Makes room for keys up to about `count` in the array.
            mutating func reserveCapacity(_ count: Int) { dense.reserveCapacity(count + 1) }

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

        /// A reference from one snapshot to another, kept until every snapshot is known.
        private struct Reference {
            var source: Int32
            var target: Int32
            var relationship: Int32
            var snapshotIndex: Int32
            var order: Int32
            /// The target is of another entity than the relationship's destination.
            var isOfOtherEntity: Bool
        }
        private var references = ChunkedList<Reference>()

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
        }

        /// A session for a document with `header` and `schema`, with room made from the header's
        /// `nextPrimaryKeys` (``reserveCapacity(forSnapshotCounts:)``): what a reader that checks
        /// as it decodes starts with.
        public init(schema: Schema, header: DocumentHeader) {
            self.init(schema: schema, storeIdentifier: header.storeIdentifier)
            reserveCapacity(forSnapshotCounts: header.nextPrimaryKeys)
        }

        /// How many snapshots in all ``reserveCapacity(forSnapshotCounts:)`` makes room for in the
        /// identifier tables (about 22 bytes each), and how many keys in all in the uniqueness
        /// tables (about 60 bytes each, every constraint counting), whatever the counts say: at
        /// most about 100 MB of address space, little of it touched.
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
            numbered.reserveCapacity(Self.largestReservation.snapshots - snapshotsLeft)
            present.reserveCapacity(Self.largestReservation.snapshots - snapshotsLeft)
        }

        /// The number of `identifier`, given on first sight.
        private mutating func number(of identifier: PersistentIdentifier) -> Int32 {
            if identifier.isPermanent(in: storeName), let entity = entityNumbers[identifier.entityName]
            {
                return number(ofKey: identifier.primaryKey, entity: entity)
            }
            if let number = otherNumbers[identifier] { return number }
            let number = Int32(numbered.count)
            otherNumbers[identifier] = number
            numbered.append((-1, Int64(others.count)))
            others.append(identifier)
            present.append(false)
            return number
        }

        /// The number of the identifier of this store with `key` in the entity numbered `entity`.
        private mutating func number(ofKey key: String, entity: Int) -> Int32 {
            let next = Int32(numbered.count)
            if let value = PrimaryKeyOrder.canonicalNumber(key) {
                let number = numbersByValue[entity].number(of: value, next: next)
                if number == next {
                    numbered.append((Int32(entity), value))
                    present.append(false)
                }
                return number
            }
            let number = numbersByText[entity][key, default: next]
            if number == next {
                numbersByText[entity][key] = next
                numbered.append((Int32(entity), -1 - Int64(texts.count)))
                texts.append(key)
                present.append(false)
            }
            return number
        }

        /// The identifier numbered `number`.
        private func identifier(_ number: Int32) -> PersistentIdentifier {
            let (entity, key) = numbered[Int(number)]
            if entity < 0 { return others[Int(key)] }
            return PersistentIdentifier(
                storeIdentifier: storeIdentifier, entityName: entityNames[Int(entity)],
                primaryKey: key >= 0 ? String(key) : texts[Int(-1 - key)])
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
            isDuplicate = present[Int(source)]
            if isDuplicate {
                report(
                    .init(kind: .duplicateIdentifier, identifier: record.persistentIdentifier, message: "appears more than once"),
                    phase: 0, slot: 0)
            }
            present[Int(source)] = true
            check(record, identifier: nil, number: source, place: place)
        }

        /// Marks the identifier seen and reports a duplicate, a foreign identifier or an unknown
        /// entity; returns the entity's place, or `nil` when the schema lacks it.
        private mutating func checkIdentity(_ identifier: PersistentIdentifier, number source: Int32) -> Int? {
            isDuplicate = present[Int(source)]
            if isDuplicate {
                report(
                    .init(kind: .duplicateIdentifier, identifier: identifier, message: "appears more than once"),
                    phase: 0, slot: 0)
            }
            present[Int(source)] = true
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
            var order: Int32 = 0
            for position in plan.relationships.indices {
                let relationship = plan.relationships[position]
                func refer(to target: PersistentIdentifier) {
                    let isOfDestination = target.isOf(plan.relationshipDestinations[position])
                    let targetNumber: Int32 =
                        if let place = relationship.place, isOfDestination, target.isPermanent(in: storeName) {
                            number(ofKey: target.primaryKey, entity: place)
                        } else {
                            number(of: target)
                        }
                    references.append(
                        Reference(
                            source: source, target: targetNumber, relationship: relationship.number,
                            snapshotIndex: Int32(snapshotCount), order: order,
                            // It is dangling whatever it names.
                            isOfOtherEntity: !isOfDestination))
                    order += 1
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
            // Each relationship's pairs (source, target), sorted, for the inverse check. A
            // relationship and the inverse that names it back are checked by one merge of their
            // two lists, so the second one's pairs are kept the other way round, (target,
            // source): the first's pairs that the second lacks do not point back, and the
            // reverse. No list is copied the other way round for it: memory touched for the first
            // time is most of what this costs on a virtual machine.
            let isKeptReversed = inverseNumbers.indices.map { relationship in
                let inverse = inverseNumbers[relationship]
                return inverse >= 0 && inverse < relationship && inverseNumbers[inverse] == relationship
            }
            var pairs = [[UInt64]](repeating: [], count: inverseNumbers.count)
            var pairCounts = [Int](repeating: 0, count: inverseNumbers.count)
            for reference in references where !reference.isOfOtherEntity { pairCounts[Int(reference.relationship)] += 1 }
            for index in pairs.indices { pairs[index].reserveCapacity(pairCounts[index]) }
            for reference in references where !reference.isOfOtherEntity {
                let relationship = Int(reference.relationship)
                pairs[relationship].append(
                    isKeptReversed[relationship]
                        ? Self.pair(reference.target, reference.source) : Self.pair(reference.source, reference.target))
            }
            // Pairs are added in document order, so mostly in order already: sorting is cheap.
            for index in pairs.indices { pairs[index].sort() }
            // Per relationship with an inverse: the pairs (source, target) whose inverse does not
            // point back. One pass over two sorted lists instead of a search per reference (a
            // million searches through a million pairs each missed the cache at every step).
            var unmatched = [Set<UInt64>](repeating: [], count: inverseNumbers.count)
            for (relationship, inverse) in inverseNumbers.enumerated() where inverse >= 0 && !isKeptReversed[relationship] {
                if isKeptReversed[inverse] && inverseNumbers[inverse] == relationship {
                    let (forwards, backwards) = Self.differences(pairs[relationship], pairs[inverse])
                    unmatched[relationship] = forwards
                    unmatched[inverse] = Set(backwards.map(Self.swapped))
                } else if !pairs[relationship].isEmpty {
                    // The inverse's pairs the other way round (as they are kept, when it has a
                    // partner of its own that names it back).
                    let backwards = isKeptReversed[inverse] ? pairs[inverse] : pairs[inverse].map(Self.swapped).sorted()
                    unmatched[relationship] = Self.differences(pairs[relationship], backwards, collectingSecond: false).onlyInFirst
                }
            }
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
            for reference in references {
                // Names are worked out only for a problem.
                func problem(_ kind: IntegrityProblem.Kind, _ message: (PersistentIdentifier) -> String) {
                    found.append(
                        (
                            (1, Int(reference.snapshotIndex), 3, Int(reference.order)),
                            .init(
                                kind: kind, identifier: identifier(reference.source),
                                property: relationshipNames[Int(reference.relationship)]!,
                                message: message(identifier(reference.target)))
                        ))
                }
                guard !reference.isOfOtherEntity, present[Int(reference.target)] else {
                    problem(.danglingReference) { "points at \($0), which the document does not hold" }
                    continue
                }
                let inverse = inverseNumbers[Int(reference.relationship)]
                guard inverse != -1 else { continue }
                if inverse == -2
                    || (!unmatched[Int(reference.relationship)].isEmpty
                        && unmatched[Int(reference.relationship)].contains(Self.pair(reference.source, reference.target)))
                {
                    problem(.inverseMismatch) {
                        "points at \($0), whose \(inverseNames[Int(reference.relationship)]!) does not point back"
                    }
                }
            }
            let problems = found.enumerated().sorted { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
            }.map(\.element.problem)
            if snapshotCount > Self.largestFreedInPlace { releaseTables() }
            return problems
        }

        /// A session of more snapshots than this frees its tables on a thread of its own when it
        /// finishes: freeing a million keys (a release per key) took a tenth of a second, with
        /// one core idle, at the end of a conversion or an inspection.
        static let largestFreedInPlace = 100_000

        /// Hands the tables to ``BackgroundRelease``: the session is finished with them, and takes
        /// no more snapshots.
        private mutating func releaseTables() {
            BackgroundRelease.release(
                (numbersByValue, numbersByText, otherNumbers, numbered, texts, others, present, references, uniqueKeys))
            numbersByValue = []
            numbersByText = []
            otherNumbers = [:]
            numbered = []
            texts = []
            others = []
            present = []
            references = ChunkedList()
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
