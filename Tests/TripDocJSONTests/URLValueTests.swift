import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// A `URL` value's text is a non-empty URI reference as RFC 3986 defines it (FORMATS 3.9),
/// decided by that grammar (`URLCoding`), not by Foundation's parser, which takes more (`":a"`,
/// a zone identifier); the writer refuses what the reader refuses.
@Suite struct URLValueTests {
    /// The edge-case document with `text` as its first snapshot's URL, as JSON text.
    func document(withURL text: String) throws -> String {
        let written = String(decoding: try JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        #expect(written.contains(#""url":"file:///""#))
        let escaped = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        return written.replacingOccurrences(of: #""url":"file:///""#, with: #""url":"# + escaped)
    }

    @Test(arguments: [
        "https://example.com/a%20b?q=1&r=%C3%A9#frag", "file:///", "mailto:a@b.c", "urn:uuid:6F9619FF-8B86-D011-B42D-00C04FC964FF",
        "a:", "HTTP://Example.COM:", "http://", "http://user:pass@host:8080/p/a/t/h;x=1?q#f", "http://x:/",
        "http://[::1]/", "http://[::]:80", "http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7::]/", "http://[::ffff:192.0.2.1]/",
        "http://[v1.fe80::a+en1]/", "http://192.0.2.1/", "http://999.1.1.1/", "relative/path", "./a:b", "/a:b", "//host/path",
        "?q=1", "#frag", "#", "?", "a/b?c/d?e#f/g?h", "~user", "!$&'()*+,;=", "a%2F",
    ])
    func aURIReferenceIsRead(text: String) throws {
        #expect(URLCoding.isValid(text))
        let read = try JSONFormat().readDocument(from: Data(try document(withURL: text).utf8), file: "url.json")
        #expect(read.orderedSnapshots[0]["url"] == .url(URL(string: text)!))
        guard case .url(let url) = read.orderedSnapshots[0]["url"] else { return }
        #expect(url.absoluteString == text)
    }

    /// Foundation's `URL(string:)` takes the first three as written; RFC 3986 does not.
    @Test(arguments: [
        ":a", "http://[fe80::1%25en0]/", "1a:b", "", "a b", "%", "http://x/%zz", "%4", "https://example.com/é", "a\\b", "a|b",
        "{a}", "a^b", "a`b", "a\"b", "<a>", "http://[1::2::3]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[::1", "http://[12345::]/",
        "http://[::256.0.0.1]/", "http://[::01.2.3.4]/", "http://[v.x]/", "http://[vG.x]/", "http://x:8a/", "http://a@b@c/",
        "http://h]/", "a#b#c", "-a:b", "a_b:c",
    ])
    func anythingElseIsRefused(text: String) throws {
        #expect(!URLCoding.isValid(text))
        do {
            _ = try JSONFormat().readDocument(from: Data(try document(withURL: text).utf8), file: "url.json")
            Issue.record("\(text.debugDescription) was read")
        } catch let error as DocumentReadError {
            #expect(error.message.contains("expected a URL as RFC 3986 defines a URI reference"), "\(error)")
            #expect(error.keyPath?.hasSuffix(".url") == true, "\(error)")
        }
    }

    /// Whatever text the grammar takes, Foundation parses as written, so the reader makes every
    /// value the rule allows: 200,000 strings of URL characters and stray ones.
    @Test func foundationParsesEveryTextTheGrammarTakesAsWritten() {
        let pieces =
            "aZ09-._~!$&'()*+,;=:@/?#[]%".map { String($0) }
            + ["%2F", "%zz", " ", "\\", "|", "é", "//", "::", "http:", "1.2.3.4", "fe80::1", "v1.x", "[::1]", "%41"]
        var random = SplitMix(seed: 10)
        var taken = 0
        for _ in 0..<200_000 {
            let text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            guard URLCoding.isValid(text) else { continue }
            taken += 1
            #expect(URL(string: text)?.absoluteString == text, "\(text.debugDescription)")
        }
        #expect(taken > 10_000)
    }

    @Test func aURLTheReaderRefusesIsRefusedWhenSaved() throws {
        let scratch = try ScratchFolder("urls")
        let path = scratch.file("store.json").path
        let schema = Schema([Schema.Entity(name: "Link", attributes: [.init("url", .url)])])
        let store = try ArchiveStore(path: path, format: JSONFormat(), schema: schema)
        let colon = try #require(URL(string: ":a"))
        let error = #expect(throws: SaveChangesError.self) {
            try store.save(
                DataStoreSaveChangesRequest(inserted: [
                    DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Link"), values: ["url": .url(colon)])
                ]))
        }
        #expect(
            "\(error!)".hasSuffix(
                "url expects URL, found a URL that is not an RFC 3986 URI reference (:a), which documents cannot hold (FORMATS 3.9)"))
        #expect(try ArchiveStore(path: path, format: JSONFormat(), schema: schema).fetchSnapshots() == [])
        // Written directly, the document is refused too.
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        document.snapshots = [
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "S", entityName: "Link", primaryKey: "1"),
                values: ["url": .url(colon)])
        ]
        let writeError = #expect(throws: DocumentWriteError.self) { try JSONFormat().writeDocument(document) }
        #expect("\(writeError!)".contains("not an RFC 3986 URI reference (:a)"), "\(writeError!)")
        #expect(!SnapshotValue.url(colon).fits(.url))
        #expect(SnapshotValue.url(URL(string: "https://example.com")!).fits(.url))
    }
}
