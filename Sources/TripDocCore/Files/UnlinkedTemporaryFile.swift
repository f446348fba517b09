import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A temporary file with no name: it is unlinked the moment it is made and closed with this
/// object, so nothing is left behind whatever happens to the process. Where large bundle entries
/// and documents arriving on a stream are kept aside, written once from the start and then read
/// back or mapped.
public final class UnlinkedTemporaryFile {
    /// The open file.
    public let descriptor: Int32

    /// Makes the file in the temporary folder.
    ///
    /// - Throws: ``Failure``.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/tripdoc-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(step: "creating a temporary file", code: errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why a call on the file failed: what was being done, and the `errno`.
    public struct Failure: Error, CustomStringConvertible {
        /// What was being done: "creating a temporary file".
        public var step: String
        /// The `errno`.
        public var code: Int32

        /// Creates a failure.
        public init(step: String, code: Int32) {
            self.step = step
            self.code = code
        }

        public var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
    }

    /// Writes all of `bytes` at the file's current offset.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
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
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(step: "reading a temporary file", code: errno) }
            guard count > 0 else { throw Failure(step: "reading a temporary file", code: EIO) }
            return count
        }
    }
}
