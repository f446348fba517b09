import Foundation
import Testing

/// Adding a format needs no edit inside tripdoc's own modules: this package reaches tripdoc only
/// through the library products tripdoc's Package.swift declares, and only through their public
/// API (no `@testable` or `@_spi` import, which a debug build of a dependency would allow), so
/// everything it does, any package outside tripdoc can do.
@Suite struct PackageBoundaryTests {
    /// This package's folder, samples/JSONLines.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// tripdoc's folder, the one this package depends on by path.
    static let tripdoc = package.deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The captures of `pattern`'s first group in `text`.
    static func captures(of pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func dependsOnTripDocByPathAndUsesOnlyItsLibraryProducts() throws {
        let manifest = try Self.text(Self.package.appendingPathComponent("Package.swift"))
        #expect(try Self.captures(of: #"\.package\((.*)\)"#, in: manifest) == [#"name: "tripdoc", path: "../..""#])
        let used = Set(try Self.captures(of: #"\.product\(name: "([^"]+)", package: "tripdoc"\)"#, in: manifest))
        let libraries = Set(
            try Self.captures(
                of: #"\.library\(name: "([^"]+)""#, in: try Self.text(Self.tripdoc.appendingPathComponent("Package.swift"))))
        #expect(used == ["TripDoc", "TripDocCommandLine", "TripDocKit", "TripDocTestSupport"])
        #expect(used.isSubset(of: libraries), "products tripdoc does not declare: \(used.subtracting(libraries))")
        // Every target's sources are in this package (no path into tripdoc's folders).
        #expect(try Self.captures(of: #"path: "([^"]+)""#, in: manifest) == ["../.."])
    }

    @Test func importsTripDocsModulesOnlyThroughTheirPublicAPI() throws {
        let walker = try #require(FileManager.default.enumerator(at: Self.package, includingPropertiesForKeys: nil))
        let sources = walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") && $0.lastPathComponent != "Package.swift" }
        #expect(sources.count >= 8)
        for source in sources {
            let lines = try Self.text(source).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for line in lines where line.hasPrefix("@") && line.contains(" import ") {
                Issue.record("\(source.lastPathComponent): \(line)")
            }
        }
    }
}
