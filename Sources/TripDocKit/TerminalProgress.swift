import Foundation
import TripDoc

/// Progress of a long command on standard error, one line rewritten in place: the phase, the
/// entities and snapshots done, the rate and, when the total is known, the time left; when the
/// size of the input being read is known, the bytes read of it, the rate and the time left. Shown
/// only when standard error is a terminal (or `TRIPDOC_PROGRESS=1`; `TRIPDOC_PROGRESS=0`
/// turns it off), so scripts and logs never see it.
public final class TerminalProgress: CodingProgressObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let write: (String) -> Void
    private var phase = ""
    private var total: Int?
    private var inputBytes: Int?
    private var bytesRead = 0
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

    /// Starts a phase ("reading trips.json"); `total` snapshots when known, and `inputBytes`,
    /// the size of the input it reads, when known.
    public func begin(_ phase: String, total: Int? = nil, inputBytes: Int? = nil) {
        lock.withLock {
            self.phase = phase
            self.total = total
            self.inputBytes = inputBytes
            bytesRead = 0
            snapshots = 0
            entities = 0
            started = Date()
            show(force: true)
        }
    }

    /// Starts another phase over the same input (`diff`'s second reading of its documents):
    /// the totals stay, what was done counts again from nothing.
    public func beginAgain(_ phase: String) {
        lock.withLock {
            self.phase = phase
            bytesRead = 0
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

    public func advance(inputBytes bytes: Int) {
        lock.withLock {
            bytesRead += bytes
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
    /// (43%, 100000/s, 4 s left)`, or while an input of known size is read, `tripdoc: reading
    /// trips.json: 40.0 of 106.1 MB (37%, 52.3 MB/s, 1 s left), 2 entities, 260000 snapshots`.
    func line(now: Date) -> String {
        let elapsed = now.timeIntervalSince(started)
        if let inputBytes, inputBytes > 0 {
            let megabytes = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_000_000) }
            let done = min(bytesRead, inputBytes)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            var text = "tripdoc: \(phase): \(megabytes(done)) of \(megabytes(inputBytes)) MB (\(done * 100 / inputBytes)%"
            if rate > 0 {
                text += ", \(megabytes(Int(rate))) MB/s, \(Int(Double(inputBytes - done) / rate)) s left"
            }
            return text + "), \(entities) entit\(entities == 1 ? "y" : "ies"), \(snapshots) snapshots"
        }
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

extension TerminalProgress {
    /// Runs `body`, which reads the documents at `paths`, with a progress line on standard
    /// error when one is shown (see ``forStandardError(environment:)``): the bytes read of the
    /// files' total size, the rate and the time left, then the entities and snapshots decoded.
    /// A standard input, a stream or a bundle (whose entries are read as they inflate) shows the
    /// entities and snapshots only.
    public static func reading<T>(_ paths: [String], _ body: () throws -> T) rethrows -> T {
        guard let progress = forStandardError() else { return try body() }
        defer { progress.finish() }
        let sizes = paths.map(Self.readableSize(of:))
        let total = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + $1! }
        progress.begin("reading " + paths.map { $0 == "-" ? "standard input" : $0 }.joined(separator: " and "), inputBytes: total)
        return try CodingProgress.$observer.withValue(progress) { try body() }
    }

    /// The size of a regular file whose bytes are read in order (JSON and property lists), or
    /// `nil` (standard input, a stream, a bundle, a file that cannot be examined).
    private static func readableSize(of path: String) -> Int? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 2)) ?? Data()
        return start.starts(with: Array("PK".utf8)) ? nil : size
    }
}
