import Foundation
import Testing
import TripDocCore
import TripDocPlist
import TripDocTestSupport

/// The reader takes the usual value, `<string>text</string>` with its end tag already parsed, in
/// one step, its text in place (a date is read from it without a string); a value written in
/// pieces — split by a comment or a processing instruction, as CDATA, with a character
/// reference — is read node by node. Either way the value is its text, and the same limits and
/// messages hold.
@Suite struct PlistValueTextTests {
    let format = PlistFormat()

    func written(_ document: Document) throws -> String {
        String(decoding: try format.writeDocument(document), as: UTF8.self)
    }

    @Test(arguments: [
        "<string>xy</string>", "<string>x<!---->y</string>", "<string><![CDATA[xy]]></string>", "<string>&#120;y</string>",
        "<string>x<?pi?>y</string>", "<string><![CDATA[x]]>y</string>",
    ])
    func aStringIsItsTextHoweverWritten(written variant: String) throws {
        let text = try written(SpecialCharacterStrings.document(of: ["xy", "z"]))
        #expect(text.contains("<string>xy</string>"))
        let changed = text.replacingOccurrences(of: "<string>xy</string>", with: variant)
        let read = try format.readDocument(from: Data(changed.utf8), file: "strings.plist")
        #expect(SpecialCharacterStrings.strings(in: read) == ["xy", "z"])
    }

    /// Dates are written as `<string>` text and read from the text in place.
    @Test(arguments: [
        "<string>0001-01-01T00:00:00Z</string>", "<string>0001-01-01<!---->T00:00:00Z</string>",
        "<string><![CDATA[0001-01-01T00:00:00Z]]></string>", "<string>&#48;001-01-01T00:00:00Z</string>",
    ])
    func aDateIsItsTextHoweverWritten(written variant: String) throws {
        let document = EdgeCaseDocuments.document()
        let text = try written(document)
        let date = "<key>date</key><string>0001-01-01T00:00:00Z</string>"
        #expect(text.contains(date))
        let changed = text.replacingOccurrences(of: date, with: "<key>date</key>" + variant)
        #expect(try format.readDocument(from: Data(changed.utf8), file: "dates.plist") == document)
    }

    /// Text that is not a date is refused with the decoder's message, in one text node or in pieces.
    @Test(arguments: ["<string>nope</string>", "<string>no<!---->pe</string>"])
    func aDateThatIsNotOneIsRefused(written variant: String) throws {
        let text = try written(EdgeCaseDocuments.document())
        let date = "<key>date</key><string>0001-01-01T00:00:00Z</string>"
        let changed = text.replacingOccurrences(of: date, with: "<key>date</key>" + variant)
        let error = try #require(throws: DocumentReadError.self) {
            try format.readDocument(from: Data(changed.utf8), file: "dates.plist")
        }
        #expect(error.message.contains("expected a date in ISO 8601 form such as \"2024-06-01T09:30:00Z\", found \"nope\""), "\(error)")
    }

    /// A string longer than the string-length limit is refused at its `<string>`, whether its
    /// text is one node or several.
    @Test(arguments: [1, 2, 3])
    func aStringLongerThanTheLimitIsRefusedAtItsElement(pieces: Int) throws {
        let long = String(repeating: "a", count: 90)
        let text = try written(SpecialCharacterStrings.document(of: [long, "z"]))
        let original = "<string>\(long)</string>"
        #expect(text.contains(original))
        let split = (0..<pieces).map { _ in String(repeating: "a", count: 90 / pieces) }.joined(separator: "<!---->")
        let changed = text.replacingOccurrences(of: original, with: "<string>\(split)</string>")
        var limits = DocumentLimits.standard
        limits.maximumStringLength = 64
        let error = try #require(throws: DocumentReadError.self) {
            try format.readDocument(from: Data(changed.utf8), file: "long.plist", limits: limits)
        }
        #expect(error.message == "the text of <string> is longer than the string-length limit of 64 bytes", "\(error)")
        let place = try PlistAttributeTests.place(of: "<string>aaa", in: changed)
        #expect(error.location?.line == place.line)
        #expect(error.location?.column == place.column)
    }

    /// `text` with the text of the first `<element>` after `<key>key</key>` changed by `change`.
    func changingValue(of key: String, _ element: String, in text: String, _ change: (String) -> String) throws -> String {
        let opening = try #require(text.range(of: "<key>\(key)</key><\(element)>"))
        let closing = try #require(text.range(of: "</\(element)>", range: opening.upperBound..<text.endIndex))
        return text.replacingCharacters(
            in: opening.upperBound..<closing.lowerBound, with: change(String(text[opening.upperBound..<closing.lowerBound])))
    }

    /// An `<integer>` or `<real>` is its text without the whitespace at its ends, ASCII or any
    /// other Unicode has (read in place when the ends are ASCII, through a string otherwise).
    @Test(arguments: [" ", "\n\t ", "\u{A0}", "\u{2003}\n"])
    func aNumberIsItsTextWithoutTheWhitespaceAtItsEnds(padding: String) throws {
        let document = EdgeCaseDocuments.document()
        var text = try written(document)
        for (key, element) in [("int64", "integer"), ("int8", "integer"), ("double", "real"), ("float", "real")] {
            text = try changingValue(of: key, element, in: text) { padding + $0 + padding }
        }
        #expect(try format.readDocument(from: Data(text.utf8), file: "numbers.plist") == document)
    }

    /// An integer that does not fit Int64, or text that is not one, is refused with its text,
    /// trimmed, whatever its ends.
    @Test(arguments: [
        ("9223372036854775808", "9223372036854775808"), (" -9223372036854775809\n", "-9223372036854775809"),
        ("1 2", "1 2"), ("+", "+"), ("", ""), ("\u{A0}12a\u{A0}", "12a"), ("0x10", "0x10"),
    ])
    func anIntegerThatIsNotOneIsRefusedWithItsText(written value: String, reported: String) throws {
        let text = try changingValue(of: "int64", "integer", in: try written(EdgeCaseDocuments.document())) { _ in value }
        let error = try #require(throws: DocumentReadError.self) {
            try format.readDocument(from: Data(text.utf8), file: "numbers.plist")
        }
        #expect(error.message.contains("expected an integer that fits Int64, found \"\(reported)\""), "\(error)")
    }

    /// The edges of Int64 and a sign are read as Int64 reads them.
    @Test(arguments: [("+7", Int64(7)), ("-0", 0), ("007", 7), ("9223372036854775807", .max), ("-9223372036854775808", .min)])
    func anIntegerIsReadAsInt64ReadsIt(written value: String, read: Int64) throws {
        let text = try changingValue(of: "int64", "integer", in: try written(EdgeCaseDocuments.document())) { _ in value }
        let document = try format.readDocument(from: Data(text.utf8), file: "numbers.plist")
        #expect(document.snapshots.first?["int64"] == .int(read))
    }

    /// A native `<date>`, as other property-list writers write one, is its text without the
    /// whitespace at its ends.
    @Test(arguments: ["", " ", "\n\t", "\u{A0}"])
    func aNativeDateIsItsTextWithoutTheWhitespaceAtItsEnds(padding: String) throws {
        let document = EdgeCaseDocuments.document()
        let text = try written(document)
        let date = "<key>date</key><string>0001-01-01T00:00:00Z</string>"
        #expect(text.contains(date))
        let changed = text.replacingOccurrences(
            of: date, with: "<key>date</key><date>\(padding)0001-01-01T00:00:00Z\(padding)</date>")
        #expect(try format.readDocument(from: Data(changed.utf8), file: "dates.plist") == document)
    }
}
