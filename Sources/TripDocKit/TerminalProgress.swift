import Foundation
import TripDoc

/// Progress of a long command on standard error, one line rewritten in place: the phase, the
/// entities and snapshots done, the rate and, when the total is known, the time left. Shown
/// only when standard error is a terminal (or `TRIPDOC_PROGRESS=1`; `TRIPDOC_PROGRESS=0`
/// turns it off), so scripts and logs never see it.
public final class TerminalProgress: CodingProgressObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let write: (String) -> Void
    private var phase = ""
    private var total: Int?
    private var snapshots = 0
    private var entities = 0
    private var started = Date()
    private var lastShown = Date.distantPast
    private var showing = false

    /// The progress line for this process's standard error, or `nil` when it should stay silent.
    public static func forStandardError(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> TerminalProgress?
    {
        switch environment["TRIPDOC_PROGRESS"] {
        case "0": return nil
        case "1": break
        default: guard isatty(STDERR_FILENO) == 1 else { return nil }
        }
        return TerminalProgress { FileHandle.standardError.write(Data($0.utf8)) }
    }

    /// A progress line written through `write`.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Starts a phase ("reading trips.json"); `total` snapshots when known.
    public func begin(_ phase: String, total: Int? = nil) {
        lock.withLock {
            self.phase = phase
            self.total = total
            snapshots = 0
            entities = 0
            started = Date()
            show(force: true)
        }
    }

    public func advance(snapshots count: Int, finishedEntity: Bool) {
        lock.withLock {
            snapshots += count
            if finishedEntity { entities += 1 }
            show(force: false)
        }
    }

    /// Clears the line.
    public func finish() {
        lock.withLock {
            if showing { write("\r\u{1B}[K") }
            showing = false
        }
    }

    /// The line as shown: `tripdoc: writing out.plist: 2 entities, 300000 of 690274 snapshots
    /// (43%, 100000/s, 4 s left)`.
    func line(now: Date) -> String {
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Int(Double(snapshots) / elapsed) : 0
        var text = "tripdoc: \(phase): \(entities) entit\(entities == 1 ? "y" : "ies"), \(snapshots)"
        if let total, total > 0 {
            let percent = min(100, snapshots * 100 / total)
            text += " of \(total) snapshots (\(percent)%, \(rate)/s"
            if rate > 0 { text += ", \(max(0, (total - snapshots) / rate)) s left" }
            text += ")"
        } else {
            text += " snapshots (\(rate)/s)"
        }
        return text
    }

    private func show(force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(lastShown) >= 0.2 else { return }
        lastShown = now
        showing = true
        write("\r\u{1B}[K" + line(now: now))
    }
}
