import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// Outputs are made complete first and put in place after, so that a command's outputs go in
/// place together: what `convert` does with a document and its remap table.
@Suite struct PreparedOutputTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("prepared") }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() }

    @Test func nothingIsInPlaceBeforeTheCommit() throws {
        let document = try OutputDestination(path: scratch.file("out.json").path, force: false).prepare(Data("{}".utf8))
        #expect(try names().allSatisfy { $0.hasPrefix(".out.json.tripdoc-tmp-") })
        try document.commit()
        #expect(try names() == ["out.json"])
    }

    @Test func aSecondOutputThatCannotGoInPlaceTakesTheFirstBack() throws {
        let document = try OutputDestination(path: scratch.file("out.json").path, force: false).prepare(Data("{}".utf8))
        let table = try OutputDestination(path: scratch.file("map.json").path, force: false).prepare(Data("[]".utf8))
        // Another program makes the table's file between the check and the commit.
        try Data("theirs".utf8).write(to: scratch.file("map.json"))
        try document.commit()
        #expect(throws: TripDocError.outputExists(path: scratch.file("map.json").path)) { try table.commit() }
        document.withdraw()
        #expect(try names() == ["map.json"])
        #expect(try Data(contentsOf: scratch.file("map.json")) == Data("theirs".utf8))
    }

    @Test func aReplacedFileIsNotTakenBack() throws {
        try Data("old".utf8).write(to: scratch.file("out.json"))
        let document = try OutputDestination(path: scratch.file("out.json").path, force: true).prepare(Data("{}".utf8))
        try document.commit()
        document.withdraw()
        #expect(try Data(contentsOf: scratch.file("out.json")) == Data("{}".utf8))
    }
}
