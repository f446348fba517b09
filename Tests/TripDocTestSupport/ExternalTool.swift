import Foundation

/// Finds and runs the programs tests compare against (python3, unzip, bsdtar); tests skip,
/// saying so, when one is missing.
public enum ExternalTool {
    /// The path of `name` on `PATH`, or `nil`.
    public static func find(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `path` with `arguments` and returns its exit status.
    public static func run(_ path: String, _ arguments: [String], discardOutput: Bool) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if discardOutput { process.standardOutput = FileHandle.nullDevice }
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
