import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and standard error, written so that a failure is reported rather than a
/// trap (`FileHandle.write` stops the process on an error) or silence (`print` drops errors):
/// a full disk, `> /dev/full`, or a reader that went away. The tool writes standard output
/// only through here, never with `print`.
///
/// The tool ignores `SIGPIPE` (``ignoreBrokenPipeSignal()``), so a closed pipe is an `EPIPE`
/// error here, which the tool turns into a quiet end (``StandardOutputError/isClosedPipe``).
public enum StandardOutput {
    /// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process, so that
    /// it is handled like any other write error. The corresponding C call is
    /// `signal(SIGPIPE, SIG_IGN)`.
    public static func ignoreBrokenPipeSignal() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `data` to standard output, unbuffered.
    ///
    /// - Throws: ``StandardOutputError``.
    public static func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Writes `bytes` to standard output, unbuffered: a piece of a document written as it is
    /// made.
    ///
    /// - Throws: ``StandardOutputError``.
    public static func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, to: STDOUT_FILENO, path: nil)
    }

    /// Writes `data` into the stream at `path` (a FIFO, a device such as `/dev/stdout`), opened
    /// for writing without being created or truncated.
    ///
    /// - Throws: ``StandardOutputError`` naming the path.
    public static func write(_ data: Data, intoStream path: String) throws {
        try writing(intoStream: path) { write in try data.withUnsafeBytes { try write($0) } }
    }

    /// Opens the stream at `path` (a FIFO, a device such as `/dev/stdout`) for writing, without
    /// creating or truncating it, and hands `body` a function that writes bytes into it.
    ///
    /// - Throws: ``StandardOutputError`` naming the path, or what `body` throws.
    public static func writing(
        intoStream path: String, _ body: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw StandardOutputError(code: errno, path: path) }
        defer { close(fd) }
        try body { try write($0, to: fd, path: path) }
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String?) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StandardOutputError(code: errno, path: path)
            }
            offset += written
        }
    }

    /// Writes `text` to standard output, unbuffered.
    ///
    /// - Throws: ``StandardOutputError``.
    public static func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `text` to standard error, ignoring failures: it carries the messages about
    /// failures, and has nowhere to report its own.
    public static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// The C function `write`, out of the way of ``StandardOutput/write(_:)``'s name.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// Standard output, or a stream named as an output (a FIFO, `/dev/stdout`), could not be written.
public struct StandardOutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    /// The stream's path, or `nil` for standard output.
    public var path: String?

    /// Creates an error.
    public init(code: Int32, path: String? = nil) {
        self.code = code
        self.path = path
    }

    /// Whether the reader of a pipe went away (`EPIPE`: `tripdoc show doc.json | head -1`),
    /// which ends the tool quietly, as it ends `cat`, rather than an error.
    public var isClosedPipe: Bool { code == EPIPE }

    public var description: String {
        "cannot write to \(path ?? "standard output"): \(String(cString: strerror(code)))"
    }
}
