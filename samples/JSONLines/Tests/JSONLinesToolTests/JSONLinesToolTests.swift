import Foundation
import Testing

/// `tripdoc-jsonl`, the tool whose main.swift is `TripDocTool.main(commandName:adding:)` with
/// JSON Lines, run as a user runs it: every subcommand reads, writes and lists the added format
/// beside tripdoc's three, with tripdoc's options, output and exit statuses.
@Suite struct JSONLinesToolTests {
    let tool: ToolRunner

    init() throws {
        tool = try ToolRunner()
    }

    /// The first line of a file the tool wrote.
    func firstLine(_ name: String) throws -> String {
        String(decoding: try tool.contents(name).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    @Test func samplesIntoJSONLinesByTheOutputsExtension() throws {
        let sample = try tool.run("sample", "-o", "trips.jsonl", "--trips", "5")
        #expect(sample.status == 0, "\(sample.stderr)")
        #expect(try firstLine("trips.jsonl").hasPrefix(#"{"format":"tripdoc","formatVersion":1,"#))
        let text = String(decoding: try tool.contents("trips.jsonl"), as: UTF8.self)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix(#"{"Trip":"#) }.count == 5, "one line per trip")

        let inspect = try tool.run("inspect", "trips.jsonl", "--json")
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(report["format"] as? String == "jsonl")
    }

    @Test(arguments: ["json", "plist", "tripbundle"])
    func convertsToAndFromEachOfTripDocsFormatsAndDiffsAcrossThem(_ other: String) throws {
        try #require(tool.run("sample", "-o", "trips.jsonl", "--trips", "4", "--history").status == 0)

        let out = try tool.run("convert", "trips.jsonl", "copy.\(other)")
        #expect(out.status == 0, "\(out.stderr)")
        let across = try tool.run("diff", "trips.jsonl", "copy.\(other)")
        #expect(across.status == 0, "a converted copy holds the same models: \(across.stdout)\(across.stderr)")

        // Back, into a file whose name selects no format: --to names it, and the copy is
        // recognised by its first line whatever its name.
        let back = try tool.run("convert", "copy.\(other)", "back.data", "--to", "jsonl")
        #expect(back.status == 0, "\(back.stderr)")
        // A converted copy's header names the store it came from, before `format`.
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(firstLine("back.data").utf8)) as? [String: Any])
        #expect(header["format"] as? String == "tripdoc")
        #expect(header["derivedFrom"] is String, "the copy knows the store it came from")
        #expect(try tool.run("diff", "back.data", "trips.jsonl").status == 0)
        let history = try tool.run("history", "back.data", "--json")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("\"widget\""), "the history came through both conversions")
    }

    @Test func diffReportsWhatDiffersAcrossFormatsWithStatus1() throws {
        try #require(tool.run("sample", "-o", "three.jsonl", "--trips", "3").status == 0)
        try #require(tool.run("sample", "-o", "four.plist", "--trips", "4").status == 0)
        let diff = try tool.run("diff", "three.jsonl", "four.plist", "--json")
        #expect(diff.status == 1, "\(diff.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        #expect(report["identical"] as? Bool == false)
        let a = try #require(report["a"] as? [String: Any])
        #expect(a["file"] as? String == "three.jsonl")
    }

    @Test func showsAndQueriesJSONLines() throws {
        try #require(tool.run("sample", "-o", "trips.jsonl", "--trips", "5").status == 0)
        let show = try tool.run("show", "trips.jsonl", "--entity", "Trip", "--limit", "2")
        #expect(show.status == 0, "\(show.stderr)")
        #expect(!show.stdout.isEmpty)
        let schema = try tool.run("schema", "trips.jsonl")
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("Trip"))
    }

    @Test func refusesADamagedFileNamingTheLineAndWritesNothing() throws {
        try #require(tool.run("sample", "-o", "trips.jsonl", "--trips", "2").status == 0)
        var lines = String(decoding: try tool.contents("trips.jsonl"), as: UTF8.self).split(separator: "\n")
        lines[3] = lines[3].prefix(25)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: tool.folder.appendingPathComponent("cut.jsonl"))

        let convert = try tool.run("convert", "cut.jsonl", "copy.json")
        #expect(convert.status == 2)
        #expect(convert.stderr.hasPrefix("tripdoc-jsonl: error: cut.jsonl: line 4"), "\(convert.stderr)")
        #expect(!tool.exists("copy.json"), "no partial output")
        let inspect = try tool.run("inspect", "cut.jsonl")
        #expect(inspect.status == 2)
        #expect(inspect.stderr.contains("line 4"), "\(inspect.stderr)")
    }

    /// `text` with every run of white space made one space, as help wraps its lines.
    func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func listsJSONLinesInItsHelpAndItsMessages() throws {
        let help = try tool.run("--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: tripdoc-jsonl <subcommand>"), "\(help.stdout)")
        #expect(flattened(help.stdout).contains("zipped bundle (.tripbundle) and jsonl (.jsonl)"), "\(help.stdout)")
        let convertHelp = try tool.run("convert", "--help")
        #expect(flattened(convertHelp.stdout).contains("json, plist, bundle or jsonl"), "\(convertHelp.stdout)")
        let sampleHelp = try tool.run("sample", "--help")
        #expect(flattened(sampleHelp.stdout).contains("(.json, .plist, .tripbundle, .jsonl)"), "\(sampleHelp.stdout)")

        let unknown = try tool.run("sample", "-o", "trips.out")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains(".tripbundle, .jsonl"), "\(unknown.stderr)")
        try Data("neither".utf8).write(to: tool.folder.appendingPathComponent("junk.txt"))
        let junk = try tool.run("inspect", "junk.txt")
        #expect(junk.status == 2)
        #expect(junk.stderr.contains("a JSON Lines document"), "\(junk.stderr)")
    }
}
