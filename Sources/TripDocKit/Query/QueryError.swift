/// A `--where` (or `--sort`, `--id`) argument that does not parse or does not fit the document's
/// schema: the message says what was expected and the column where, and the description shows
/// the expression with a caret under that place.
public struct QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The option the expression was given to (`--where`).
    public var option: String
    /// The expression as given.
    public var expression: String
    /// Where in it the problem is.
    public var span: QuerySpan
    /// What is wrong and what was expected.
    public var message: String

    /// Creates an error about `span` of `expression`, given to `option`.
    public init(option: String = "--where", expression: String, span: QuerySpan, message: String) {
        self.option = option
        self.expression = expression
        self.span = span
        self.message = message
    }

    public var description: String {
        let width = max(1, min(span.end, expression.count + 1) - span.start)
        return "\(option) column \(span.start): \(message)\n  \(expression)\n  "
            + String(repeating: " ", count: span.start - 1) + String(repeating: "^", count: width)
    }
}
