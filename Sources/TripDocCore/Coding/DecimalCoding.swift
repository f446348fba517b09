import Foundation

/// How a `Decimal` is written and read (FORMATS 3.7), in one place, so that the writer and the
/// reader agree by construction. Neither asks Foundation's parser: the reader takes the exact
/// value of the text, and accepts it when a `Decimal` of at most 38 significant digits holds
/// it; the writer writes the exact value, and refuses (``isStorable(_:)``) exactly the values
/// of 39 significant digits, the only ones Foundation holds that the reader does not accept.
public enum DecimalCoding {
    /// The most significant digits a document's `Decimal` may have.
    public static let maximumSignificantDigits = 38

    /// The largest and smallest exponents of a Foundation `Decimal`'s mantissa.
    public static let exponentRange = -128...127

    /// The largest mantissa of a Foundation `Decimal`, 2^128 − 1, in decimal digits.
    static let largestMantissa = "340282366920938463463374607431768211455"

    /// A `Decimal`'s exact value: `-`, when `isNegative`, `digits` × 10^`exponent`, where
    /// `digits` is empty for zero and otherwise has no leading or trailing zero.
    struct ExactValue: Equatable {
        var isNegative: Bool
        var digits: Substring
        var exponent: Int

        /// The value of `integer` (decimal digits) × 10^`exponent`, leading and trailing zeros
        /// taken out; zero has no sign.
        init(isNegative: Bool, integer: Substring, exponent: Int) {
            let withoutLeading = integer.drop { $0 == "0" }
            var end = withoutLeading.endIndex
            while end > withoutLeading.startIndex, withoutLeading[withoutLeading.index(before: end)] == "0" {
                end = withoutLeading.index(before: end)
            }
            digits = withoutLeading[..<end]
            self.isNegative = isNegative && !digits.isEmpty
            self.exponent = digits.isEmpty ? 0 : exponent + withoutLeading.distance(from: end, to: withoutLeading.endIndex)
        }

        /// The value of a `Decimal` that is not NaN.
        init(_ value: Decimal) {
            // The mantissa, as an integer, is `significand`; Foundation shows an integer's digits.
            self.init(isNegative: value.sign == .minus, integer: Substring(value.significand.description), exponent: value.exponent)
        }

        /// Whether a Foundation `Decimal` of at most 38 significant digits holds this value
        /// (a mantissa of at most 2^128 − 1 times 10^e, −128 ≤ e ≤ 127): it is zero, or it has
        /// at most 38 significant digits, none below 10^−128, and a magnitude of at most
        /// (2^128 − 1) × 10^127, `Decimal.greatestFiniteMagnitude`. Above 10^127 the magnitude
        /// is the mantissa `digits` followed by as many zeros as `exponent` passes 127.
        var isHeldByADocumentDecimal: Bool {
            if digits.isEmpty { return true }
            guard digits.count <= DecimalCoding.maximumSignificantDigits, exponent >= DecimalCoding.exponentRange.lowerBound else {
                return false
            }
            let excess = exponent - DecimalCoding.exponentRange.upperBound
            guard excess > 0 else { return true }
            let length = digits.count + excess
            let largest = DecimalCoding.largestMantissa
            if length != largest.count { return length < largest.count }
            return (digits + String(repeating: "0", count: excess)) <= largest
        }

        /// The `Decimal` of this value; only for one that ``isHeldByADocumentDecimal``.
        var decimal: Decimal {
            if digits.isEmpty { return Decimal(0) }
            let sign: FloatingPointSign = isNegative ? .minus : .plus
            let top = DecimalCoding.exponentRange.upperBound
            if exponent <= top { return Decimal(sign: sign, exponent: exponent, significand: Self.integer(digits)) }
            // Above 10^127 the mantissa ends in zeros. Foundation's `Decimal(sign:exponent:significand:)`
            // takes the zeros out of the significand and overflows the exponent, and its multiplication
            // overflows too; its addition keeps the exponent, so the mantissa minus 1 (which ends in 9)
            // is added to 1, both at 10^127.
            let mantissa = String(digits) + String(repeating: "0", count: exponent - top)
            let belowMantissa = Self.integer(Substring(Self.decrement(mantissa)))
            return Decimal(sign: sign, exponent: top, significand: belowMantissa) + Decimal(sign: sign, exponent: top, significand: 1)
        }

        /// The integer of a string of decimal digits (at most 39, so at most 2^128 − 1).
        static func integer(_ digits: Substring) -> Decimal {
            var result = Decimal(0)
            var rest = digits
            while !rest.isEmpty {
                let chunk = rest.prefix(18)
                rest = rest.dropFirst(chunk.count)
                var scale = Decimal(1)
                for _ in 0..<chunk.count { scale *= 10 }
                result = result * scale + Decimal(UInt64(chunk)!)
            }
            return result
        }

        /// A positive integer's decimal digits, minus 1.
        static func decrement(_ digits: String) -> String {
            var bytes = Array(digits.utf8)
            var index = bytes.count - 1
            while bytes[index] == UInt8(ascii: "0") {
                bytes[index] = UInt8(ascii: "9")
                index -= 1
            }
            bytes[index] -= 1
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Plain notation: `-`, the integer digits (`0` below 1), and `.` and the fraction's
        /// digits when there is a fraction; zero is `0`.
        var plainText: String {
            if digits.isEmpty { return "0" }
            var text = isNegative ? "-" : ""
            if exponent >= 0 {
                text += digits
                text += String(repeating: "0", count: exponent)
            } else if digits.count > -exponent {
                let point = digits.index(digits.endIndex, offsetBy: exponent)
                text += digits[..<point]
                text += "."
                text += digits[point...]
            } else {
                text += "0."
                text += String(repeating: "0", count: -exponent - digits.count)
                text += digits
            }
            return text
        }
    }

    /// The text tripdoc writes for `value`: its exact value in plain notation, `NaN` for NaN.
    public static func text(of value: Decimal) -> String {
        value.isNaN ? "NaN" : ExactValue(value).plainText
    }

    /// The reading rule: the exact value of a text of the grammar
    /// `NaN / [-] 1*DIGIT ["." 1*DIGIT] [("e" / "E") ["+" / "-"] 1*DIGIT]`, when a `Decimal` of
    /// at most 38 significant digits holds it; `nil` for any other text.
    public static func value(of text: String) -> Decimal? {
        if text == "NaN" { return Decimal.nan }
        let bytes = text.utf8
        var index = bytes.startIndex
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func skipDigits() -> Int {
            var count = 0
            while index < bytes.endIndex, isDigit(bytes[index]) {
                index = bytes.index(after: index)
                count += 1
            }
            return count
        }
        func skip(_ characters: String) -> UInt8? {
            guard index < bytes.endIndex, characters.utf8.contains(bytes[index]) else { return nil }
            defer { index = bytes.index(after: index) }
            return bytes[index]
        }
        let isNegative = skip("-") != nil
        let integerStart = index
        guard skipDigits() > 0 else { return nil }
        var mantissa = String(Substring(text.utf8[integerStart..<index]))
        var fractionDigits = 0
        if skip(".") != nil {
            let fractionStart = index
            fractionDigits = skipDigits()
            guard fractionDigits > 0 else { return nil }
            mantissa += Substring(text.utf8[fractionStart..<index])
        }
        var exponent = 0
        if skip("eE") != nil {
            let isNegativeExponent = skip("+-") == UInt8(ascii: "-")
            let exponentStart = index
            guard skipDigits() > 0 else { return nil }
            // An exponent beyond ±10^15 puts any text of fewer digits than that out of range.
            for byte in bytes[exponentStart..<index] {
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000_000_000)
            }
            if isNegativeExponent { exponent = -exponent }
        }
        guard index == bytes.endIndex else { return nil }
        let value = ExactValue(isNegative: isNegative, integer: Substring(mantissa), exponent: exponent - fractionDigits)
        return value.isHeldByADocumentDecimal ? value.decimal : nil
    }

    /// Whether `value` can be stored: its text (``text(of:)``) reads back (``value(of:)``) as
    /// the same value. Every `Decimal` can but one of 39 significant digits (Foundation's
    /// mantissa holds up to 2^128 − 1); the writer refuses it instead of writing a document no
    /// reader takes.
    public static func isStorable(_ value: Decimal) -> Bool {
        if value.isNaN { return true }
        guard let read = self.value(of: text(of: value)) else { return false }
        return ExactValue(read) == ExactValue(value)
    }
}
