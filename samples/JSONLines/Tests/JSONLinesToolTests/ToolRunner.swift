import Foundation

/// Runs the built `tripdoc-jsonl` the way a user does, in a folder of its own, and captures what
/// it prints.
struct ToolRunner {
    /// How a run ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tripdoc-jsonl` executable, beside the test bundle (`.build/debug/`).
    static let executable: URL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
        .deletingLastPathComponent().appendingPathComponent("tripdoc-jsonl")

    /// The folder the commands run in, removed when the runner goes away.
    let folder: URL
    private let lease: FolderLease

    /// Owns the folder.
    private final class FolderLease {
        let folder: URL
        init(_ folder: URL) { self.folder = folder }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tripdoc-jsonl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        lease = FolderLease(folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Runs `tripdoc-jsonl arguments…` in the folder.
    @discardableResult
    func run(_ arguments: String...) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["TRIPDOC_PROGRESS": "0"]) { _, new in new }
        // Standard error goes to a file so that neither pipe can fill up and block the child.
        let errorFile = folder.appendingPathComponent(".stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
