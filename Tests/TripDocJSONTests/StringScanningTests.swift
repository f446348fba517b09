import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// The JSON reader and writer scan strings eight bytes at a time: a character to escape, a
/// control character or a byte of invalid UTF-8 is found wherever it falls in a word.
@Suite struct StringScanningTests {
    @Test(arguments: ["\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "/", "é", "😀", "\u{FFFE}"])
    func aCharacterAtAnyPlaceRoundTrips(special: String) throws {
        let strings = SpecialCharacterStrings.strings(with: special)
        let format = JSONFormat()
        let read = try format.readDocument(
            from: format.writeDocument(SpecialCharacterStrings.document(of: strings)), file: "strings.json")
        #expect(SpecialCharacterStrings.strings(in: read) == strings)
    }

    /// A document whose only snapshot holds `@` in `s`, cut at the `@`.
    static let parts = JSONReaderStrictnessTests.document(snapshots: #"{"E":[{"$id":"1","n":1,"s":"@"}]}"#)
        .split(separator: "@", omittingEmptySubsequences: false).map { Array($0.utf8) }

    /// The bytes of a document whose only snapshot holds `text` (written as is) in `s`.
    static func document(holding text: [UInt8]) -> [UInt8] { parts[0] + text + parts[1] }

    static func readError(_ bytes: [UInt8]) -> DocumentReadError? {
        do {
            _ = try JSONFormat().readDocument(from: Data(bytes), file: "doc.json")
            return nil
        } catch {
            return error as? DocumentReadError
        }
    }

    @Test func aStringReadsWithItsEscapesAnywhere() throws {
        for place in 0..<20 {
            let text = String(repeating: "a", count: place) + #"\"\u00e9\n"# + String(repeating: "b", count: 19 - place)
            let document = try JSONFormat().readDocument(from: Data(Self.document(holding: Array(text.utf8))), file: "doc.json")
            let expected = String(repeating: "a", count: place) + "\"é\n" + String(repeating: "b", count: 19 - place)
            #expect(document.orderedSnapshots.first?["s"] == .string(expected), "at \(place)")
        }
    }

    @Test func aRawControlCharacterIsRefusedAnywhereInAString() {
        for place in 0..<20 {
            var text = Array(repeating: UInt8(ascii: "a"), count: 20)
            text[place] = 0x01
            let error = Self.readError(Self.document(holding: text))
            #expect(error?.message.contains("a control character (0x1) must be escaped") == true, "at \(place): \(String(describing: error))")
            #expect(error?.location?.line == 3 && error?.location?.column == 41 + place, "at \(place)")
        }
    }

    @Test func invalidUTF8IsRefusedAnywhereInAString() {
        for place in 0..<20 {
            var text = Array(repeating: UInt8(ascii: "a"), count: 20)
            text[place] = 0xFF
            let error = Self.readError(Self.document(holding: text))
            #expect(error?.message.contains("not valid UTF-8") == true, "at \(place): \(String(describing: error))")
        }
    }

    /// Ill-formed UTF-8 of every kind, with and without an escape in the same string: among
    /// them sequences that decoding would replace by U+FFFD without changing the byte count.
    @Test(arguments: [
        [0xF1, 0x80, 0x80], [0xE1, 0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80],
        [0xEF, 0xBF], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
    func illFormedUTF8IsRefusedWithOrWithoutEscapes(sequence: [UInt8]) {
        for prefix in [Array("ab".utf8), Array(#"a\n"#.utf8)] {
            let error = Self.readError(Self.document(holding: prefix + sequence + Array("A".utf8)))
            #expect(error?.message.contains("not valid UTF-8") == true, "\(prefix) \(sequence): \(String(describing: error))")
        }
    }

    @Test func aReplacementCharacterInTheFileIsWellFormedText() throws {
        for prefix in ["ab", #"a\n"#] {
            let text = Array(prefix.utf8) + [0xEF, 0xBF, 0xBD] + Array("A😀".utf8)
            let document = try JSONFormat().readDocument(from: Data(Self.document(holding: text)), file: "doc.json")
            let expected = (prefix == "ab" ? "ab" : "a\n") + "\u{FFFD}A😀"
            #expect(document.orderedSnapshots.first?["s"] == .string(expected))
        }
    }

    @Test func anUnclosedStringIsRefusedWhateverItsLength() {
        for length in 0..<20 {
            let bytes = Self.parts[0] + Array(repeating: UInt8(ascii: "a"), count: length)
            let error = Self.readError(bytes)
            #expect(error?.message.contains("a string is not closed before the end of the file") == true, "length \(length)")
        }
    }
}
