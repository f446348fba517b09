import Foundation
import Testing
import TripDocTestSupport

/// `scripts/check-doc-comments`, which `scripts/test` runs: a public declaration without a `///`
/// comment fails it, unless it implements a requirement of a protocol its type's heading names.
@Suite struct DocCommentCheckTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("doc-comment-check")
    }

    /// Runs the script (on `folder`, or on the package's Sources/) and returns its status and
    /// standard output.
    func check(_ folder: String? = nil) throws -> (status: Int32, output: String)? {
        guard let python = ExternalTool.find("python3") else {
            print("skipped: python3 is not installed")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.root.appendingPathComponent("scripts/check-doc-comments").path] + (folder.map { [$0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func everyPublicDeclarationOfThePackageIsDocumented() throws {
        guard let outcome = try check() else { return }
        #expect(outcome.status == 0, "\(outcome.output)")
    }

    @Test func findsUndocumentedDeclarationsButNotRequirementsTheHeadingNames() throws {
        let source = """
            /// A protocol.
            public protocol Runner<Input>: Sendable {
                /// Runs.
                func run()
            }

            /// Documented.
            public struct Documented: Runner, CustomStringConvertible {
                /// Its name.
                public var name: String
                public var count: Int
                public func run() {}
                public var description: String { name }
            }

            public struct Undocumented<T: Equatable> {
                public var description: String { "" }
                let template = \"\"\"
                    public var generated: Int
                    \"\"\"
                @discardableResult
                public func run() -> Int { 0 }
            }

            extension Runner {
                public func run() {}
                public func walk() {}
            }
            """
        try Data(source.utf8).write(to: scratch.file("Sample.swift"))
        guard let outcome = try check(scratch.path) else { return }
        #expect(outcome.status == 1)
        let lines = outcome.output.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 2).dropFirst().first.map(String.init) }
        #expect(
            lines == ["11", "16", "17", "22", "27"],
            "count (no requirement), the undocumented type and its members (no conformance), walk (no requirement)")
    }
}
