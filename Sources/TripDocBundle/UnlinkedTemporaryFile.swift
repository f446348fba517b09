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

        /// The failure as an error of the archive entry `entry` that was being kept.
        func keeping(_ entry: String) -> ZipArchiveError {
            .damaged(entry: entry, "\(step) for the entry failed: \(String(cString: strerror(code)))")
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
}
