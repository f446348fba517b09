import Foundation
import Testing

/// The Swift samples of the DocC articles are quoted from code that is compiled and tested: each
/// ```swift block of every article under Sources/*/*.docc must appear, line for line (indentation
/// aside), in one file under Tests/ or samples/ (the JSON Lines format's package). A sample that
/// drifts from the code fails here.
@Suite struct DocumentationSamplesTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file under `folder` whose name ends with `suffix`, hidden folders (a package's
    /// `.build`) left out.
    static func files(under folder: String, endingWith suffix: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard
            let walker = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.path.hasSuffix(suffix) }.sorted { $0.path < $1.path }
    }

    /// A text's lines without their indentation or trailing blanks, empty lines left out.
    static func trimmedLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The ```swift blocks of a Markdown text.
    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `needle` appears as a run of consecutive lines in `haystack`.
    static func contains(_ haystack: [String], run needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    static var articles: [URL] {
        files(under: "Sources", endingWith: ".md").filter { $0.path.contains(".docc/") }
    }

    @Test func theArticlesHaveSwiftSamples() {
        #expect(Self.articles.count >= 3)
        #expect(Self.articles.flatMap { Self.swiftBlocks(in: (try? String(contentsOf: $0, encoding: .utf8)) ?? "") }.count >= 10)
    }

    @Test func everySwiftSampleIsQuotedFromTestedCode() throws {
        let files = Self.files(under: "Tests", endingWith: ".swift") + Self.files(under: "samples", endingWith: ".swift")
        #expect(files.contains { $0.path.hasSuffix("samples/JSONLines/Sources/TripDocJSONLines/JSONLinesFormat.swift") })
        let sources = try files.map {
            ($0.lastPathComponent, Self.trimmedLines(try String(contentsOf: $0, encoding: .utf8)))
        }
        for article in Self.articles {
            for block in Self.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)) {
                let lines = Self.trimmedLines(block)
                #expect(
                    sources.contains { Self.contains($0.1, run: lines) },
                    "\(article.lastPathComponent): this sample is not in any file under Tests/ or samples/:\n\(block)")
            }
        }
    }

    @Test func findsARunOfLinesOnlyWhenItIsThere() {
        #expect(Self.contains(["a", "b", "c"], run: ["b", "c"]))
        #expect(!Self.contains(["a", "b", "c"], run: ["a", "c"]))
        #expect(Self.swiftBlocks(in: "x\n```swift\n  let a = 1\n```\n```\nno\n```") == ["  let a = 1"])
    }
}
