import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A temporary file with no name: it is unlinked the moment it is made and closed with this
/// object, so nothing is left behind whatever happens to the process. Where large entries are
/// kept aside, written once from the start and then read back or mapped.
final class UnlinkedTemporaryFile {
    /// The open file.
    let descriptor: Int32

    /// Makes the file in the temporary folder.
    ///
    /// - Throws: ``Failure``.
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/tripdoc-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(step: "creating a temporary file", code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why a call on the file failed: what was being done, and the `errno`.
    struct Failure: Error, CustomStringConvertible {
        var step: String
        var code: Int32

        var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
    }

    /// Runs `body`, which keeps the archive entry `entry` in a temporary file, turning a
    /// ``Failure`` into an error of that entry.
    static func keeping<T>(_ entry: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as Failure {
            throw ZipArchiveError.temporaryFileFailed(entry: entry, step: failure.step, code: failure.code)
        }
    }

    /// Writes all of `bytes` at the file's current offset.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(step: "writing a temporary file", code: errno)
            }
            offset += written
        }
    }

    /// Reads into `buffer` from `offset`, which must be before the end of what was written;
    /// returns how many bytes were read (at least one).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(step: "reading a temporary file", code: errno) }
            guard count > 0 else { throw Failure(step: "reading a temporary file", code: EIO) }
            return count
        }
    }
}
