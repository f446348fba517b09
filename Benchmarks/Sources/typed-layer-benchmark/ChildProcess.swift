import Foundation

/// Runs a stage in a new process of this program, so that each measurement starts from nothing:
/// no warm caches, and a peak memory that is the stage's own.
enum ChildProcess {
    /// This program's executable.
    static let executable: URL = {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: resolved)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }()

    /// Runs `stage` on `kind` in a child process and returns what it reported. The child's
    /// standard error passes through.
    static func run(_ stage: Stage, on kind: StoreKind, path: String, plan: WorkPlan) throws -> StageResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = Options.childArguments(stage: stage, kind: kind, path: path, plan: plan)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let what = "\(stage.rawValue) on \(kind.rawValue) at \(plan.trips) trips"
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how =
                process.terminationReason == .exit
                ? "exited with \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
            throw BenchmarkFailure(description: "the child process for \(what) \(how)")
        }
        do {
            return try JSONDecoder().decode(StageResult.self, from: data)
        } catch {
            throw BenchmarkFailure(description: "the child process for \(what) reported no result: \(error)")
        }
    }
}
