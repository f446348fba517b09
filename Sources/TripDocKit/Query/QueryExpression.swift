/// A `--where` expression as written, before it is checked against a schema: what
/// ``QueryParser`` makes of the text. Every node knows the columns it spans, so that an error
/// can point at the part of the expression it is about.
public indirect enum QueryExpression: Hashable, Sendable {
    /// A literal: `"Lisbon"`, `42`, `-1.5`, `true`, `nil`, `2030-01-01`.
    case literal(QueryLiteral, QuerySpan)
    /// A property, or a path of properties through to-one relationships, ending perhaps in
    /// `count`: `destination`, `livingAccommodation.placeName`, `bucketList.count`.
    case path([String], QuerySpan)
    /// `!operand`.
    case not(QueryExpression, QuerySpan)
    /// `lhs && rhs`.
    case and(QueryExpression, QueryExpression)
    /// `lhs || rhs`.
    case or(QueryExpression, QueryExpression)
    /// `lhs OP rhs` with `==`, `!=`, `<`, `<=`, `>` or `>=`.
    case comparison(QueryComparison, QueryExpression, QueryExpression, QuerySpan)
    /// A string method: `name.contains("x")`, `name.lowercased()`.
    case method(QueryMethod, receiver: QueryExpression, argument: QueryExpression?, QuerySpan)

    /// The columns the expression spans.
    public var span: QuerySpan {
        switch self {
        case .literal(_, let span), .path(_, let span), .not(_, let span), .comparison(_, _, _, let span),
            .method(_, _, _, let span):
            span
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            QuerySpan(start: lhs.span.start, end: rhs.span.end)
        }
    }
}

/// Where a part of an expression is: columns counted in characters from 1, `end` exclusive.
public struct QuerySpan: Hashable, Sendable {
    /// The first column, from 1.
    public var start: Int
    /// The column after the last.
    public var end: Int

    /// Creates a span from column `start` to column `end` (exclusive).
    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(end, start + 1)
    }
}

/// A literal value of an expression.
public enum QueryLiteral: Hashable, Sendable {
    case string(String)
    /// A number as written (`42`, `-1.5`, `1e3`): its type is decided by what it is compared with.
    case number(String)
    case bool(Bool)
    /// An ISO 8601 date or date and time: `2030-01-01`, `2030-01-01T09:30:00Z`.
    case date(String)
    case null

    /// The literal as the expression language writes it.
    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .number(let text), .date(let text): text
        case .bool(let value): String(value)
        case .null: "nil"
        }
    }
}

/// A comparison operator.
public enum QueryComparison: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether it asks for an order (and so needs values that have one).
    var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// A method of the expression language, all on strings: the tests take a string argument, the
/// case changes none.
public enum QueryMethod: String, Hashable, Sendable, CaseIterable {
    case contains
    case hasPrefix
    case hasSuffix
    /// Case- and diacritic-insensitive `contains`, as in SwiftData's predicates.
    case localizedStandardContains
    case lowercased
    case uppercased

    /// Whether the method takes an argument (the tests) or none (the case changes).
    var takesArgument: Bool { self != .lowercased && self != .uppercased }
}
