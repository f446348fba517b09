import Foundation
import Testing
import TripDocCore
import TripDocPlist
import TripDocTestSupport

/// A property list's elements have no XML attributes but the `version` of `<plist>`
/// (docs/FORMATS.md 7.6). Any other is refused where it stands, before libxml2 reads its tag:
/// libxml2 compares each attribute of a tag with every one before it, so 400,000 of them took
/// it over 40 s.
@Suite struct PlistAttributeTests {
    let format = PlistFormat()

    /// A document tripdoc wrote, as text.
    static func written() throws -> String {
        String(decoding: try PlistFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
    }

    func readError(_ text: String) -> DocumentReadError? {
        do {
            _ = try format.readDocument(from: Data(text.utf8), file: "attributes.plist")
            Issue.record("the document was read")
            return nil
        } catch let error as DocumentReadError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// The line and column (in bytes) of the first `marker` in `text`, from `start`.
    static func place(of marker: String, in text: String, from start: String.Index? = nil) throws -> (line: Int, column: Int) {
        let range = try #require(text.range(of: marker, range: (start ?? text.startIndex)..<text.endIndex))
        let before = text[..<range.lowerBound].utf8
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { before.index(after: $0) } ?? before.startIndex
        return (line, before.distance(from: lineStart, to: before.endIndex) + 1)
    }

    @Test func whatTripdocWritesHasOnlyTheVersionOfPlistAndReads() throws {
        let text = try Self.written()
        #expect(text.contains("<plist version=\"1.0\">"))
        let read = try format.readDocument(from: Data(text.utf8), file: "written.plist")
        #expect(read == EdgeCaseDocuments.document())
        // Without the version too.
        let bare = text.replacingOccurrences(of: "<plist version=\"1.0\">", with: "<plist>")
        #expect(try format.readDocument(from: Data(bare.utf8), file: "bare.plist") == read)
    }

    @Test(arguments: [
        ("<dict>", "<dict id=\"x\">", "id", "dict"),
        ("<key>", "<key\tlang='en'>", "lang", "key"),
        ("<string>", "<string xml:space=\"preserve\">", "xml:space", "string"),
        ("<array>", "<array\n  n=\"1\">", "n", "array"),
        ("<plist version=\"1.0\">", "<plist version=\"1.0\" xmlns=\"urn:x\">", "xmlns", "plist"),
        ("<plist version=\"1.0\">", "<plist encoding=\"UTF-8\" version=\"1.0\">", "encoding", "plist"),
        ("<plist version=\"1.0\">", "<plist version=\"1.0\" version=\"1.0\">", "version", "plist"),
    ])
    func anyOtherAttributeIsRefusedWhereItStands(original: String, replacement: String, attribute: String, element: String)
        throws
    {
        let text = try Self.written()
        let range = try #require(text.range(of: original))
        let changed = text.replacingCharacters(in: range, with: replacement)
        let error = try #require(readError(changed))
        #expect(
            error.message
                == "unexpected attribute '\(attribute)' on <\(element)>: the elements of a property list have no attributes, "
                + "except version on <plist>")
        // At the attribute (for a repeated version, the second).
        var from = range.lowerBound
        if attribute == "version" { from = try #require(changed.range(of: "version", range: from..<changed.endIndex)).upperBound }
        let place = try Self.place(of: attribute, in: changed, from: from)
        #expect(error.location?.line == place.line)
        #expect(error.location?.column == place.column)
    }

    /// `<`, `>` and attribute-like text where XML reads no tag — in comments, CDATA sections,
    /// processing instructions, the document type's literals and the version's value — are not
    /// attributes.
    @Test func markupThatIsNotATagIsNotChecked() throws {
        let text = try Self.written()
            .replacingOccurrences(
                of: "<plist version=\"1.0\">",
                with: "<!-- <dict id=\"x\"> --><?tool <key a='b'> ?><plist version=\"1>0 a='b'\">")
        let read = try format.readDocument(from: Data(text.utf8), file: "markup.plist")
        #expect(read == EdgeCaseDocuments.document())
        let withCDATA = try Self.written().replacingOccurrences(
            of: "<key>header</key>", with: "<key><![CDATA[head]]><![CDATA[er]]><!-- <x y=\"z\"> --></key>")
        #expect(try format.readDocument(from: Data(withCDATA.utf8), file: "cdata.plist") == read)
    }

    /// Past the first chunk libxml2 is given, the nodes before the tag are still read first
    /// (an error before it is the one reported), and the attribute is placed exactly.
    @Test func anAttributeFarIntoTheDocumentIsPlaced() throws {
        let text = try Self.written()
        let padding = String(repeating: "<!-- padding -->\n", count: 40_000)  // 680 KB: several chunks
        let range = try #require(text.range(of: "<key>header</key>"))
        let changed = text.replacingCharacters(in: range, with: padding + "<key a=\"1\">header</key>")
        let error = try #require(readError(changed))
        #expect(error.message.hasPrefix("unexpected attribute 'a' on <key>"))
        let place = try Self.place(of: " a=\"1\"", in: changed)
        #expect(error.location?.line == place.line)
        #expect(error.location?.column == place.column + 1)
        // A structural error before it comes first.
        let earlier = changed.replacingOccurrences(of: "<dict>", with: "<dikt>")
        let first = try #require(readError(earlier))
        #expect(!first.message.contains("unexpected attribute"))
    }

    /// 400,000 attributes on one tag: refused at the first, without reading the rest (libxml2
    /// spent over 40 s on such a tag, comparing each attribute with the ones before it).
    @Test func aTagWithHundredsOfThousandsOfAttributesIsRefusedAtTheFirst() throws {
        let text = try Self.written()
        var attributes = ""
        attributes.reserveCapacity(400_000 * 12)
        for index in 0..<400_000 { attributes += " a\(index)=\"\"" }
        let range = try #require(text.range(of: "<dict>"))
        let changed = text.replacingCharacters(in: range, with: "<dict" + attributes + ">")
        let error = try #require(readError(changed))
        #expect(error.message.hasPrefix("unexpected attribute 'a0' on <dict>"))
        let place = try Self.place(of: " a0=", in: changed)
        #expect(error.location?.line == place.line)
        #expect(error.location?.column == place.column + 1)
    }
}
