import Foundation
import TripDocCore

/// A `#Predicate` evaluated on snapshots rather than on models, so that a fetch makes models of
/// the matches only: made when every part of the predicate is one tripdoc can evaluate on a
/// snapshot (comparisons, `&&`, `||`, `!`, `contains` on a list of values, over the model's
/// scalar attributes and constants), and `nil` otherwise (the fetch then evaluates the predicate
/// on the models, as before). Both give the same answer: a snapshot's value is converted to the
/// property's Swift type and compared with Swift's own operators.
struct SnapshotPredicate {
    private let evaluate: (DefaultSnapshot) throws -> Bool
    /// A range of one scalar attribute's values that every matching snapshot's value is in (a
    /// comparison of the attribute with a constant, alone or joined by `&&`), if there is one:
    /// what an index of the attribute can narrow the candidates to.
    let range: AttributeRange?

    init?<T: PersistentModel>(_ predicate: Predicate<T>, of type: T.Type) {
        let description = ModelDescription.of(type)
        guard let evaluable = predicate.expression as? any SnapshotEvaluable,
            let evaluate = Self.boolean(evaluable, description)
        else { return nil }
        self.evaluate = evaluate
        range = evaluable.attributeRange(description)
    }

    private static func boolean<E: SnapshotEvaluable>(_ expression: E, _ description: ModelDescription)
        -> ((DefaultSnapshot) throws -> Bool)?
    {
        expression.snapshotEvaluator(description) as? (DefaultSnapshot) throws -> Bool
    }

    /// Whether `snapshot` matches.
    ///
    /// - Throws: ``SnapshotPredicate/Unevaluable`` when a value the predicate reads cannot be
    ///   read from the snapshot without the model (one that does not fit its attribute).
    func matches(_ snapshot: DefaultSnapshot) throws -> Bool { try evaluate(snapshot) }

    /// A value the predicate reads that only the model can give.
    struct Unevaluable: Error {}
}

/// A range of one attribute's stored values.
struct AttributeRange {
    var name: String
    var lower: ValueBound?
    var upper: ValueBound?

    /// Whether `value` is within the bounds, as an index of the attribute tells it: `nil`,
    /// values of another kind than the bounds' and NaN never are.
    func contains(_ value: SnapshotValue) -> Bool {
        if let lower {
            guard let order = SnapshotValue.scalarOrder(value, lower.value),
                order == .orderedDescending || (lower.isInclusive && order == .orderedSame)
            else { return false }
        }
        if let upper {
            guard let order = SnapshotValue.scalarOrder(value, upper.value),
                order == .orderedAscending || (upper.isInclusive && order == .orderedSame)
            else { return false }
        }
        return true
    }

    /// The values in both ranges (of the same attribute).
    func intersection(_ other: AttributeRange) -> AttributeRange {
        func tighter(_ a: ValueBound?, _ b: ValueBound?, keepsHigher: Bool) -> ValueBound? {
            guard let a else { return b }
            guard let b else { return a }
            switch SnapshotValue.scalarOrder(a.value, b.value) {
            case .orderedAscending?: return keepsHigher ? b : a
            case .orderedDescending?: return keepsHigher ? a : b
            default: return ValueBound(a.value, isInclusive: a.isInclusive && b.isInclusive)
            }
        }
        return AttributeRange(
            name: name, lower: tighter(lower, other.lower, keepsHigher: true),
            upper: tighter(upper, other.upper, keepsHigher: false))
    }
}

/// A predicate expression tripdoc can evaluate on a snapshot.
protocol SnapshotEvaluable: PredicateExpression {
    /// The expression as a function of a snapshot, or `nil` when a part of it needs the model.
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)?
    /// The range of values of one scalar attribute the expression requires (see
    /// ``SnapshotPredicate/range``), or `nil`.
    func attributeRange(_ description: ModelDescription) -> AttributeRange?
    /// For a key path to a non-optional scalar attribute whose values are ordered: its name and
    /// coding.
    func orderedAttribute(_ description: ModelDescription) -> (name: String, coding: AttributeCoding)?
    /// For a constant: its value.
    var constantValue: Any? { get }
}

extension SnapshotEvaluable {
    func attributeRange(_ description: ModelDescription) -> AttributeRange? { nil }
    func orderedAttribute(_ description: ModelDescription) -> (name: String, coding: AttributeCoding)? { nil }
    var constantValue: Any? { nil }

    /// The attribute and the constant a comparison compares, the attribute first (`isFlipped`
    /// when it is written second), with the constant as the attribute stores it.
    static func comparedPair<L: SnapshotEvaluable, R: SnapshotEvaluable>(_ lhs: L, _ rhs: R, _ description: ModelDescription)
        -> (name: String, value: SnapshotValue, isFlipped: Bool)?
    {
        if let attribute = lhs.orderedAttribute(description), let constant = rhs.constantValue,
            let value = try? attribute.coding.snapshotValue(of: constant)
        {
            return (attribute.name, value, false)
        }
        if let attribute = rhs.orderedAttribute(description), let constant = lhs.constantValue,
            let value = try? attribute.coding.snapshotValue(of: constant)
        {
            return (attribute.name, value, true)
        }
        return nil
    }
}

/// The variable a predicate's key paths start from: the model.
protocol SnapshotRoot {}
extension PredicateExpressions.Variable: SnapshotRoot {}

extension PredicateExpressions.Value: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)? {
        let value = value
        return { _ in value }
    }

    var constantValue: Any? { value }
}

extension PredicateExpressions.KeyPath: SnapshotEvaluable where Root: SnapshotRoot {
    func orderedAttribute(_ description: ModelDescription) -> (name: String, coding: AttributeCoding)? {
        guard let property = description.property(for: keyPath), let onDemand = property.onDemandType, !onDemand.isOptional,
            SnapshotSortOrder.isOrdered(onDemand.type), case .attribute(let coding, _) = property.kind
        else { return nil }
        return (property.name, coding)
    }

    /// A scalar attribute of the model (not a relationship, not a computed property, not a
    /// path through a relationship): its value converted from the snapshot.
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)? {
        guard let property = description.property(for: keyPath), property.onDemandType != nil,
            case .attribute(let coding, _) = property.kind
        else { return nil }
        let name = property.name
        return { snapshot in
            let stored = snapshot[name] ?? .null
            guard property.readsOnDemand(stored), let value = try? coding.value(from: stored) as? Output else {
                throw SnapshotPredicate.Unevaluable()
            }
            return value
        }
    }
}

/// A comparison of an ordered scalar attribute with a constant, made on the stored values
/// without converting them (`SnapshotValue`'s `==` and `scalarOrder` are the Swift type's `==`
/// and `<`): `compare` gets the stored value's order relative to the constant (`nil`: unordered,
/// NaN) and says whether it matches.
private func storedComparison(
    _ pair: (name: String, value: SnapshotValue, isFlipped: Bool), _ description: ModelDescription,
    _ matches: @escaping (ComparisonResult?) -> Bool
) -> ((DefaultSnapshot) throws -> Bool)? {
    guard let property = description.property(named: pair.name) else { return nil }
    let constant = pair.value
    return { snapshot in
        let stored = snapshot[pair.name] ?? .null
        guard property.readsOnDemand(stored) else { throw SnapshotPredicate.Unevaluable() }
        var order = SnapshotValue.scalarOrder(stored, constant)
        if pair.isFlipped, let forward = order {
            order = forward == .orderedAscending ? .orderedDescending : forward == .orderedDescending ? .orderedAscending : .orderedSame
        }
        return matches(order)
    }
}

extension PredicateExpressions.Equal: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        if let pair = Self.comparedPair(lhs, rhs, description) {
            return storedComparison(pair, description) { $0 == .orderedSame }
        }
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) == rhs($0) }
    }

    func attributeRange(_ description: ModelDescription) -> AttributeRange? {
        guard let pair = Self.comparedPair(lhs, rhs, description) else { return nil }
        let bound = ValueBound(pair.value, isInclusive: true)
        return AttributeRange(name: pair.name, lower: bound, upper: bound)
    }
}

extension PredicateExpressions.NotEqual: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        if let pair = Self.comparedPair(lhs, rhs, description) {
            return storedComparison(pair, description) { $0 != .orderedSame }
        }
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) != rhs($0) }
    }
}

extension PredicateExpressions.Comparison: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        if let pair = Self.comparedPair(lhs, rhs, description) {
            // The order is the stored value's relative to the constant, as written.
            switch op {
            case .lessThan: return storedComparison(pair, description) { $0 == .orderedAscending }
            case .lessThanOrEqual: return storedComparison(pair, description) { $0 == .orderedAscending || $0 == .orderedSame }
            case .greaterThan: return storedComparison(pair, description) { $0 == .orderedDescending }
            case .greaterThanOrEqual:
                return storedComparison(pair, description) { $0 == .orderedDescending || $0 == .orderedSame }
            @unknown default: return nil
            }
        }
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        switch op {
        case .lessThan: return { try lhs($0) < rhs($0) }
        case .lessThanOrEqual: return { try lhs($0) <= rhs($0) }
        case .greaterThan: return { try lhs($0) > rhs($0) }
        case .greaterThanOrEqual: return { try lhs($0) >= rhs($0) }
        @unknown default: return nil
        }
    }

    func attributeRange(_ description: ModelDescription) -> AttributeRange? {
        guard let pair = Self.comparedPair(lhs, rhs, description) else { return nil }
        // `attribute < constant`, or `constant < attribute` (flipped).
        let isBelow: Bool
        let isInclusive: Bool
        switch op {
        case .lessThan: (isBelow, isInclusive) = (true, false)
        case .lessThanOrEqual: (isBelow, isInclusive) = (true, true)
        case .greaterThan: (isBelow, isInclusive) = (false, false)
        case .greaterThanOrEqual: (isBelow, isInclusive) = (false, true)
        @unknown default: return nil
        }
        let bound = ValueBound(pair.value, isInclusive: isInclusive)
        return isBelow != pair.isFlipped
            ? AttributeRange(name: pair.name, lower: nil, upper: bound)
            : AttributeRange(name: pair.name, lower: bound, upper: nil)
    }
}

extension PredicateExpressions.Conjunction: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) && rhs($0) }
    }

    /// Both sides' ranges when they are of one attribute; else either side's (the whole
    /// predicate is still evaluated on each candidate).
    func attributeRange(_ description: ModelDescription) -> AttributeRange? {
        let left = lhs.attributeRange(description)
        let right = rhs.attributeRange(description)
        if let left, let right, left.name == right.name { return left.intersection(right) }
        return left ?? right
    }
}

extension PredicateExpressions.Disjunction: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) || rhs($0) }
    }
}

extension PredicateExpressions.Negation: SnapshotEvaluable where Wrapped: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let wrapped = wrapped.snapshotEvaluator(description) else { return nil }
        return { try !wrapped($0) }
    }
}

extension PredicateExpressions.SequenceContains: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let sequence = sequence.snapshotEvaluator(description), let element = element.snapshotEvaluator(description)
        else { return nil }
        return { try sequence($0).contains(element($0)) }
    }
}
