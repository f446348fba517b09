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
}
