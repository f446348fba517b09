import Foundation
import Testing
import TripDocCore

@Suite struct DateCodingTests {
    @Test(arguments: [
        (0.0, "2001-01-01T00:00:00Z"),
        (757_382_400, "2025-01-01T00:00:00Z"),
        (0.5, "2001-01-01T00:00:00.5Z"),
        (-0.5, "2000-12-31T23:59:59.5Z"),
        (-978_307_200, "1970-01-01T00:00:00Z"),
        (-63_113_904_000, "0001-01-01T00:00:00Z"),
        (252_423_993_599, "9999-12-31T23:59:59Z"),
        (604_800.001, "2001-01-08T00:00:00.001Z"),
    ])
    func writesIsoTextInUTC(interval: Double, text: String) {
        #expect(DateCoding.string(from: Date(timeIntervalSinceReferenceDate: interval)) == text)
        #expect(DateCoding.date(from: text)?.timeIntervalSinceReferenceDate == interval)
    }

    @Test func everyWrittenDateReadsBackBitForBit() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let interval = Double.random(in: -63_000_000_000...252_000_000_000, using: &generator)
                * (Bool.random(using: &generator) ? 1 : 1e-9)
            let date = Date(timeIntervalSinceReferenceDate: interval)
            guard let text = DateCoding.string(from: date) else { continue }
            #expect(
                DateCoding.date(from: text)?.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern,
                "\(interval) → \(text)")
        }
    }

    @Test func datesOutsideYearsOneToNineThousandHaveNoText() {
        #expect(DateCoding.string(from: Date(timeIntervalSinceReferenceDate: 1e15)) == nil)
        #expect(DateCoding.string(from: Date(timeIntervalSinceReferenceDate: -1e12)) == nil)
        #expect(DateCoding.string(from: Date(timeIntervalSinceReferenceDate: .infinity)) == nil)
    }

    @Test func readsOffsetsAndRefusesMalformedText() {
        #expect(DateCoding.date(from: "2001-01-01T02:00:00+02:00")?.timeIntervalSinceReferenceDate == 0)
        for text in [
            "2001-01-01", "2001-01-01T00:00:00", "2001-02-30T00:00:00Z", "2001-01-01T24:00:00Z",
            "2001-01-01T00:00:00.Z", "2001-01-01T00:00:00Zjunk", "2001-1-01T00:00:00Z", "0000-01-01T00:00:00Z",
        ] {
            #expect(DateCoding.date(from: text) == nil, "\(text)")
        }
    }

    /// The text handed over in place is ISO 8601, fraction and all, and reads back bit for
    /// bit; there is none for a date that has no text.
    @Test func textInPlaceReadsBackBitForBit() {
        func text(_ interval: Double) -> String? {
            DateCoding.withText(of: Date(timeIntervalSinceReferenceDate: interval)) { String(decoding: $0, as: UTF8.self) }
        }
        #expect(text(757_382_400) == "2025-01-01T00:00:00Z")
        #expect(text(757_382_400.1234567) == "2025-01-01T00:00:00.1234567Z")
        #expect(text(0.25) == "2001-01-01T00:00:00.25Z")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let interval = Double.random(in: -6e10...2.5e11, using: &generator)
            guard let written = text(interval) else { continue }
            #expect(DateCoding.date(from: written)?.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern, "\(written)")
        }
        for interval in [-0.0, .infinity, .nan, 3e11] {
            #expect(DateCoding.withText(of: Date(timeIntervalSinceReferenceDate: interval)) { _ in true } == nil)
        }
    }
}
