import Foundation
import TripDoc

/// A value while an expression is evaluated: a snapshot value with the numeric kinds that can
/// be compared with each other told apart, and the order the language gives each kind.
enum QueryValue {
    case null
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// A value the language compares only for equality (arrays, composite values, references).
    case other(SnapshotValue)

    init(_ value: SnapshotValue) {
        switch value {
        case .null: self = .null
        case .bool(let v): self = .bool(v)
        case .int(let v): self = .signed(v)
        case .uint(let v): self = .unsigned(v)
        case .double(let v): self = .double(v)
        case .float(let v): self = .double(Double(v))
        case .decimal(let v): self = .decimal(v)
        case .string(let v): self = .string(v)
        case .date(let v): self = .date(v)
        case .data(let v): self = .data(v)
        case .uuid(let v): self = .uuid(v)
        case .url(let v): self = .url(v)
        default: self = .other(value)
        }
    }

    var isTrue: Bool {
        if case .bool(true) = self { return true }
        return false
    }

    /// How `lhs` and `rhs` are ordered, or `nil` when they have no order between them (different
    /// kinds, a `nil`, NaN).
    static func order(_ lhs: QueryValue, _ rhs: QueryValue) -> ComparisonResult? {
        func compare<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
            a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        }
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return compare(a ? 1 : 0, b ? 1 : 0)
        case (.signed(let a), .signed(let b)): return compare(a, b)
        case (.unsigned(let a), .unsigned(let b)): return compare(a, b)
        case (.signed(let a), .unsigned(let b)): return a < 0 ? .orderedAscending : compare(UInt64(a), b)
        case (.unsigned(let a), .signed(let b)): return b < 0 ? .orderedDescending : compare(a, UInt64(b))
        case (.decimal(let a), .decimal(let b)): return a.isNaN || b.isNaN ? nil : compare(a, b)
        case (.decimal(let a), _): return rhs.decimal.flatMap { a.isNaN || $0.isNaN ? nil : compare(a, $0) }
        case (_, .decimal(let b)): return lhs.decimal.flatMap { b.isNaN || $0.isNaN ? nil : compare($0, b) }
        case (.string(let a), .string(let b)): return compare(a, b)
        case (.date(let a), .date(let b)): return compare(a, b)
        case (.uuid(let a), .uuid(let b)): return compare(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)): return compare(a.absoluteString, b.absoluteString)
        default:
            guard let a = lhs.double, let b = rhs.double, !a.isNaN, !b.isNaN else { return nil }
            return compare(a, b)
        }
    }

    /// Whether the two are equal: numbers by value whatever their kinds, `nil` equal to `nil`,
    /// other values as the document holds them.
    static func equal(_ lhs: QueryValue, _ rhs: QueryValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.data(let a), .data(let b)): return a == b
        case (.other(let a), .other(let b)): return a == b
        default: return order(lhs, rhs) == .orderedSame
        }
    }

    private var double: Double? {
        switch self {
        case .signed(let v): Double(v)
        case .unsigned(let v): Double(v)
        case .double(let v): v
        case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
        default: nil
        }
    }

    private var decimal: Decimal? {
        switch self {
        case .signed(let v): Decimal(v)
        case .unsigned(let v): Decimal(v)
        case .double(let v): v.isFinite ? Decimal(string: String(v)) : nil
        case .decimal(let v): v
        default: nil
        }
    }
}
