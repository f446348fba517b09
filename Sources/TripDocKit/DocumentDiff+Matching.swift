import Foundation
import TripDoc

extension DocumentDiff {
    /// The matching of two documents' objects, entity by entity, and the comparison of matched pairs.
    struct Comparison {
        let a: DocumentRecords
        let b: DocumentRecords
        let requested: MatchStrategy
        let remapTable: RemapTable?
        let ignoring: Set<String>
        /// The one entity being compared, if the comparison is narrowed to one.
        let onlyEntity: String?
        /// Entities both schemas have, in B's order.
        let entityNames: [String]
        /// Each entity's records in primary-key order; positions are indices into these.
        let aSnapshots: [String: [SnapshotRecord]]
        let bSnapshots: [String: [SnapshotRecord]]
        /// The matches, for translating A's references: per entity, A's primary key to the
        /// position of B's object. Not kept when both documents are one store matched by key:
        /// identifiers then mean the same on both sides.
        var aToB: [String: [String: Int]] = [:]
        /// The matches of each entity, as positions in its records (A's, B's).
        var pairs: [String: [(Int, Int)]] = [:]
        var strategies: [String: MatchStrategy] = [:]
        /// Whether identifiers are the same on both sides (one store, matched by key); set once
        /// the strategies are chosen.
        private(set) var identifiersAgree = false

        init(
            a: DocumentRecords, b: DocumentRecords, requested: MatchStrategy, remapTable: RemapTable?, ignoring: Set<String>,
            onlyEntity: String? = nil
        ) {
            self.a = a
            self.b = b
            self.requested = requested
            self.remapTable = remapTable
            self.ignoring = ignoring
            self.onlyEntity = onlyEntity
            let namesInA = Set(a.schema.entities.map(\.name))
            entityNames = b.schema.entities.map(\.name).filter { namesInA.contains($0) }
            aSnapshots = Dictionary(entityNames.map { ($0, a.records(of: $0)) }, uniquingKeysWith: { first, _ in first })
            bSnapshots = Dictionary(entityNames.map { ($0, b.records(of: $0)) }, uniquingKeysWith: { first, _ in first })
        }

        func isIgnored(_ entity: String, _ property: String) -> Bool {
            ignoring.contains(property) || ignoring.contains("\(entity).\(property)")
        }

        /// The attributes both schemas give `entity` with the same type, not ignored.
        func comparedAttributes(of entity: String) -> [Schema.Attribute] {
            guard let inA = a.schema.entity(named: entity), let inB = b.schema.entity(named: entity) else { return [] }
            return inB.attributes.filter { attribute in
                !isIgnored(entity, attribute.name) && inA.attribute(named: attribute.name)?.type == attribute.type
            }
        }

        /// The relationships both schemas give `entity`, not ignored, reported on this side of
        /// their inverse pair: the to-one side, or for two of a kind the one whose
        /// `Entity.name` sorts first — unless the other side is not compared (another entity
        /// than `onlyEntity`, or ignored), in which case this side tells the change.
        func reportedRelationships(of entity: String) -> [Schema.Relationship] {
            guard let inA = a.schema.entity(named: entity), let inB = b.schema.entity(named: entity) else { return [] }
            return inB.relationships.filter { relationship in
                guard !isIgnored(entity, relationship.name),
                    inA.relationship(named: relationship.name)?.destination == relationship.destination
                else { return false }
                guard let inverseName = relationship.inverseName,
                    let inverse = b.schema.entity(named: relationship.destination)?.relationship(named: inverseName)
                else { return true }
                let otherSideCompared =
                    (onlyEntity == nil || onlyEntity == relationship.destination)
                    && !isIgnored(relationship.destination, inverseName)
                if !otherSideCompared { return true }
                if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
                return "\(entity).\(relationship.name)" <= "\(relationship.destination).\(inverseName)"
            }
        }

        /// The to-one relationships both schemas give `entity` with one destination, not ignored:
        /// the references a content fingerprint takes in.
        func contentToOneRelationships(of entity: String) -> [String] {
            (b.schema.entity(named: entity)?.relationships ?? []).filter {
                !$0.isToMany && !isIgnored(entity, $0.name)
                    && a.schema.entity(named: entity)?.relationship(named: $0.name)?.destination == $0.destination
            }.map(\.name)
        }

        func strategy(for entity: String) -> MatchStrategy {
            let hasConstraint = !(b.schema.entity(named: entity)?.effectiveUniquenessConstraints.isEmpty ?? true)
            switch requested {
            case .auto:
                if a.storeIdentifier == b.storeIdentifier { return .key }
                if remapTable != nil { return .map }
                // One converted from the other, or both from one store: convert keeps keys.
                if a.header.lineage == b.header.lineage { return .key }
                return hasConstraint ? .unique : .content
            case .unique:
                return hasConstraint ? .unique : .content
            default:
                return requested
            }
        }

        mutating func matchAll() throws {
            for entity in entityNames { strategies[entity] = strategy(for: entity) }
            identifiersAgree = a.storeIdentifier == b.storeIdentifier && strategies.values.allSatisfy { $0 == .key }
            // Content fingerprints use to-one references, so match the other entities first.
            for entity in entityNames where strategies[entity] != .content { match(entity) }
            for entity in entityNames where strategies[entity] == .content { match(entity) }
        }

        /// Records that A's object at `i` and B's at `j` (positions in `entity`'s records `fromA`
        /// and `fromB`) are one.
        private mutating func pair(
            _ entity: String, _ i: Int, _ j: Int, _ fromA: [SnapshotRecord], _ fromB: [SnapshotRecord]
        ) {
            pairs[entity, default: []].append((i, j))
            guard !identifiersAgree else { return }
            aToB[entity, default: [:]][fromA[i].primaryKey] = j
        }

        /// B's identifier of the object A's `target` was matched with, if it was.
        func matched(_ target: PersistentIdentifier) -> PersistentIdentifier? {
            let entity = target.entityName
            guard let position = aToB[entity]?[target.primaryKey], let fromB = bSnapshots[entity] else { return nil }
            return fromB[position].persistentIdentifier
        }

        private mutating func match(_ entity: String) {
            let fromA = aSnapshots[entity] ?? []
            let fromB = bSnapshots[entity] ?? []
            // Room for every pair at once: a table of a million keys that grows step by step
            // hashes every key again each time.
            let most = min(fromA.count, fromB.count)
            pairs[entity, default: []].reserveCapacity(most)
            if !identifiersAgree { aToB[entity, default: [:]].reserveCapacity(most) }
            switch strategies[entity]! {
            case .key, .auto:
                // Both sides are in primary-key order: walk them together.
                let (startA, startB) = (fromA.startIndex, fromB.startIndex)
                DocumentDiff.pairEqualKeys(
                    fromA.count, { fromA[startA + $0].primaryKey }, fromB.count, { fromB[startB + $0].primaryKey }
                ) { pair(entity, startA + $0, startB + $1, fromA, fromB) }
            case .map:
                let table = remapTable?.identifiers[entity] ?? [:]
                var byKey: [String: Int] = [:]
                for j in fromB.indices where byKey[fromB[j].primaryKey] == nil {
                    byKey[fromB[j].primaryKey] = j
                }
                for i in fromA.indices {
                    if let key = table[fromA[i].primaryKey], let j = byKey[key] { pair(entity, i, j, fromA, fromB) }
                }
            case .unique:
                let constraint = b.schema.entity(named: entity)!.effectiveUniquenessConstraints[0]
                let places = (Self.positions(of: constraint, in: fromA), Self.positions(of: constraint, in: fromB))
                matchByFingerprint(entity, fromA, fromB) { _, snapshot, isA, hasher in
                    for position in isA ? places.0 : places.1 { hasher.combine(Self.value(of: snapshot, at: position)) }
                } equal: { _, a, b in
                    zip(places.0, places.1).allSatisfy { Self.value(of: a, at: $0) == Self.value(of: b, at: $1) }
                }
            case .content:
                let attributes = comparedAttributes(of: entity).map(\.name)
                let toOne = contentToOneRelationships(of: entity)
                let attributePlaces = (Self.positions(of: attributes, in: fromA), Self.positions(of: attributes, in: fromB))
                let toOnePlaces = (Self.positions(of: toOne, in: fromA), Self.positions(of: toOne, in: fromB))
                // First objects equal in everything, then, among the rest, objects with equal
                // attributes whose references changed (a re-pointed item is a change, not a swap).
                matchByFingerprint(entity, fromA, fromB) { comparison, snapshot, isA, hasher in
                    for position in isA ? attributePlaces.0 : attributePlaces.1 {
                        hasher.combine(Self.value(of: snapshot, at: position))
                    }
                    for position in isA ? toOnePlaces.0 : toOnePlaces.1 {
                        guard case .reference(let target) = Self.value(of: snapshot, at: position) else {
                            hasher.combine(SnapshotValue.null)
                            continue
                        }
                        guard isA else {
                            hasher.combine(target)
                            continue
                        }
                        if let matched = comparison.matched(target) {
                            hasher.combine(matched)
                        } else {
                            hasher.combine("unmatched \(target)")
                        }
                    }
                } equal: { comparison, a, b in
                    guard zip(attributePlaces.0, attributePlaces.1).allSatisfy({ Self.value(of: a, at: $0) == Self.value(of: b, at: $1) })
                    else { return false }
                    return zip(toOnePlaces.0, toOnePlaces.1).allSatisfy { placeA, placeB in
                        switch (Self.value(of: a, at: placeA), Self.value(of: b, at: placeB)) {
                        case (.reference(let targetA), .reference(let targetB)): comparison.matched(targetA) == targetB
                        case (.reference, _), (_, .reference): false
                        default: true  // neither refers to anything
                        }
                    }
                }
                var pairedA = [Bool](repeating: false, count: fromA.count)
                var pairedB = [Bool](repeating: false, count: fromB.count)
                for (i, j) in pairs[entity] ?? [] {
                    pairedA[i] = true
                    pairedB[j] = true
                }
                matchByFingerprint(
                    entity, fromA, fromB, onlyA: { [pairedA] in !pairedA[$0] }, onlyB: { [pairedB] in !pairedB[$0] }
                ) { _, snapshot, isA, hasher in
                    for position in isA ? attributePlaces.0 : attributePlaces.1 {
                        hasher.combine(Self.value(of: snapshot, at: position))
                    }
                } equal: { _, a, b in
                    zip(attributePlaces.0, attributePlaces.1).allSatisfy { Self.value(of: a, at: $0) == Self.value(of: b, at: $1) }
                }
            }
        }

        /// Where each of `names` is in `run`'s records (`nil` for a property they lack): records
        /// of one entity are laid out alike, so their values are read by position.
        static func positions(of names: [String], in run: [SnapshotRecord]) -> [Int?] {
            guard let first = run.first else { return names.map { _ in nil } }
            return names.map { first.position(of: $0) }
        }

        /// The value of `record` at `position`; nil for a property its records lack.
        static func value(of record: SnapshotRecord, at position: Int?) -> SnapshotValue {
            guard let position else { return .null }
            return record.value(at: position)
        }

        /// Pairs objects whose matched values are equal, first come first served, in document
        /// order, among the positions `onlyA` and `onlyB` admit. A fingerprint, the 64-bit hash
        /// of the values `fingerprint` feeds the hasher, only picks the candidates; `equal`,
        /// which compares the same values (A's references as matched in B), decides: two
        /// objects whose hashes collide are not paired unless their values are equal.
        private mutating func matchByFingerprint(
            _ entity: String, _ fromA: [SnapshotRecord], _ fromB: [SnapshotRecord],
            onlyA: (Int) -> Bool = { _ in true }, onlyB: (Int) -> Bool = { _ in true },
            fingerprint: (_ comparison: Comparison, SnapshotRecord, _ isA: Bool, inout Hasher) -> Void,
            equal: (_ comparison: Comparison, _ a: SnapshotRecord, _ b: SnapshotRecord) -> Bool
        ) {
            // Found first, recorded after: a copy of the comparison kept alive while matches
            // are recorded made each entity copy the tables of all the others (quadratic in
            // the number of entities: 20,000 took 18 s).
            let found = fingerprintMatches(fromA, fromB, onlyA: onlyA, onlyB: onlyB, fingerprint: fingerprint, equal: equal)
            for (i, j) in found { pair(entity, i, j, fromA, fromB) }
        }

        /// The pairs ``matchByFingerprint(_:_:_:onlyA:onlyB:fingerprint:equal:)`` records, as
        /// positions in `fromA` and `fromB`, with the matches made before it.
        private func fingerprintMatches(
            _ fromA: [SnapshotRecord], _ fromB: [SnapshotRecord], onlyA: (Int) -> Bool, onlyB: (Int) -> Bool,
            fingerprint: (_ comparison: Comparison, SnapshotRecord, _ isA: Bool, inout Hasher) -> Void,
            equal: (_ comparison: Comparison, _ a: SnapshotRecord, _ b: SnapshotRecord) -> Bool
        ) -> [(Int, Int)] {
            // Both sides are fingerprinted first, at once on two threads (fingerprints read the
            // matches made so far, so this pass's matches are recorded after).
            let admittedA = fromA.indices.map(onlyA)
            let admittedB = fromB.indices.map(onlyB)
            let comparison = self
            func fingerprints(of run: [SnapshotRecord], admitted: [Bool], isA: Bool) -> [Int] {
                var hashes = [Int](repeating: 0, count: run.count)
                for (offset, snapshot) in run.enumerated() where admitted[offset] {
                    var hasher = Hasher()
                    fingerprint(comparison, snapshot, isA, &hasher)
                    hashes[offset] = hasher.finalize()
                }
                return hashes
            }
            let (hashesA, hashesB) = TwoThreads.run(
                { fingerprints(of: fromA, admitted: admittedA, isA: true) },
                { fingerprints(of: fromB, admitted: admittedB, isA: false) })
            // A's positions by fingerprint, first in document order at the head of each chain.
            var head: [Int: Int] = [:]
            head.reserveCapacity(fromA.count)
            var next = [Int](repeating: -1, count: fromA.count)
            for offset in fromA.indices.reversed().map({ $0 - fromA.startIndex }) where admittedA[offset] {
                next[offset] = head.updateValue(offset, forKey: hashesA[offset]) ?? -1
            }
            var taken = [Bool](repeating: false, count: fromA.count)
            var matches: [(Int, Int)] = []
            for offset in 0..<fromB.count where admittedB[offset] {
                let key = hashesB[offset]
                guard var candidate = head[key] else { continue }
                // Equal values are met first (the chain holds only this hash, which values that
                // differ share by rare chance), so the walk is short.
                let b = fromB[fromB.startIndex + offset]
                var found: Int?
                while candidate >= 0 {
                    if !taken[candidate], equal(comparison, fromA[fromA.startIndex + candidate], b) {
                        found = candidate
                        break
                    }
                    candidate = next[candidate]
                }
                guard let found else { continue }
                taken[found] = true
                // Drop taken positions from the head of the chain.
                var first = head[key]!
                while first >= 0, taken[first] { first = next[first] }
                head[key] = first < 0 ? nil : first
                matches.append((fromA.startIndex + found, fromB.startIndex + offset))
            }
            return matches
        }

        /// A reference of A's expressed in B's identities where its target is matched.
        func translated(_ value: SnapshotValue) -> SnapshotValue {
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

        func differences(of entity: String) -> EntityDifferences {
            let fromA = aSnapshots[entity] ?? []
            let fromB = bSnapshots[entity] ?? []
            let attributes = comparedAttributes(of: entity)
            let relationships = reportedRelationships(of: entity)
            let attributeNames = attributes.map(\.name)
            let relationshipNames = relationships.map(\.name)
            let attributePlaces = (Self.positions(of: attributeNames, in: fromA), Self.positions(of: attributeNames, in: fromB))
            let relationshipPlaces = (
                Self.positions(of: relationshipNames, in: fromA), Self.positions(of: relationshipNames, in: fromB)
            )
            let matched = (pairs[entity] ?? []).sorted { $0.1 < $1.1 }
            var pairedA = [Bool](repeating: false, count: fromA.count)
            var pairedB = [Bool](repeating: false, count: fromB.count)
            for (i, j) in matched {
                pairedA[i - fromA.startIndex] = true
                pairedB[j - fromB.startIndex] = true
            }
            /// The changes of the matched pairs in `range`, in order.
            func changes(in range: Range<Int>) -> [ChangedObject] {
                var changed: [ChangedObject] = []
                for (i, j) in matched[range] {
                    let old = fromA[i]
                    let snapshot = fromB[j]
                    var attributeChanges: [ValueChange] = []
                    for (index, name) in attributeNames.enumerated() {
                        let before = Self.value(of: old, at: attributePlaces.0[index])
                        let after = Self.value(of: snapshot, at: attributePlaces.1[index])
                        if before != after {
                            attributeChanges += ValueChange.changes(
                                of: name, from: before, to: after, descendingArrays: attributes[index].type == .codable)
                        }
                    }
                    var relationshipChanges: [ValueChange] = []
                    for (index, name) in relationshipNames.enumerated() {
                        let before = translated(Self.value(of: old, at: relationshipPlaces.0[index]))
                        var after = Self.value(of: snapshot, at: relationshipPlaces.1[index])
                        if case .references(let targets) = after { after = .references(targets.sorted()) }
                        if before != after {
                            relationshipChanges.append(ValueChange(property: name, old: before, new: after))
                        }
                    }
                    if !attributeChanges.isEmpty || !relationshipChanges.isEmpty {
                        changed.append(
                            ChangedObject(
                                a: old.persistentIdentifier, b: snapshot.persistentIdentifier,
                                attributes: attributeChanges, relationships: relationshipChanges))
                    }
                }
                return changed
            }
            // The pairs are compared in two halves, at once.
            let middle = matched.count / 2
            let (firstHalf, secondHalf) = TwoThreads.run(
                { changes(in: 0..<middle) }, { changes(in: middle..<matched.count) })
            let changed = firstHalf + secondHalf
            let removed = fromA.indices.filter { !pairedA[$0 - fromA.startIndex] }.map { fromA[$0].snapshot }
            var differences = EntityDifferences(
                entity: entity, strategy: strategies[entity] ?? .content,
                added: fromB.indices.filter { !pairedB[$0 - fromB.startIndex] }.map { fromB[$0].snapshot },
                removed: removed, changed: changed)
            differences.removedInTermsOfB = removed.map { snapshot in
                snapshot.mapValues(translated)
            }
            return differences
        }
    }

    /// Differences between two schemas, as sentences, in entity order.
    static func schemaDifferences(_ a: Schema, _ b: Schema, only: String?) -> [String] {
        var lines: [String] = []
        if a.version != b.version, only == nil { lines.append("version \(a.version) → \(b.version)") }
        let namesA = Set(a.entities.map(\.name))
        let namesB = Set(b.entities.map(\.name))
        for entity in a.entities where !namesB.contains(entity.name) && (only == nil || only == entity.name) {
            lines.append("entity \(entity.name) removed")
        }
        for entity in b.entities where !namesA.contains(entity.name) && (only == nil || only == entity.name) {
            lines.append("entity \(entity.name) added")
        }
        for inB in b.entities where only == nil || only == inB.name {
            guard let inA = a.entity(named: inB.name) else { continue }
            func describe(_ attribute: Schema.Attribute) -> String {
                "\(attribute.type.name)\(attribute.isOptional ? "?" : "")"
                    + (attribute.options.isEmpty ? "" : " [\(attribute.options.map(\.rawValue).joined(separator: ", "))]")
            }
            func describe(_ relationship: Schema.Relationship) -> String {
                (relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination)
                    + " (\(relationship.deleteRule.rawValue)\(relationship.inverseName.map { ", inverse \($0)" } ?? ""))"
            }
            for attribute in inA.attributes where inB.attribute(named: attribute.name) == nil {
                lines.append("\(inB.name).\(attribute.name) removed (\(describe(attribute)))")
            }
            for attribute in inB.attributes {
                guard let old = inA.attribute(named: attribute.name) else {
                    lines.append("\(inB.name).\(attribute.name) added (\(describe(attribute)))")
                    continue
                }
                if describe(old) != describe(attribute) {
                    lines.append("\(inB.name).\(attribute.name): \(describe(old)) → \(describe(attribute))")
                }
            }
            for relationship in inA.relationships where inB.relationship(named: relationship.name) == nil {
                lines.append("\(inB.name).\(relationship.name) removed (\(describe(relationship)))")
            }
            for relationship in inB.relationships {
                guard let old = inA.relationship(named: relationship.name) else {
                    lines.append("\(inB.name).\(relationship.name) added (\(describe(relationship)))")
                    continue
                }
                if describe(old) != describe(relationship) {
                    lines.append("\(inB.name).\(relationship.name): \(describe(old)) → \(describe(relationship))")
                }
            }
            if inA.uniquenessConstraints != inB.uniquenessConstraints {
                lines.append("\(inB.name) uniqueness constraints: \(inA.uniquenessConstraints) → \(inB.uniquenessConstraints)")
            }
            if inA.indices != inB.indices {
                lines.append("\(inB.name) indices: \(inA.indices) → \(inB.indices)")
            }
        }
        return lines
    }
}
