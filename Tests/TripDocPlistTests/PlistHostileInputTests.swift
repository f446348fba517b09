import Foundation
import Testing
import TripDocCore
import TripDocPlist
import TripDocTestSupport

/// Untrusted property lists: each attack is refused with a clear error, quickly and in bounded memory.
@Suite struct PlistHostileInputTests {
    static let prologue = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    func readError(_ text: String) -> DocumentReadError? { readError(Data(text.utf8)) }

    func readError(_ data: Data) -> DocumentReadError? {
        do {
            _ = try PlistFormat().readDocument(from: data, file: "bad.plist")
            Issue.record("the document was read")
            return nil
        } catch let error as DocumentReadError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func billionLaughsIsRefusedBeforeParsing() throws {
        var entities = #"<!ENTITY lol "lol">"#
        for level in 1...9 {
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [\(entities)]>
            <plist version="1.0"><dict><key>header</key><string>&lol9;</string></dict></plist>
            """
        let error = try #require(readError(text))
        #expect(error.message.contains("internal subset"))
        #expect(error.location?.line == 2)
    }

    @Test func anExternalEntityToALocalFileIsRefused() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
            <plist version="1.0"><dict><key>header</key><string>&secret;</string></dict></plist>
            """
        let error = try #require(readError(text))
        #expect(error.message.contains("internal subset"))
        #expect(!error.description.contains("root:"))
    }

    /// Found by fuzzing review: a comment with an unbalanced quote must not hide the real DOCTYPE.
    @Test func aCommentCannotHideAnInternalSubset() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- <!DOCTYPE " -->
            <!DOCTYPE plist [ <!ENTITY a "aaaaaaaaaa"> ]>
            <plist version="1.0"><dict/></plist>
            """
        let error = try #require(readError(text))
        #expect(error.message.contains("internal subset"), "\(error)")
        #expect(error.location?.line == 3)
    }

    @Test func aCommentMentioningADoctypeIsNotRefused() throws {
        let text = Self.prologue.replacingOccurrences(
            of: "<!DOCTYPE", with: "<!-- an old <!DOCTYPE x [ ] > lived here -->\n<!DOCTYPE")
            + "<plist version=\"1.0\"><dict/></plist>"
        let error = readError(text)
        #expect(error.map { !$0.message.contains("internal subset") } ?? true, "\(String(describing: error))")
    }

    @Test func anUndeclaredEntityIsAnError() throws {
        let error = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict><key>&secret;</key></dict></plist>"))
        #expect(error.message.contains("Entity 'secret' not defined"), "\(error)")
        #expect(error.location?.line == 3)
    }

    @Test func hundredThousandNestedDictsAreRefused() throws {
        let depth = 100_000
        // Under "snapshots" ahead of the header, so the reader has to skip through them.
        let text = Self.prologue + "<plist version=\"1.0\"><dict><key>snapshots</key>"
            + String(repeating: "<dict><key>a</key>", count: depth) + "<true/>" + String(repeating: "</dict>", count: depth)
            + "</dict></plist>"
        let error = try #require(readError(text))
        #expect(error.message.lowercased().contains("depth"), "\(error)")
    }

    /// libxml2's limits without XML_PARSE_HUGE hold however the parser is driven (docs/FORMATS.md
    /// 7.10): 257 nested elements at most, counting <plist> and the innermost value element.
    @Test func theNestingLimitIsLibxml2s() throws {
        func nested(_ elements: Int) -> String {
            // <plist>, the root <dict>, then arrays, the innermost holding <true/>.
            let arrays = elements - 3
            return Self.prologue + "<plist version=\"1.0\"><dict><key>snapshots</key>"
                + String(repeating: "<array>", count: arrays) + "<true/>" + String(repeating: "</array>", count: arrays)
                + "</dict></plist>"
        }
        let deepest = try #require(readError(nested(257)))
        #expect(!deepest.message.contains("Excessive depth"), "\(deepest)")
        let tooDeep = try #require(readError(nested(258)))
        #expect(tooDeep.message == "the XML is not well-formed: Excessive depth in document: 256 use XML_PARSE_HUGE option")
        #expect(tooDeep.location?.line == 3)
    }

    /// One text node may hold 10,000,000 bytes, however the parser is given them.
    @Test func theTextLimitIsLibxml2s() throws {
        func document(text length: Int) -> String {
            Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><dict><key>format</key><string>"
                + String(repeating: "x", count: length) + "</string></dict></dict></plist>"
        }
        let longest = try #require(readError(document(text: 10_000_000)))
        #expect(!longest.message.contains("huge text node"), "\(longest)")
        let tooLong = try #require(readError(document(text: 10_000_001)))
        #expect(tooLong.message == "the XML is not well-formed: xmlSAX2Characters: huge text node")
    }

    /// Text on either side of a comment is two text nodes, each under the limit on its own, as
    /// in libxml2's tree.
    @Test func aCommentEndsATextNodeForTheTextLimit() throws {
        let half = String(repeating: "x", count: 6_000_000)
        let error = try #require(
            readError(
                Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><dict><key>format</key><string>"
                    + half + "<!--c-->" + half + "</string></dict></dict></plist>"))
        #expect(!error.message.contains("huge text node"), "\(error)")
    }

    /// Positions point at the faulty node: stray text where it starts, an end tag at its `<`
    /// even when the next tag follows at once.
    @Test func positionsAreWhereTheNodeStarts() throws {
        let stray = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key>abc<dict/></dict></plist>"))
        #expect(stray.message.contains("unexpected text \"abc\""), "\(stray)")
        #expect(stray.location == SourceLocation(line: 3, column: 45))
        let early = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key></dict><key>x</key></plist>"))
        #expect(early.message.contains("found </dict>"), "\(early)")
        #expect(early.location == SourceLocation(line: 3, column: 45))
    }

    /// A start tag is placed at its `<`, on whatever line, and an empty one too; text the parser
    /// decoded (a character reference) where its node starts (after the previous tag).
    @Test func positionsOfStartTagsAndDecodedText() throws {
        let tag = try #require(
            readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key>\n\t  <integer>1</integer></dict></plist>"))
        #expect(tag.message.contains("found an integer"), "\(tag)")
        #expect(tag.location == SourceLocation(line: 4, column: 4))
        let empty = try #require(
            readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><dict>\n<key>x</key>\n  <true/></dict></dict></plist>"))
        #expect(empty.message.contains("unexpected member 'x'"), "\(empty)")
        #expect(empty.location == SourceLocation(line: 5, column: 3))
        let decoded = try #require(
            readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key>a&#38;b<dict/></dict></plist>"))
        #expect(decoded.message.contains("unexpected text \"a&b\""), "\(decoded)")
        #expect(decoded.location == SourceLocation(line: 3, column: 45))
    }

    /// Whitespace is told from text across chunks: text after more whitespace than one chunk
    /// holds is still text, and is placed where its node starts.
    @Test func textAfterAChunkOfWhitespaceIsText() throws {
        let spaces = String(repeating: " ", count: 300_000)
        let error = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict>" + spaces + "x<key>header</key></dict></plist>"))
        #expect(error.message.contains("unexpected text"), "\(error)")
        #expect(error.location == SourceLocation(line: 3, column: 28))
        let only = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict>" + spaces + "</dict></plist>"))
        #expect(!only.message.contains("unexpected text"), "\(only)")
    }

    /// Text that starts with a reference is placed where its node starts too.
    @Test func textStartingWithAReferenceIsPlacedWhereItStarts() throws {
        let error = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key>&amp;x<dict/></dict></plist>"))
        #expect(error.message.contains("unexpected text \"&x\""), "\(error)")
        #expect(error.location == SourceLocation(line: 3, column: 45))
    }

    @Test func aTruncatedFileIsRefused() throws {
        let error = try #require(readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><dict><key>for"))
        #expect(error.message.contains("not well-formed"), "\(error)")
    }

    @Test func invalidUTF8IsRefused() throws {
        var bytes = Array(
            (Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><dict><key>format</key><string>ab</string></dict></dict></plist>").utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "b"))!] = 0xFF
        let error = try #require(readError(Data(bytes)))
        #expect(error.message.contains("not well-formed"), "\(error)")
    }

    @Test func wrongElementTypesAreNamed() throws {
        let error = try #require(
            readError(Self.prologue + "<plist version=\"1.0\"><dict><key>header</key><array/></dict></plist>"))
        #expect(error.message == "expected a <dict>, found <array>" || error.message.contains("expected an object"), "\(error)")
        #expect(error.keyPath == "header")
    }

    @Test func aRootThatIsNotAPlistIsNamed() throws {
        let error = try #require(readError("<?xml version=\"1.0\"?><html><body/></html>"))
        #expect(error.message.contains("expected a <plist> root element"))
    }
}

@Suite struct PlistLimitTests {
    @Test func onlyUTF8IsRead() throws {
        var utf16 = Data([0xFF, 0xFE])
        utf16.append("<?xml version=\"1.0\"?><plist/>".data(using: .utf16LittleEndian)!)
        for data in [utf16, Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist/>".utf8)] {
            #expect {
                try PlistFormat().readDocument(from: data, file: "x.plist")
            } throws: { error in
                "\(error)".contains("tripdoc reads UTF-8 property lists only")
            }
        }
    }

    /// The declaration is read to its end, however long: padding must not carry `encoding` past
    /// where the check looks (a UTF-7 document could hide an internal subset from it).
    @Test(arguments: [
        "<?xml version=\"1.0\"" + String(repeating: " ", count: 400) + "encoding=\"UTF-7\"?><plist/>",
        "<?xml version='1.0' encoding = 'utf-7' ?><plist/>",
        "\u{FEFF}<?xml version=\"1.0\"\n\tencoding=\"ISO-8859-1\"?><plist/>",
    ])
    func anEncodingIsFoundWhereverTheDeclarationPutsIt(text: String) throws {
        let error = try #require(throws: DocumentReadError.self) {
            try PlistFormat().readDocument(from: Data(text.utf8), file: "x.plist")
        }
        #expect(error.message.hasSuffix("; tripdoc reads UTF-8 property lists only"), "\(error)")
    }

    @Test func aDeclarationWithoutAnEncodingOrWithUTF8IsRead() throws {
        let document = try PlistFormat().writeDocument(EdgeCaseDocuments.document())
        let text = String(decoding: document, as: UTF8.self)
        for declaration in ["<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding='utf8' standalone=\"yes\"?>"] {
            let respelled = text.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", with: declaration)
            #expect(try PlistFormat().readDocument(from: Data(respelled.utf8), file: "x.plist").snapshots.count == 3)
        }
    }

    @Test func aValueTooLongForLibxml2IsRefusedWhenWritingNotWhenReading() throws {
        var document = EdgeCaseDocuments.document()
        document.snapshots[0]["data"] = .data(Data(count: 8_000_000))
        #expect {
            try PlistFormat().writeDocument(document)
        } throws: { error in
            "\(error)".contains("write the document as a bundle")
        }
    }

    @Test func primaryKeysXMLCannotCarryStillWorkAsReferences() throws {
        var document = EdgeCaseDocuments.document()
        let odd = EdgeCaseDocuments.identifier("key\u{1}with control")
        document.snapshots[2] = document.snapshots[2].copy(persistentIdentifier: odd)
        document.snapshots[1]["children"] = .references([EdgeCaseDocuments.identifier("1"), odd])
        let read = try PlistFormat().readDocument(from: PlistFormat().writeDocument(document), file: "x.plist")
        #expect(read.snapshots.contains { $0.persistentIdentifier == odd })
        #expect(read.snapshots.first { $0.persistentIdentifier.primaryKey == "2" }?["children"]
            == .references([EdgeCaseDocuments.identifier("1"), odd]))
    }
}
