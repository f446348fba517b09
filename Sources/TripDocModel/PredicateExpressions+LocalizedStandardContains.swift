import Foundation

// Foundation on Linux expands `$0.name.localizedStandardContains(text)` inside `#Predicate` into
// a call of `PredicateExpressions.build_localizedStandardContains`, which it does not have.
// This is it, so that SwiftData's spelling compiles and evaluates as on Apple platforms.

extension PredicateExpressions {
    /// Whether a string contains another, ignoring case and diacritics, as
    /// `StringProtocol.localizedStandardContains(_:)` (what search fields use).
    public struct LocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool

        /// The string searched.
        public let root: Root
        /// The string searched for.
        public let other: Other

        /// Creates the expression.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            try root.evaluate(bindings).localizedStandardContains(other.evaluate(bindings))
        }
    }

    /// What `#Predicate` builds for `localizedStandardContains(_:)`.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
        -> LocalizedStandardContains<Root, Other>
    {
        LocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.LocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.LocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.LocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
