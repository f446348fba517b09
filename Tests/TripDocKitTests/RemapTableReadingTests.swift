import Foundation
import Testing
import TripDoc
@testable import TripDocKit
import TripDocTestSupport

/// A remap table is read by the documents' JSON scanner, straight into its dictionaries, when it
/// has the shape `convert --remap-table` writes; any other text gives what `JSONDecoder` gives
/// (the same table, or the same error).
@Suite struct RemapTableReadingTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("remap-table") }

    func file(_ text: String, _ name: String) throws -> String {
        let path = scratch.file(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func decoded(_ path: String) -> RemapTable? {
        try? JSONDecoder().decode(RemapTable.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func whatConvertWritesIsScannedIntoTheSameTable() throws {
        let table = RemapTable(
            fromStore: "A", toStore: "B",
            identifiers: [
                "Trip": Dictionary(uniqueKeysWithValues: (1...2_000).map { (String($0), "k\($0 * 3)") }),
                "Ünïcode \"quoted\"\\": ["a/b": "\u{1F5FC}", "line\nfeed": "tab\there", "e\u{301}": "é"],
                "Empty": [:],
            ],
            tokens: ["A:1": "B:1", "A:2": "B:2"])
        let path = scratch.file("table.json").path
        try table.jsonData().write(to: URL(fileURLWithPath: path))
        #expect(RemapTable.scanned(try Data(contentsOf: URL(fileURLWithPath: path))) != nil)
        #expect(try RemapTable.read(from: path) == table)
        var withoutTokens = table
        withoutTokens.tokens = nil
        let other = scratch.file("without-tokens.json").path
        try withoutTokens.jsonData().write(to: URL(fileURLWithPath: other))
        #expect(try RemapTable.read(from: other) == withoutTokens)
    }

    @Test(arguments: [
        #"{"fromStore": "A", "toStore": "B", "identifiers": {"Trip": {"1": "2"}}, "tokens": null}"#,
        #"{"identifiers": {}, "extra": [1, {"x": null}], "toStore": "B", "fromStore": "A"}"#,
        #"{"fromStore": "A", "toStore": "B", "identifiers": {"Trip": {"1": "2", "1": "3"}}}"#,
        #"{"fromStore": "A", "fromStore": "C", "toStore": "B", "identifiers": {}}"#,
        #"{"fromStore": "A", "toStore": "B", "identifiers": {"Trip": {"1": 2}}}"#,
        #"{"fromStore": "A", "toStore": "B"}"#,
        #"{"fromStore": "A", "toStore": "B", "identifiers": {"Trip": {"1": "2"}}, "tokens": 3}"#,
        #"{"fromStore": "A", "toStore": "B", "identifiers": {"Trip": {"1": "2"}}"#,
        #"[1, 2]"#,
        "",
    ])
    func anyOtherTextGivesWhatTheDecoderGives(text: String) throws {
        let path = try file(text, "other.json")
        if let table = decoded(path) {
            #expect(try RemapTable.read(from: path) == table)
        } else {
            let thrown = #expect(throws: TripDocError.self) { try RemapTable.read(from: path) }
            #expect("\(thrown!)".contains("is not a remap table written by tripdoc convert --remap-table"))
        }
    }
}
