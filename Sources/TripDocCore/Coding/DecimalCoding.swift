import Foundation

/// How a `Decimal` is written and read (FORMATS 3.7), in one place, so that the writer and the
/// reader agree by construction: the writer refuses a value (``isStorable(_:)``) exactly when
/// the reader would refuse the text it would write, since it asks the reader's own rule.
public enum DecimalCoding {
    /// The text tripdoc writes for `value`: plain notation, `NaN` for NaN.
    public static func text(of value: Decimal) -> String {
        value.isNaN ? "NaN" : value.description
    }

    /// The reading rule: a decimal from `-?digits[.digits][(e|E)[+-]digits]` or `NaN`; `nil` for anything else
    /// (Foundation's parser alone would accept `12abc` as 12).
    public static func value(of text: String) -> Decimal? {
        if text == "NaN" { return Decimal.nan }
        var index = text.utf8.startIndex
        let bytes = text.utf8
        func digits() -> Int {
            var count = 0
            while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                index = bytes.index(after: index)
                count += 1
            }
            return count
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        guard digits() > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            guard digits() > 0 else { return nil }
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index = bytes.index(after: index)
            }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.endIndex else { return nil }
        // Decimal holds 38 significant digits; refuse more rather than let Foundation drop them.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
        let significant = mantissa.drop { $0 == "0" }.reversed().drop { $0 == "0" }
        guard significant.count <= 38 else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Whether `value` can be stored: its text (``text(of:)``) reads back (``value(of:)``) as
    /// the same value. A `Decimal` whose mantissa has 39 significant digits (Foundation holds up
    /// to 2^128 − 1) cannot; the writer refuses it instead of writing a document no reader takes.
    public static func isStorable(_ value: Decimal) -> Bool {
        if value.isNaN { return true }
        guard let read = self.value(of: text(of: value)) else { return false }
        return read == value
    }
}
