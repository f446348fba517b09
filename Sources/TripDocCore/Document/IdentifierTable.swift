/// Values keyed by persistent identifier, as a dictionary is, for tables that hold many models
/// of one store: a document's snapshots, a save's changes.
///
/// A store numbers each entity's models in sequence (`1`, `2`, …), so most identifiers a table
/// holds are of a few (entity, store) pairs with numeric keys close together. Those are kept in
/// a run per pair, an array indexed by the key's number: no hashing to find one, and no copy of
/// the identifier beside the value (which a dictionary keeps, and which is most of what a
/// document's table of snapshots holds). Every other identifier — temporary, of a key that is
/// not a canonical number, or too far from its run's keys — is kept in a dictionary.
struct IdentifierTable<Value> {
    /// The values of one entity of one store whose keys are numbers from `first` on: in slot
    /// order, the order of their keys.
    struct Run {
        let entity: InternedName
        let store: InternedName?
        /// The number of the key the first slot holds.
        let first: Int64
        /// The value of the key `first + position`, or `nil`.
        fileprivate(set) var slots: [Value?]
        /// How many slots hold a value.
        fileprivate(set) var count: Int

        /// The identifiers holding a value, in key order.
        var identifiers: [PersistentIdentifier] {
            let template = PersistentIdentifier(store: store, entity: entity, primaryKey: "")
            var identifiers: [PersistentIdentifier] = []
            identifiers.reserveCapacity(count)
            for position in slots.indices where slots[position] != nil {
                identifiers.append(template.withPrimaryKey(String(first + Int64(position))))
            }
            return identifiers
        }
    }

    private var runs: [Run] = []
    /// Where the run of each (entity, store) pair is, once there are too many runs to look
    /// through.
    private var runPositions: [RunKey: Int] = [:]
    private struct RunKey: Hashable {
        let entity: InternedName
        let store: InternedName?
    }
    /// The values of the identifiers no run holds.
    private var others: [PersistentIdentifier: Value] = [:]
    /// How many identifiers of each entity ``others`` holds (an entity it holds none of is not
    /// listed).
    private var othersByEntity: [InternedName: Int] = [:]

    /// How many identifiers hold a value.
    private(set) var count = 0

    /// The most runs looked through one by one; past it, ``runPositions`` finds them.
    private static var scannedRuns: Int { 8 }
    /// The most empty slots a run may gain so that a key further on fits: a run stays at least
    /// half full (past a small start), and a key far from every other goes to ``others``.
    private static func mayGrow(_ run: Run, toHold position: Int64) -> Bool {
        position < Int64(2 * (run.count + 1) + 64)
    }

    init() {}

    var isEmpty: Bool { count == 0 }

    /// How many identifiers are kept in the dictionary rather than in runs.
    var countOutsideRuns: Int { others.count }

    /// Where `identifier`'s value goes in a run: the run's position and the key's number, or
    /// `nil` for an identifier no run takes.
    private func runPlace(of identifier: PersistentIdentifier) -> (run: Int?, number: Int64)? {
        guard !identifier.isTemporary, let number = PrimaryKeyOrder.canonicalNumber(identifier.primaryKey) else {
            return nil
        }
        if runs.count <= Self.scannedRuns {
            for index in runs.indices where runs[index].entity == identifier.entity && runs[index].store == identifier.store {
                return (index, number)
            }
            return (nil, number)
        }
        return (runPositions[RunKey(entity: identifier.entity, store: identifier.store)], number)
    }

    /// The value of `identifier`, or `nil`.
    subscript(identifier: PersistentIdentifier) -> Value? {
        if let (index, number) = runPlace(of: identifier), let index {
            let run = runs[index]
            let position = number &- run.first
            if position >= 0, position < Int64(run.slots.count), let value = run.slots[Int(position)] { return value }
        }
        return others.isEmpty ? nil : others[identifier]
    }

    /// Sets the value of `identifier`; returns the value it replaced.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey identifier: PersistentIdentifier) -> Value? {
        let place = runPlace(of: identifier)
        if let (found, number) = place, let index = found {
            // A value in the key's slot: the key is in no other place.
            let position = number &- runs[index].first
            if position >= 0, position < Int64(runs[index].slots.count), runs[index].slots[Int(position)] != nil {
                let old = runs[index].slots[Int(position)]
                runs[index].slots[Int(position)] = value
                return old
            }
        }
        if !others.isEmpty, let index = others.index(forKey: identifier) {
            return others.updateValue(value, forKey: others.keys[index])
        }
        guard let (found, number) = place else { return addToOthers(value, identifier) }
        guard let index = found else {
            appendRun(Run(entity: identifier.entity, store: identifier.store, first: number, slots: [value], count: 1))
            count += 1
            return nil
        }
        let position = number &- runs[index].first
        guard position >= 0 else { return addToOthers(value, identifier) }
        if position < Int64(runs[index].slots.count) {
            runs[index].slots[Int(position)] = value
            runs[index].count += 1
            count += 1
            return nil
        }
        guard Self.mayGrow(runs[index], toHold: position) else { return addToOthers(value, identifier) }
        let gap = Int(position) - runs[index].slots.count
        if gap > 0 { runs[index].slots.append(contentsOf: repeatElement(nil, count: gap)) }
        runs[index].slots.append(value)
        runs[index].count += 1
        count += 1
        return nil
    }

    /// Adds a run of a pair that has none, and keeps ``runPositions`` once it is needed.
    private mutating func appendRun(_ run: Run) {
        runs.append(run)
        guard runs.count > Self.scannedRuns else { return }
        if runPositions.isEmpty {
            for (position, run) in runs.enumerated() { runPositions[RunKey(entity: run.entity, store: run.store)] = position }
        } else {
            runPositions[RunKey(entity: run.entity, store: run.store)] = runs.count - 1
        }
    }

    private mutating func addToOthers(_ value: Value, _ identifier: PersistentIdentifier) -> Value? {
        let old = others.updateValue(value, forKey: identifier)
        if old == nil {
            count += 1
            othersByEntity[identifier.entity, default: 0] += 1
        }
        return old
    }

    /// Removes the value of `identifier`; returns it.
    @discardableResult
    mutating func removeValue(forKey identifier: PersistentIdentifier) -> Value? {
        if let (found, number) = runPlace(of: identifier), let index = found {
            let position = number &- runs[index].first
            if position >= 0, position < Int64(runs[index].slots.count), let old = runs[index].slots[Int(position)] {
                runs[index].slots[Int(position)] = nil
                runs[index].count -= 1
                count -= 1
                return old
            }
        }
        guard !others.isEmpty, let old = others.removeValue(forKey: identifier) else { return nil }
        count -= 1
        if othersByEntity[identifier.entity] == 1 {
            othersByEntity[identifier.entity] = nil
        } else {
            othersByEntity[identifier.entity]! -= 1
        }
        return old
    }

    /// Takes the runs of `other` whose entity this table holds no identifier of (in no run, of
    /// any store, and not elsewhere) as they are: their slots are then shared with `other` until
    /// either changes, rather than copied value by value. Returns what `other` holds that was
    /// not taken, for the caller to set one by one. (A run is taken only when `other` holds no
    /// identifier of its entity outside runs, which setting the rest could put into it, making
    /// a copy of all its slots.)
    mutating func takeRuns(of other: IdentifierTable<Value>) -> IdentifierTable<Value> {
        var rest = IdentifierTable<Value>()
        for run in other.runs where run.count > 0 {
            if othersByEntity[run.entity] == nil, other.othersByEntity[run.entity] == nil,
                !runs.contains(where: { $0.entity == run.entity })
            {
                appendRun(run)
                count += run.count
            } else {
                rest.appendRun(run)
                rest.count += run.count
            }
        }
        rest.others = other.others
        rest.othersByEntity = other.othersByEntity
        rest.count += other.others.count
        return rest
    }

    /// The entities the table holds an identifier of, or had a run for.
    var entities: Set<InternedName> {
        Set(runs.lazy.map(\.entity)).union(othersByEntity.keys)
    }

    /// Whether every identifier of `entity` the table holds is in one run, or none is held. (A
    /// run whose values were all removed holds none: a store's run that emptied does not spread
    /// its entity.)
    func holdsInOneRun(_ entity: InternedName) -> Bool {
        guard othersByEntity[entity] == nil else { return false }
        var found = false
        for index in runs.indices where runs[index].entity == entity && runs[index].count > 0 {
            if found { return false }
            found = true
        }
        return true
    }

    /// The run holding every identifier of `entity` the table holds (see ``holdsInOneRun(_:)``),
    /// or `nil` when they are spread or none is held.
    func soleRun(of entity: InternedName) -> Run? {
        guard holdsInOneRun(entity) else { return nil }
        return runs.first { $0.entity == entity && $0.count > 0 }
    }

    /// The identifiers of `entity` holding a value, in no particular order.
    func identifiers(of entity: InternedName) -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        for run in runs where run.entity == entity { identifiers += run.identifiers }
        if othersByEntity[entity] != nil {
            for identifier in others.keys where identifier.entity == entity { identifiers.append(identifier) }
        }
        return identifiers
    }

    /// Readies runs for `identifiers`, about to be set in any order (a dictionary's): each
    /// (entity, store) pair's run is made or widened, at once, to the range of their numbers,
    /// where the run then stays at least half full. Set one by one, in no order, the first of
    /// them would fix where a run starts, and those below it would go to the dictionary.
    mutating func prepareRuns<Identifiers: Sequence<PersistentIdentifier>>(for identifiers: Identifiers) {
        var ranges: [KeyRange] = []
        for identifier in identifiers { Self.widen(&ranges, toHold: identifier) }
        prepareRuns(for: ranges)
    }

    /// Readies runs for the identifiers of `other`, about to be set in its order (see
    /// ``prepareRuns(for:)``).
    mutating func prepareRuns<Other>(like other: IdentifierTable<Other>) {
        var ranges = other.runs.map {
            KeyRange(entity: $0.entity, store: $0.store, lower: $0.first, upper: $0.first + Int64($0.slots.count) - 1, count: $0.count)
        }
        for identifier in other.others.keys { Self.widen(&ranges, toHold: identifier) }
        prepareRuns(for: ranges)
    }

    /// The numbers of some keys of one (entity, store) pair: the lowest, the highest, how many.
    private struct KeyRange {
        let entity: InternedName
        let store: InternedName?
        var lower: Int64
        var upper: Int64
        var count: Int
    }

    private static func widen(_ ranges: inout [KeyRange], toHold identifier: PersistentIdentifier) {
        guard !identifier.isTemporary, let number = PrimaryKeyOrder.canonicalNumber(identifier.primaryKey) else {
            return
        }
        if let index = ranges.firstIndex(where: { $0.entity == identifier.entity && $0.store == identifier.store }) {
            ranges[index].lower = min(ranges[index].lower, number)
            ranges[index].upper = max(ranges[index].upper, number)
            ranges[index].count += 1
        } else if ranges.count < 4 * scannedRuns {
            ranges.append(KeyRange(entity: identifier.entity, store: identifier.store, lower: number, upper: number, count: 1))
        }
    }

    private mutating func prepareRuns(for ranges: [KeyRange]) {
        for range in ranges {
            let template = PersistentIdentifier(store: range.store, entity: range.entity, primaryKey: "0")
            guard let (found, _) = runPlace(of: template) else { continue }
            guard let index = found else {
                let length = range.upper - range.lower + 1
                guard length <= Int64(2 * range.count + 64) else { continue }
                appendRun(
                    Run(
                        entity: range.entity, store: range.store, first: range.lower,
                        slots: Array(repeating: nil, count: Int(length)), count: 0))
                continue
            }
            // (The run's parts are read one by one: a copy of the run would share its slots, and
            // make widening them copy them.)
            let first = runs[index].first
            var lower = min(first, range.lower)
            let upper = max(first + Int64(runs[index].slots.count) - 1, range.upper)
            let largest = Int64(2 * (runs[index].count + range.count) + 64)
            guard upper - lower + 1 <= largest else { continue }
            if lower < first {
                // Widened below with room to spare, as an array grows at its end, so that keys
                // coming lower save after save do not copy the run each time.
                let roomy = max(0, lower - Int64(runs[index].slots.count / 2))
                if upper - roomy + 1 <= largest { lower = roomy }
                var slots = [Value?](repeating: nil, count: Int(first - lower))
                slots.reserveCapacity(Int(upper - lower + 1))
                slots.append(contentsOf: runs[index].slots)
                runs[index] = Run(
                    entity: range.entity, store: range.store, first: lower, slots: slots, count: runs[index].count)
            }
            let missing = Int(upper - lower + 1) - runs[index].slots.count
            if missing > 0 { runs[index].slots.append(contentsOf: repeatElement(nil, count: missing)) }
        }
    }

    /// Calls `body` with each identifier and its value, in no particular order.
    func forEach(_ body: (PersistentIdentifier, Value) throws -> Void) rethrows {
        for run in runs {
            let template = PersistentIdentifier(store: run.store, entity: run.entity, primaryKey: "")
            for position in run.slots.indices {
                guard let value = run.slots[position] else { continue }
                try body(template.withPrimaryKey(String(run.first + Int64(position))), value)
            }
        }
        for (identifier, value) in others { try body(identifier, value) }
    }
}

extension IdentifierTable: Sendable where Value: Sendable {}
extension IdentifierTable.Run: Sendable where Value: Sendable {}
