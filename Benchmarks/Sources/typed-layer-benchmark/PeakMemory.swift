import Foundation

/// The process's peak resident memory so far.
enum PeakMemory {
    /// VmHWM from /proc/self/status (the resident set's high-water mark), or getrusage's
    /// ru_maxrss where /proc is missing, in megabytes (10^6 bytes).
    static func megabytes() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        {
            return kilobytes * 1024 / 1e6
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) * 1024 / 1e6
    }
}
