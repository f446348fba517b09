import Foundation
import TripDoc

/// Gives each part of a parsed expression its type from the schema, and makes it a
/// ``QueryNode``; throws a ``QueryError`` at the column of the first part that does not fit.
struct QueryChecker {
    let text: String
    let option: String
    let schema: Schema
    /// The properties read of each entity reached through a to-one relationship.
    private(set) var relatedProperties: [String: Set<String>] = [:]

    init(text: String, option: String, schema: Schema) {
        self.text = text
        self.option = option
        self.schema = schema
    }

    private func error(_ span: QuerySpan, _ message: String) -> QueryError {
        QueryError(option: option, expression: text, span: span, message: message)
    }

    mutating func check(_ expression: QueryExpression, in entity: Schema.Entity) throws -> QueryNode {
        switch expression {
        case .literal(let literal, let span):
            return try self.literal(literal, span: span, as: nil)
        case .path(let names, let span):
            return try path(names, span: span, in: entity)
        case .not(let operand, _):
            let node = try condition(operand, in: entity, role: "'!'")
            return QueryNode(type: .bool, isOptional: false) { snapshot, related in
                .bool(!node.evaluate(snapshot, related).isTrue)
            }
        case .and(let lhs, let rhs):
            let left = try condition(lhs, in: entity, role: "'&&'")
            let right = try condition(rhs, in: entity, role: "'&&'")
            return QueryNode(type: .bool, isOptional: false) { snapshot, related in
                .bool(left.evaluate(snapshot, related).isTrue && right.evaluate(snapshot, related).isTrue)
            }
        case .or(let lhs, let rhs):
            let left = try condition(lhs, in: entity, role: "'||'")
            let right = try condition(rhs, in: entity, role: "'||'")
            return QueryNode(type: .bool, isOptional: false) { snapshot, related in
                .bool(left.evaluate(snapshot, related).isTrue || right.evaluate(snapshot, related).isTrue)
            }
        case .comparison(let comparison, let lhs, let rhs, let span):
            return try self.comparison(comparison, lhs, rhs, span: span, in: entity)
        case .method(let method, let receiver, let argument, let span):
            return try self.method(method, receiver: receiver, argument: argument, span: span, in: entity)
        }
    }

    private mutating func condition(_ expression: QueryExpression, in entity: Schema.Entity, role: String) throws -> QueryNode {
        let node = try check(expression, in: entity)
        guard node.type == .bool else {
            throw error(expression.span, "\(role) needs a condition, and this is \(node.type.description)")
        }
        return node
    }

    // MARK: Paths

    /// A property path: attributes and relationships of `entity`, through to-one relationships,
    /// perhaps ending in `count`.
    mutating func path(_ names: [String], span: QuerySpan, in entity: Schema.Entity) throws -> QueryNode {
        var current = entity
        var hops: [String] = []  // to-one relationships followed, in order
        var isOptional = false
        for (index, name) in names.enumerated() {
            let isLast = index == names.count - 1
            let rest = names[(index + 1)...]
            if let attribute = current.attribute(named: name) {
                let read = Self.reader(hops: hops, property: name)
                if hops.isEmpty == false { relatedProperties[current.name, default: []].insert(name) }
                let optional = isOptional || attribute.isOptional
                if isLast {
                    return QueryNode(
                        type: .init(attribute.type), isOptional: optional, attributeType: attribute.type,
                        evaluate: { snapshot, related in QueryValue(read(snapshot, related)) })
                }
                guard rest == ["count"] else {
                    throw error(span, "\(current.name).\(name) is \(QueryNode.ValueType(attribute.type).description); it has no property '\(names[index + 1])'")
                }
                switch attribute.type {
                case .string, .data, .array:
                    return QueryNode(type: .number, isOptional: false) { snapshot, related in
                        switch read(snapshot, related) {
                        case .string(let text): .signed(Int64(text.count))
                        case .data(let data): .signed(Int64(data.count))
                        case .array(let elements): .signed(Int64(elements.count))
                        default: .signed(0)
                        }
                    }
                default:
                    throw error(span, "\(current.name).\(name) is \(QueryNode.ValueType(attribute.type).description); only strings, data and arrays have a count")
                }
            }
            guard let relationship = current.relationship(named: name) else {
                throw error(
                    span, "\(current.name) has no property '\(name)'; it has \(current.propertyNames.joined(separator: ", "))")
            }
            let read = Self.reader(hops: hops, property: name)
            if hops.isEmpty == false { relatedProperties[current.name, default: []].insert(name) }
            if relationship.isToMany {
                guard rest == ["count"] else {
                    throw error(
                        span, "\(current.name).\(name) is a to-many relationship; write \(names[...index].joined(separator: ".")).count for the number of \(relationship.destination) it holds")
                }
                return QueryNode(type: .number, isOptional: false) { snapshot, related in
                    if case .references(let identifiers) = read(snapshot, related) { return .signed(Int64(identifiers.count)) }
                    return .signed(0)
                }
            }
            if isLast {
                return QueryNode(type: .reference(relationship.destination), isOptional: true) { snapshot, related in
                    if case .reference(let identifier) = read(snapshot, related) { return .other(.reference(identifier)) }
                    return .null
                }
            }
            guard let destination = schema.entity(named: relationship.destination) else {
                throw error(span, "\(current.name).\(name) leads to \(relationship.destination), which the schema does not have")
            }
            hops.append(name)
            isOptional = true
            current = destination
        }
        throw error(span, "expected a property name")
    }

    /// Reads `property` of the snapshot reached by following the to-one relationships `hops`.
    private static func reader(hops: [String], property: String)
        -> @Sendable (DefaultSnapshot, RelatedSnapshots) -> SnapshotValue
    {
        if hops.isEmpty { return { snapshot, _ in snapshot[property] ?? .null } }
        return { snapshot, related in
            var current = snapshot
            for hop in hops {
                guard case .reference(let identifier) = current[hop], let next = related[identifier] else {
                    return .null
                }
                current = next
            }
            return current[property] ?? .null
        }
    }

    // MARK: Comparisons

    private mutating func comparison(
        _ comparison: QueryComparison, _ lhs: QueryExpression, _ rhs: QueryExpression, span: QuerySpan,
        in entity: Schema.Entity
    ) throws -> QueryNode {
        var left = try check(lhs, in: entity)
        var right = try check(rhs, in: entity)
        // A literal takes the type of what it is compared with.
        if case .literal(let literal, let literalSpan) = rhs { right = try self.literal(literal, span: literalSpan, as: left) }
        if case .literal(let literal, let literalSpan) = lhs { left = try self.literal(literal, span: literalSpan, as: right) }
        if left.type == .null || right.type == .null {
            let other = left.type == .null ? right : left
            guard !comparison.isOrdering else {
                throw error(span, "nil has no order; compare it with == or !=")
            }
            guard other.isOptional || other.type == .null else {
                throw error(span, "\(other.type.description) is never nil here, so comparing it with nil is always \(comparison == .notEqual)")
            }
        } else if left.type != right.type {
            throw error(span, "cannot compare \(left.type.description) with \(right.type.description)")
        } else if comparison.isOrdering, !left.type.isOrdered {
            throw error(span, "\(left.type.description) has no order; compare it with == or !=")
        }
        let (checkedLeft, checkedRight) = (left, right)
        return QueryNode(type: .bool, isOptional: false) { snapshot, related in
            let a = checkedLeft.evaluate(snapshot, related)
            let b = checkedRight.evaluate(snapshot, related)
            switch comparison {
            case .equal: return .bool(QueryValue.equal(a, b))
            case .notEqual: return .bool(!QueryValue.equal(a, b))
            case .less: return .bool(QueryValue.order(a, b) == .orderedAscending)
            case .lessOrEqual: return .bool([.orderedAscending, .orderedSame].contains(QueryValue.order(a, b)))
            case .greater: return .bool(QueryValue.order(a, b) == .orderedDescending)
            case .greaterOrEqual: return .bool([.orderedDescending, .orderedSame].contains(QueryValue.order(a, b)))
            }
        }
    }

    /// A literal, read as the type of `other` when it is given (a string compared with a UUID is
    /// a UUID, a number compared with a Decimal a Decimal).
    private func literal(_ literal: QueryLiteral, span: QuerySpan, as other: QueryNode?) throws -> QueryNode {
        let value: QueryValue
        let type: QueryNode.ValueType
        switch (literal, other?.type) {
        case (.null, _):
            return QueryNode(type: .null, isOptional: true) { _, _ in .null }
        case (.bool(let flag), _):
            (value, type) = (.bool(flag), .bool)
        case (.number(let text), _):
            (value, type) = (try number(text, span: span, as: other?.attributeType), .number)
        case (.date(let text), _), (.string(let text), .date?):
            guard let date = Self.date(text) else {
                throw error(span, "'\(text)' is not a date; write 2030-01-01 or 2030-01-01T09:30:00Z (ISO 8601, UTC or with an offset)")
            }
            (value, type) = (.date(date), .date)
        case (.string(let text), .uuid?):
            guard let uuid = UUID(uuidString: text) else { throw error(span, "\"\(text)\" is not a UUID") }
            (value, type) = (.uuid(uuid), .uuid)
        case (.string(let text), .url?):
            guard let url = URL(string: text) else { throw error(span, "\"\(text)\" is not a URL") }
            (value, type) = (.url(url), .url)
        case (.string(let text), _):
            (value, type) = (.string(text), .string)
        }
        return QueryNode(type: type, isOptional: false) { _, _ in value }
    }

    private func number(_ text: String, span: QuerySpan, as attributeType: AttributeType?) throws -> QueryValue {
        if attributeType == .decimal, let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
            return .decimal(decimal)
        }
        if let signed = Int64(text) { return .signed(signed) }
        if let unsigned = UInt64(text) { return .unsigned(unsigned) }
        if let double = Double(text), double.isFinite { return .double(double) }
        throw error(span, "'\(text)' is not a number this language can hold")
    }

    /// `2030-01-01` (midnight UTC) or an ISO 8601 date and time with a zone.
    static func date(_ text: String) -> Date? {
        if text.count == 10, let date = DateCoding.date(from: text + "T00:00:00Z") { return date }
        if let date = DateCoding.date(from: text) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    // MARK: Methods

    private mutating func method(
        _ method: QueryMethod, receiver: QueryExpression, argument: QueryExpression?, span: QuerySpan,
        in entity: Schema.Entity
    ) throws -> QueryNode {
        let target = try check(receiver, in: entity)
        guard target.type == .string else {
            throw error(receiver.span, "\(method.rawValue)(…) is a method of strings, and this is \(target.type.description)")
        }
        guard method.takesArgument else {
            if argument != nil { throw error(span, "\(method.rawValue)() takes no argument") }
            let upper = method == .uppercased
            return QueryNode(type: .string, isOptional: target.isOptional) { snapshot, related in
                guard case .string(let text) = target.evaluate(snapshot, related) else { return .null }
                return .string(upper ? text.uppercased() : text.lowercased())
            }
        }
        guard let argument else { throw error(span, "\(method.rawValue)(…) needs a string to look for") }
        let needle = try check(argument, in: entity)
        guard needle.type == .string else {
            throw error(argument.span, "\(method.rawValue)(…) looks for a string, and this is \(needle.type.description)")
        }
        return QueryNode(type: .bool, isOptional: false) { snapshot, related in
            guard case .string(let text) = target.evaluate(snapshot, related),
                case .string(let part) = needle.evaluate(snapshot, related)
            else { return .bool(false) }
            switch method {
            case .contains: return .bool(text.contains(part))
            case .hasPrefix: return .bool(text.hasPrefix(part))
            case .hasSuffix: return .bool(text.hasSuffix(part))
            default:
                return .bool(
                    part.isEmpty || text.range(of: part, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
            }
        }
    }
}
