/// Parses the expression language of `tripdoc show --where` (see the manual page):
///
///     expression := or
///     or         := and ("||" and)*
///     and        := unary ("&&" unary)*
///     unary      := "!" unary | comparison
///     comparison := postfix (("==" | "!=" | "<" | "<=" | ">" | ">=") postfix)?
///     postfix    := primary ("." NAME ("(" expression? ")")?)*
///     primary    := NAME | STRING | NUMBER | DATE | "true" | "false" | "nil" | "(" expression ")"
///
/// A postfix `.name` with parentheses is a method call, without them a step of a property path.
public struct QueryParser {
    private let text: String
    private let option: String
    private var tokens: [Token] = []
    private var position = 0

    private struct Token: Equatable {
        enum Kind: Equatable {
            case name(String), string(String), number(String), date(String), symbol(String), end
        }
        var kind: Kind
        var span: QuerySpan
    }

    /// Parses `text`, given to `option`; throws a ``QueryError`` naming the column of the first
    /// thing that does not fit the grammar.
    public static func parse(_ text: String, option: String = "--where") throws -> QueryExpression {
        var parser = QueryParser(text: text, option: option)
        parser.tokens = try parser.tokenize()
        let expression = try parser.parseOr()
        if case .end = parser.current.kind {} else {
            throw parser.error(at: parser.current.span, "expected && or || or the end of the expression, found \(parser.describe(parser.current))")
        }
        return expression
    }

    private init(text: String, option: String) {
        self.text = text
        self.option = option
    }

    // MARK: Grammar

    private var current: Token { tokens[position] }

    private mutating func advance() -> Token {
        defer { if position < tokens.count - 1 { position += 1 } }
        return current
    }

    private mutating func take(_ symbol: String) -> Token? {
        guard current.kind == .symbol(symbol) else { return nil }
        return advance()
    }

    private mutating func parseOr() throws -> QueryExpression {
        var expression = try parseAnd()
        while take("||") != nil { expression = .or(expression, try parseAnd()) }
        return expression
    }

    private mutating func parseAnd() throws -> QueryExpression {
        var expression = try parseUnary()
        while take("&&") != nil { expression = .and(expression, try parseUnary()) }
        return expression
    }

    private mutating func parseUnary() throws -> QueryExpression {
        if let bang = take("!") {
            let operand = try parseUnary()
            return .not(operand, QuerySpan(start: bang.span.start, end: operand.span.end))
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> QueryExpression {
        let lhs = try parsePostfix()
        for comparison in QueryComparison.allCases where current.kind == .symbol(comparison.rawValue) {
            _ = advance()
            let rhs = try parsePostfix()
            return .comparison(comparison, lhs, rhs, QuerySpan(start: lhs.span.start, end: rhs.span.end))
        }
        return lhs
    }

    private mutating func parsePostfix() throws -> QueryExpression {
        var expression = try parsePrimary()
        while take(".") != nil {
            let nameToken = advance()
            guard case .name(let name) = nameToken.kind else {
                throw error(at: nameToken.span, "expected a property or method name after '.', found \(describe(nameToken))")
            }
            if take("(") != nil {
                guard let method = QueryMethod(rawValue: name) else {
                    throw error(
                        at: nameToken.span,
                        "unknown method '\(name)'; expected one of \(QueryMethod.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                var argument: QueryExpression?
                if current.kind != .symbol(")") { argument = try parseOr() }
                let close = advance()
                guard close.kind == .symbol(")") else {
                    throw error(at: close.span, "expected ')' to close the call of \(name), found \(describe(close))")
                }
                expression = .method(
                    method, receiver: expression, argument: argument,
                    QuerySpan(start: expression.span.start, end: close.span.end))
            } else if case .path(let names, let span) = expression {
                expression = .path(names + [name], QuerySpan(start: span.start, end: nameToken.span.end))
            } else {
                throw error(at: nameToken.span, "'.\(name)' follows something that is not a property")
            }
        }
        return expression
    }

    private mutating func parsePrimary() throws -> QueryExpression {
        let token = advance()
        switch token.kind {
        case .name("true"): return .literal(.bool(true), token.span)
        case .name("false"): return .literal(.bool(false), token.span)
        case .name("nil"): return .literal(.null, token.span)
        case .name(let name): return .path([name], token.span)
        case .string(let value): return .literal(.string(value), token.span)
        case .number(let value): return .literal(.number(value), token.span)
        case .date(let value): return .literal(.date(value), token.span)
        case .symbol("("):
            let inner = try parseOr()
            let close = advance()
            guard close.kind == .symbol(")") else {
                throw error(at: close.span, "expected ')' to close the '(' at column \(token.span.start), found \(describe(close))")
            }
            return inner
        default:
            throw error(at: token.span, "expected a property, a value or '(', found \(describe(token))")
        }
    }

    // MARK: Tokens

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: "the end of the expression"
        case .name(let name): "'\(name)'"
        case .string(let value): "the string \"\(value)\""
        case .number(let value), .date(let value): "'\(value)'"
        case .symbol(let symbol): "'\(symbol)'"
        }
    }

    private func error(at span: QuerySpan, _ message: String) -> QueryError {
        QueryError(option: option, expression: text, span: span, message: message)
    }

    private static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "."]

    private func tokenize() throws -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        func span(_ start: Int) -> QuerySpan { QuerySpan(start: start + 1, end: index + 1) }
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
            } else if character == "\"" {
                tokens.append(Token(kind: .string(try scanString(characters, &index)), span: span(start)))
            } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
                tokens.append(scanNumberOrDate(characters, &index))
            } else if character.isLetter || character == "_" || character == "$" {
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "$"
                {
                    index += 1
                }
                tokens.append(Token(kind: .name(String(characters[start..<index])), span: span(start)))
            } else if let symbol = Self.symbols.first(where: { symbol in
                symbol.count <= characters.count - index && String(characters[index..<index + symbol.count]) == symbol
            }) {
                index += symbol.count
                tokens.append(Token(kind: .symbol(symbol), span: span(start)))
            } else {
                index += 1
                let hint = character == "=" ? "; compare with ==" : character == "&" ? "; 'and' is &&" : character == "|" ? "; 'or' is ||" : character == "'" ? "; strings are in double quotes" : ""
                throw error(at: span(start), "unexpected character '\(character)'\(hint)")
            }
        }
        tokens.append(Token(kind: .end, span: QuerySpan(start: characters.count + 1, end: characters.count + 2)))
        return tokens
    }

    /// A string in double quotes, with `\"`, `\\`, `\n`, `\t` and `\u{…}` escapes.
    private func scanString(_ characters: [Character], _ index: inout Int) throws -> String {
        let start = index
        index += 1
        var value = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\"": return value
            case "\\":
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "\"", "\\": value.append(escaped)
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "u":
                    guard index < characters.count, characters[index] == "{",
                        let close = characters[index...].firstIndex(of: "}"),
                        let code = UInt32(String(characters[index + 1..<close]), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else {
                        throw error(at: QuerySpan(start: index - 1, end: index + 1), "expected \\u{HEX} in a string")
                    }
                    value.unicodeScalars.append(scalar)
                    index = close + 1
                default:
                    throw error(
                        at: QuerySpan(start: index - 1, end: index + 1),
                        "unknown escape '\\\(escaped)' in a string; expected \\\", \\\\, \\n, \\t or \\u{HEX}")
                }
            default: value.append(character)
            }
        }
        throw error(at: QuerySpan(start: start + 1, end: characters.count + 1), "this string has no closing '\"'")
    }

    /// `42`, `-1.5`, `1e3`, or a date `2030-01-01` / `2030-01-01T09:30:00Z` (four digits and a dash).
    private func scanNumberOrDate(_ characters: [Character], _ index: inout Int) -> Token {
        let start = index
        let isDate = characters.count - index >= 5 && characters[index..<index + 4].allSatisfy(\.isNumber) && characters[index + 4] == "-"
        if isDate {
            while index < characters.count,
                characters[index].isNumber || "-:.+TZ".contains(characters[index])
            {
                index += 1
            }
            return Token(kind: .date(String(characters[start..<index])), span: QuerySpan(start: start + 1, end: index + 1))
        }
        index += 1
        while index < characters.count {
            let character = characters[index]
            if character.isNumber || character == "." && index + 1 < characters.count && characters[index + 1].isNumber {
                index += 1
            } else if character == "e" || character == "E" {
                index += 1
                if index < characters.count, characters[index] == "-" || characters[index] == "+" { index += 1 }
            } else {
                break
            }
        }
        return Token(kind: .number(String(characters[start..<index])), span: QuerySpan(start: start + 1, end: index + 1))
    }
}
