import Foundation

/// Runs the built `tripdoc` binary the way a user does and captures what it prints.
struct TripDocRunner {
    struct Outcome: Equatable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `tripdoc` executable next to the test bundle.
    static let executable: URL = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("tripdoc")

    /// The committed fixtures.
    static let fixtures: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    /// A fresh folder holding copies of the fixtures; commands run in it. It is removed when
    /// the last copy of the runner goes away.
    var folder: URL { lease.folder }
    /// The program run: `tripdoc`, or another of the package's executables beside it.
    var program: URL = Self.executable
    private let lease: FolderLease

    /// Owns the temporary folder.
    private final class FolderLease {
        let folder: URL
        init(_ folder: URL) { self.folder = folder }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tripdoc-e2e-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.fixtures, to: folder)
        lease = FolderLease(folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    /// Runs `tripdoc arguments…` in the folder, with `input` on standard input.
    @discardableResult
    func run(_ arguments: String..., input: Data = Data()) throws -> Outcome {
        try run(arguments, input: input)
    }

    /// Runs `tripdoc` with `arguments` in the folder, with `input` on standard input and
    /// `environment` added to this process's environment.
    func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.currentDirectoryURL = folder
        // Standard error goes to a file so that neither pipe can fill up and block the child.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stdout = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = stdin
        try process.run()
        // The tool may stop reading before the end (a stream over a limit) and exit: the rest
        // cannot be written, which must neither kill this process (SIGPIPE) nor stop the test.
        signal(SIGPIPE, SIG_IGN)
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// How a run that wrote its standard output somewhere else ended.
    struct Ending: Equatable {
        /// The exit status, or the signal that ended the process.
        var status: Int32
        /// Whether a signal ended the process.
        var byASignal: Bool
        var stderr: String
    }

    /// Runs `tripdoc arguments…` in the folder with standard output going to `output` (such as
    /// `/dev/full`, or a pipe nobody reads).
    func run(_ arguments: [String], standardOutput output: FileHandle) throws -> Ending {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Ending(
            status: process.terminationStatus, byASignal: process.terminationReason == .uncaughtSignal,
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
