import Foundation
import Testing

/// Names in documents are in Unicode Normalization Form C, byte for byte, wherever they appear
/// (FORMATS 1.2): a name spelled another way is refused with a message that shows both
/// spellings, by every command, and nothing is written — never a conversion that drops the
/// snapshots of an entity that one reference spelled differently.
@Suite struct UnicodeNameTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// `story.json` with the entity `Trip` renamed `Café` and its attribute `startDate` renamed
    /// `dätum`, every name in NFC: a valid document.
    func composedStory() throws -> [UInt8] {
        var bytes = Array(try tripdoc.contents("story.json"))
        bytes = Self.replacing(Array("\"Trip\"".utf8), with: Array("\"Caf\u{E9}\"".utf8), in: bytes)
        bytes = Self.replacing(Array("\"startDate\"".utf8), with: Array("\"d\u{E4}tum\"".utf8), in: bytes)
        return bytes
    }

    /// `bytes` with every `pattern` replaced, or only the one at `occurrence` (from 0; -1 for
    /// the last). Bytes, not strings: Swift would find `é` in `e\u{301}`.
    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8], occurrence: Int? = nil) -> [UInt8] {
        var starts: [Int] = []
        var index = 0
        while index + pattern.count <= bytes.count {
            if bytes[index..<index + pattern.count].elementsEqual(pattern) {
                starts.append(index)
                index += pattern.count
            } else {
                index += 1
            }
        }
        let chosen: [Int]
        if let occurrence { chosen = [occurrence < 0 ? starts.last! : starts[occurrence]] } else { chosen = starts }
        var result = bytes
        for start in chosen.reversed() { result.replaceSubrange(start..<start + pattern.count, with: replacement) }
        return result
    }

    @Test func theComposedDocumentIsValid() throws {
        try Data(composedStory()).write(to: tripdoc.folder.appendingPathComponent("composed.json"))
        #expect(try tripdoc.run("convert", "composed.json", "out.json").status == 0)
        #expect(try tripdoc.run("diff", "composed.json", "out.json").status == 0)
    }

    /// Each place a name is written, with the one occurrence respelled decomposed
    /// (`Cafe\u{301}`, `da\u{308}tum`).
    static let places: [(place: String, pattern: String, decomposed: String, occurrence: Int)] = [
        ("a relationship's destination", "\"destination\":\"Caf\u{E9}\"", "\"destination\":\"Cafe\u{301}\"", 0),
        ("a key of nextPrimaryKeys", "\"Caf\u{E9}\": ", "\"Cafe\u{301}\": ", 0),
        ("a member of snapshots", "\"Caf\u{E9}\": ", "\"Cafe\u{301}\": ", -1),
        ("a history change's entity", "\"entity\":\"Caf\u{E9}\"", "\"entity\":\"Cafe\u{301}\"", 0),
        ("a uniqueness constraint", "[[\"name\",\"d\u{E4}tum\"", "[[\"name\",\"da\u{308}tum\"", 0),
        ("an index", "[\"d\u{E4}tum\"]", "[\"da\u{308}tum\"]", 0),
        ("a tombstone's member", "\"d\u{E4}tum\":\"", "\"da\u{308}tum\":\"", 0),
        ("a snapshot's member", "\"d\u{E4}tum\":\"", "\"da\u{308}tum\":\"", -1),
    ]

    @Test(arguments: places.indices)
    func aNameInAnotherNormalizationFormIsRefusedByEveryCommand(place: Int) throws {
        let entry = Self.places[place]
        let bytes = Self.replacing(
            Array(entry.pattern.utf8), with: Array(entry.decomposed.utf8), in: try composedStory(),
            occurrence: entry.occurrence)
        try Data(bytes).write(to: tripdoc.folder.appendingPathComponent("decomposed.json"))
        for arguments in [
            ["convert", "decomposed.json", "out.json"], ["convert", "decomposed.json", "out.plist"],
            ["convert", "decomposed.json", "-", "--to", "json"], ["show", "decomposed.json"], ["inspect", "decomposed.json"],
            ["history", "decomposed.json"],
        ] {
            let outcome = try tripdoc.run(arguments)
            #expect(outcome.status == 2, "\(entry.place): \(arguments)")
            #expect(outcome.stdout == "", "\(entry.place): \(arguments)")
            #expect(outcome.stderr.contains("is not in Unicode normalization form C (NFC)"), "\(entry.place): \(outcome.stderr)")
        }
        #expect(!tripdoc.exists("out.json") && !tripdoc.exists("out.plist"))
    }

    @Test func theMessageShowsBothSpellings() throws {
        let bytes = Self.replacing(
            Array("\"destination\":\"Caf\u{E9}\"".utf8), with: Array("\"destination\":\"Cafe\u{301}\"".utf8),
            in: try composedStory(), occurrence: 0)
        try Data(bytes).write(to: tripdoc.folder.appendingPathComponent("decomposed.json"))
        let outcome = try tripdoc.run("inspect", "decomposed.json")
        #expect(
            outcome.stderr.contains(
                "at schema.entities[0].relationships[0].destination: the name \"Cafe\\u{301}\" is not in Unicode "
                    + "normalization form C (NFC); names are compared byte for byte, so write it as \"Caf\\u{E9}\""))
    }
}
