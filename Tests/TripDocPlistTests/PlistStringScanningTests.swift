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

    /// A key is its text however it is written — split by a comment, as CDATA, with a character
    /// reference — and nothing else: the reader's in-place match of the expected key gives
    /// the same answers as reading the key whole.
    @Test func aKeyIsItsTextHoweverWritten() throws {
        let format = PlistFormat()
        let document = SpecialCharacterStrings.document(of: ["x", "y"])
        let text = String(decoding: try format.writeDocument(document), as: UTF8.self)
        #expect(text.contains("<key>s</key>"))
        for same in ["<key><!---->s</key>", "<key>s<!----></key>", "<key><![CDATA[s]]></key>", "<key>&#115;</key>", "<key>s<?pi?></key>"] {
            let variant = text.replacingOccurrences(of: "<key>s</key>", with: same)
            let read = try format.readDocument(from: Data(variant.utf8), file: "keys.plist")
            #expect(SpecialCharacterStrings.strings(in: read) == ["x", "y"], "\(same)")
        }
        for (other, message) in [
            ("<key>s<!---->s</key>", "'ss' is not a property of E"), ("<key> s</key>", "' s' is not a property of E"),
            ("<key><![CDATA[s]]>s</key>", "'ss' is not a property of E"), ("<key/>", "'' is not a property of E"),
            ("<key>S</key>", "'S' is not a property of E"),
            // A prefix needs a namespace declaration, an attribute no property list has.
            (#"<p:key xmlns:p="u">s</p:key>"#, "unexpected attribute 'xmlns:p' on <p:key>"),
            ("<p:key>s</p:key>", "Namespace prefix p on key is not defined"),
        ] {
            let variant = text.replacingOccurrences(of: "<key>s</key>", with: other)
            #expect(throws: DocumentReadError.self, "\(other)") {
                _ = try format.readDocument(from: Data(variant.utf8), file: "keys.plist")
            }
            do {
                _ = try format.readDocument(from: Data(variant.utf8), file: "keys.plist")
            } catch let error as DocumentReadError {
                #expect(error.message.contains(message), "\(other): \(error)")
            }
        }
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
