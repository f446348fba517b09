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
        private let entities: [String: Schema.Entity]
        private let propertyNames: [String: Set<String>]
        /// Each relationship of the schema by entity and name, numbered.
        private var relationshipNumbers: [String: [String: Int]] = [:]
        /// For each relationship number: its inverse's number, or -1 when it has none declared,
        /// or -2 when the declared inverse is not a relationship of the destination.
        private var inverseNumbers: [Int] = []

        /// Identifiers of this store, numbered, by entity then primary key.
        private var numbersByKey: [String: [String: Int32]] = [:]
        /// Identifiers of other stores and temporary ones, numbered.
        private var otherNumbers: [PersistentIdentifier: Int32] = [:]
        /// Each number's identifier.
        private var identifiers: [PersistentIdentifier] = []
        /// Whether a snapshot with the numbered identifier has been added.
        private var present: [Bool] = []

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
        private var references: [Reference] = []

        private var uniqueKeys: [String: [[String]: [[SnapshotValue]: PersistentIdentifier]]] = [:]
        private var snapshotCount = 0
        /// Problems found so far, with where they sort: (phase, snapshot, slot, order).
        private var found: [(key: (Int, Int, Int, Int), problem: IntegrityProblem)] = []

        /// A session for a document of `schema` in the store `storeIdentifier`.
        public init(schema: Schema, storeIdentifier: String) {
            self.storeIdentifier = storeIdentifier
            entities = schema.entitiesByName
            propertyNames = entities.mapValues { Set($0.propertyNames) }
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
        }

        /// The number of `identifier`, given on first sight.
        private mutating func number(of identifier: PersistentIdentifier) -> Int32 {
            if identifier.storeIdentifier == storeIdentifier, !identifier.isTemporary {
                if let number = numbersByKey[identifier.entityName]?[identifier.primaryKey] { return number }
                let number = Int32(identifiers.count)
                numbersByKey[identifier.entityName, default: [:]][identifier.primaryKey] = number
                identifiers.append(identifier)
                present.append(false)
                return number
            }
            if let number = otherNumbers[identifier] { return number }
            let number = Int32(identifiers.count)
            otherNumbers[identifier] = number
            identifiers.append(identifier)
            present.append(false)
            return number
        }

        private mutating func report(_ problem: IntegrityProblem, phase: Int = 1, slot: Int, order: Int = 0) {
            found.append(((phase, snapshotCount, slot, order), problem))
        }

        /// Checks the next snapshot.
        public mutating func add(_ snapshot: DefaultSnapshot) {
            defer { snapshotCount += 1 }
            let identifier = snapshot.persistentIdentifier
            let source = number(of: identifier)
            if present[Int(source)] {
                report(
                    .init(kind: .duplicateIdentifier, identifier: identifier, message: "appears more than once"),
                    phase: 0, slot: 0)
            }
            present[Int(source)] = true
            if identifier.storeIdentifier != storeIdentifier || identifier.isTemporary {
                report(
                    .init(
                        kind: .foreignIdentifier, identifier: identifier,
                        message: "belongs to store \(identifier.storeIdentifier ?? "(temporary)"), "
                            + "not to this document's store \(storeIdentifier)"),
                    phase: 0, slot: 1)
            }
            guard let entity = entities[identifier.entityName] else {
                report(
                    .init(kind: .unknownEntity, identifier: identifier, message: "the schema has no entity '\(identifier.entityName)'"),
                    slot: 0)
                return
            }
            let known = propertyNames[entity.name]!
            if snapshot.values.keys.contains(where: { !known.contains($0) }) {
                for name in snapshot.values.keys.sorted() where !known.contains(name) {
                    report(
                        .init(kind: .unknownProperty, identifier: identifier, property: name, message: "is not a property of \(entity.name)"),
                        slot: 1)
                }
            }
            for attribute in entity.attributes {
                let value = snapshot.values[attribute.name] ?? .null
                if value == .null {
                    if !attribute.isOptional {
                        report(
                            .init(
                                kind: .valueDoesNotFitSchema, identifier: identifier, property: attribute.name,
                                message: "is nil but the attribute is not optional"),
                            slot: 2)
                    }
                } else if !value.fits(attribute.type) {
                    report(
                        .init(
                            kind: .valueDoesNotFitSchema, identifier: identifier, property: attribute.name,
                            message: "holds \(value.kindDescription), expected \(attribute.type.name)"),
                        slot: 2)
                }
            }
            var order: Int32 = 0
            let numbers = relationshipNumbers[entity.name] ?? [:]
            for relationship in entity.relationships {
                let value = snapshot.values[relationship.name] ?? .null
                let relationshipNumber = Int32(numbers[relationship.name]!)
                for target in value.referencedIdentifiers {
                    references.append(
                        Reference(
                            source: source, target: number(of: target), relationship: relationshipNumber,
                            snapshotIndex: Int32(snapshotCount), order: order,
                            // It is dangling whatever it names.
                            isOfOtherEntity: target.entityName != relationship.destination))
                    order += 1
                }
            }
            for constraint in entity.effectiveUniquenessConstraints {
                var key: [SnapshotValue] = []
                for name in constraint {
                    guard let value = snapshot.values[name], value != .null else { break }
                    key.append(value)
                }
                guard key.count == constraint.count else { continue }
                if let other = uniqueKeys[entity.name, default: [:]][constraint, default: [:]][key] {
                    report(
                        .init(
                            kind: .uniquenessViolated, identifier: identifier,
                            message: "has the same \(constraint.joined(separator: ", ")) as \(other)"),
                        slot: 4)
                } else {
                    uniqueKeys[entity.name, default: [:]][constraint, default: [:]][key] = identifier
                }
            }
        }

        /// Every problem of the snapshots added, in document order.
        public mutating func finish() -> [IntegrityProblem] {
            // Each relationship's pairs (source, target), for the inverse check.
            var pairs = [Set<UInt64>](repeating: [], count: inverseNumbers.count)
            for reference in references where !reference.isOfOtherEntity {
                pairs[Int(reference.relationship)].insert(Self.pair(reference.source, reference.target))
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
                let source = identifiers[Int(reference.source)]
                let key = (1, Int(reference.snapshotIndex), 3, Int(reference.order))
                let property = relationshipNames[Int(reference.relationship)]!
                let target = identifiers[Int(reference.target)]
                guard !reference.isOfOtherEntity, present[Int(reference.target)] else {
                    found.append(
                        (
                            key,
                            .init(
                                kind: .danglingReference, identifier: source, property: property,
                                message: "points at \(target), which the document does not hold")
                        ))
                    continue
                }
                let inverse = inverseNumbers[Int(reference.relationship)]
                guard inverse != -1 else { continue }
                if inverse == -2 || !pairs[inverse].contains(Self.pair(reference.target, reference.source)) {
                    found.append(
                        (
                            key,
                            .init(
                                kind: .inverseMismatch, identifier: source, property: property,
                                message: "points at \(target), whose \(inverseNames[Int(reference.relationship)]!) does not point back")
                        ))
                }
            }
            return found.enumerated().sorted { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
            }.map(\.element.problem)
        }

        private static func pair(_ a: Int32, _ b: Int32) -> UInt64 {
            UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b))
        }
    }
}
