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

    init?<T: PersistentModel>(_ predicate: Predicate<T>, of type: T.Type) {
        let description = ModelDescription.of(type)
        guard let evaluable = predicate.expression as? any SnapshotEvaluable,
            let evaluate = Self.boolean(evaluable, description)
        else { return nil }
        self.evaluate = evaluate
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

/// A predicate expression tripdoc can evaluate on a snapshot.
protocol SnapshotEvaluable: PredicateExpression {
    /// The expression as a function of a snapshot, or `nil` when a part of it needs the model.
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)?
}

/// The variable a predicate's key paths start from: the model.
protocol SnapshotRoot {}
extension PredicateExpressions.Variable: SnapshotRoot {}

extension PredicateExpressions.Value: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)? {
        let value = value
        return { _ in value }
    }
}

extension PredicateExpressions.KeyPath: SnapshotEvaluable where Root: SnapshotRoot {
    /// A scalar attribute of the model (not a relationship, not a computed property, not a
    /// path through a relationship): its value converted from the snapshot.
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Output)? {
        guard let property = description.property(for: keyPath), property.onDemandType != nil,
            case .attribute(let coding, _) = property.kind
        else { return nil }
        let name = property.name
        return { snapshot in
            let stored = snapshot.values[name] ?? .null
            guard property.readsOnDemand(stored), let value = try? coding.value(from: stored) as? Output else {
                throw SnapshotPredicate.Unevaluable()
            }
            return value
        }
    }
}

extension PredicateExpressions.Equal: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) == rhs($0) }
    }
}

extension PredicateExpressions.NotEqual: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) != rhs($0) }
    }
}

extension PredicateExpressions.Comparison: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        switch op {
        case .lessThan: return { try lhs($0) < rhs($0) }
        case .lessThanOrEqual: return { try lhs($0) <= rhs($0) }
        case .greaterThan: return { try lhs($0) > rhs($0) }
        case .greaterThanOrEqual: return { try lhs($0) >= rhs($0) }
        @unknown default: return nil
        }
    }
}

extension PredicateExpressions.Conjunction: SnapshotEvaluable where LHS: SnapshotEvaluable, RHS: SnapshotEvaluable {
    func snapshotEvaluator(_ description: ModelDescription) -> ((DefaultSnapshot) throws -> Bool)? {
        guard let lhs = lhs.snapshotEvaluator(description), let rhs = rhs.snapshotEvaluator(description) else { return nil }
        return { try lhs($0) && rhs($0) }
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
