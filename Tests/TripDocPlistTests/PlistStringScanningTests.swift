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
}
