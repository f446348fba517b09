import Foundation
import Testing
import TripDocCore
import TripDocPlist
import TripDocTestSupport

/// The plist writer looks for text to escape eight bytes at a time: whatever falls at any place
/// in a word is escaped (or, outside XML, written as data) as when scanned byte by byte.
@Suite struct PlistStringScanningTests {
    @Test(arguments: ["&", "<", ">", "\r", "\n", "\t", "\u{1}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{EFFF}", "é", "😀"])
    func aCharacterAtAnyPlaceRoundTrips(special: String) throws {
        let strings = SpecialCharacterStrings.strings(with: special)
        let format = PlistFormat()
        let read = try format.readDocument(
            from: format.writeDocument(SpecialCharacterStrings.document(of: strings)), file: "strings.plist")
        #expect(SpecialCharacterStrings.strings(in: read) == strings)
    }

    /// Keys are matched against the one expected next; an empty key matches no property, even
    /// where no more keys are expected.
    @Test func anEmptyKeyIsNoProperty() throws {
        let format = PlistFormat()
        let text = String(decoding: try format.writeDocument(SpecialCharacterStrings.document(of: ["x"])), as: UTF8.self)
        let snapshot = "<string>x</string></dict>"
        #expect(text.contains(snapshot))
        let damaged = text.replacingOccurrences(of: snapshot, with: "<string>x</string><key></key><integer>1</integer></dict>")
        #expect {
            _ = try format.readDocument(from: Data(damaged.utf8), file: "empty-key.plist")
        } throws: { error in
            (error as? DocumentReadError)?.message.contains("'' is not a property of E") == true
        }
    }
}
