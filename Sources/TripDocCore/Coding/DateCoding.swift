import Foundation

/// The exact text form of a `Date` in every document: ISO 8601 in UTC, with the fewest
/// fractional-second digits that give back the same `Date`.
///
/// A `Date` is a `Double` count of seconds since 2001-01-01T00:00:00Z. The text
/// `YYYY-MM-DDTHH:MM:SS[.F]Z` stands for the whole seconds `W` of the calendar part plus the
/// fraction `F`, and reads back as the double nearest to `Double(W) + Double("0.F")`; the writer
/// picks the shortest `F` (of at most 17 digits) for which that equals the date exactly. Dates
/// with no such text — years outside 0001–9999, non-finite values, `-0.0`, and some dates
/// before 2001 whose fraction cannot be represented exactly — are written as a number of
/// seconds since 2001 instead.
public enum DateCoding {
    private static let secondsPerDay: Int64 = 86_400
    /// Days from 1970-01-01 to 2001-01-01.
    private static let referenceDayOffset: Int64 = 11_323
    /// Whole seconds since 2001 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
    private static let representableSeconds: Range<Double> = {
        let low = (daysFromCivil(year: 1, month: 1, day: 1) - referenceDayOffset) * secondsPerDay
        let high = (daysFromCivil(year: 10_000, month: 1, day: 1) - referenceDayOffset) * secondsPerDay
        return Double(low)..<Double(high)
    }()

    /// The ISO 8601 text of `date`, or `nil` when it has none: its year is outside 0001–9999, it
    /// is not finite, it is `-0.0`, or (before 2001) no fraction of 17 digits gives it back.
    public static func string(from date: Date) -> String? {
        withText(of: date) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the ASCII text of ``string(from:)`` (written in place, no `String`
    /// made) and returns what it returns, or `nil` without calling it when the date has no text.
    public static func withText<Result>(of date: Date, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, representableSeconds.contains(interval),
            !(interval == 0 && interval.sign == .minus)
        else { return nil }
        let whole = interval.rounded(.down)
        // Exact for dates after 2001 (`whole` and `interval` share a binade); for earlier ones
        // it may round, and then no fraction reproduces the date and the caller falls back.
        let fraction = interval - whole
        let wholeSeconds = Int64(whole)
        var days = wholeSeconds / secondsPerDay
        var secondOfDay = wholeSeconds % secondsPerDay
        if secondOfDay < 0 {
            secondOfDay += secondsPerDay
            days -= 1
        }
        let (year, month, day) = civilFromDays(days + referenceDayOffset)
        var fractionDigits = ""
        if fraction != 0 {
            guard let digits = shortestFraction(fraction, whole: whole, target: interval) else { return nil }
            fractionDigits = "." + digits
        }
        // Written in place: the fields are fixed-width (the year is 0001–9999), a fraction has at
        // most 17 digits. 48 bytes: room for 20 + 1 + 17.
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &storage) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            func put(_ value: Int64, width: Int, at offset: Int) {
                var rest = value
                for index in (offset..<offset + width).reversed() {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, width: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, width: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, width: 2, at: 17)
            var count = 19
            for byte in fractionDigits.utf8 {
                buffer[count] = byte
                count += 1
            }
            buffer[count] = UInt8(ascii: "Z")
            return try body(UnsafeBufferPointer(rebasing: buffer[0...count]))
        }
    }

    /// The date `text` stands for, or `nil` when it is not `YYYY-MM-DDTHH:MM:SS[.F](Z|±HH:MM)`.
    public static func date(from text: String) -> Date? {
        text.withUTF8Bytes { date(fromUTF8: $0) }
    }

    /// The date the UTF-8 text `utf8` stands for, as ``date(from:)`` (read in place: a copy of
    /// the text per date was an allocation per date read).
    public static func date(fromUTF8 utf8: UnsafeBufferPointer<UInt8>) -> Date? {
        guard utf8.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = utf8[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t"),
            utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year >= 1, (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fractionText = ""
        if utf8[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < utf8.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[index]) { index += 1 }
            guard index > start else { return nil }
            fractionText = String(decoding: utf8[start..<index], as: UTF8.self)
        }
        guard index < utf8.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch utf8[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = utf8[index] == UInt8(ascii: "-") ? -1 : 1
            guard utf8.count == index + 6, utf8[index + 3] == UInt8(ascii: ":"),
                let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6),
                hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
            index += 6
        default:
            return nil
        }
        guard index == utf8.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day) - referenceDayOffset
        let whole = days * secondsPerDay + hour * 3600 + minute * 60 + second - offsetSeconds
        guard !fractionText.isEmpty else { return Date(timeIntervalSinceReferenceDate: Double(whole)) }
        guard let fraction = Double("0." + fractionText) else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(whole) + fraction)
    }

    /// The shortest decimal digits `F` such that `whole + Double("0.F") == target`, or `nil`
    /// when no fraction of up to 17 digits does (dates before 2001 whose fraction was rounded).
    /// Digits come from `printf`'s `%.Nf`, which rounds ties to even.
    private static func shortestFraction(_ fraction: Double, whole: Double, target: Double) -> String? {
        for digits in 1...17 {
            let candidate = String(format: "%.\(digits)f", fraction)
            // "%.Nf" of a fraction rounds to "0.xxx", or to "1.000" just below a whole second.
            guard candidate.hasPrefix("0."), let value = Double(candidate), whole + value == target else { continue }
            var text = candidate.dropFirst(2)
            while text.last == "0" { text = text.dropLast() }
            return String(text)
        }
        return nil
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
