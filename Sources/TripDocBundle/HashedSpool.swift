import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An entry's bytes kept aside while they are hashed with SHA-256: in memory, or in an unlinked
/// temporary file, so that a large entry never sits in memory whole. The file has no name from
/// the moment it is made and is closed with the spool, so nothing is left behind, whatever
/// happens to the process.
final class HashedSpool {
    /// The entry the bytes are, for messages.
    let name: String
    /// How many bytes have been appended.
    private(set) var size = 0
    private var hasher = SHA256()
    private var memory: Data?
    private var descriptor: Int32 = -1

    /// The size past which the bytes move to a temporary file (`nil`: they never do).
    private let spillThreshold: Int?

    /// A spool for the entry `name`: in memory (with room for `capacity` bytes) until it holds
    /// more than `spillThreshold` bytes, then in an unlinked temporary file (from the start when
    /// the threshold is 0; never when it is `nil`). Small entries so never hold a descriptor.
    init(name: String, spillThreshold: Int?, capacity: Int = 0) throws {
        self.name = name
        self.spillThreshold = spillThreshold
        if spillThreshold == 0 {
            try openFile()
        } else {
            memory = Data(capacity: capacity)
        }
    }

    private func openFile() throws {
        var template = Array((NSTemporaryDirectory() + "/tripdoc-spool-XXXXXX").utf8CString)
        descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("creating a temporary file", errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bufferPointer: bytes)
        size += bytes.count
        if memory != nil {
            memory!.append(contentsOf: bytes)
            if let spillThreshold, size > spillThreshold {
                let held = memory!
                memory = nil
                try openFile()
                try held.withUnsafeBytes { try writeToFile($0) }
            }
            return
        }
        try writeToFile(bytes)
    }

    private func writeToFile(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("writing a temporary file", errno)
            }
            offset += written
        }
    }

    /// The SHA-256 of the bytes, in lowercase hexadecimal.
    var digest: String { hasher.finalize().map { String(format: "%02x", $0) }.joined() }

    /// Hands the bytes back in pieces of at most 1 MiB.
    func replay(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let memory {
            try memory.withUnsafeBytes { try write($0) }
            return
        }
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { piece.deallocate() }
        var offset = 0
        while offset < size {
            let count = pread(descriptor, piece.baseAddress, min(piece.count, size - offset), off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("reading a temporary file", errno)
            }
            guard count > 0 else { throw failure("reading a temporary file", EIO) }
            try write(UnsafeRawBufferPointer(rebasing: piece[0..<count]))
            offset += count
        }
    }

    /// The bytes as `Data`: the memory, or the file mapped (it stays mapped, not open, as long
    /// as the `Data` lives).
    func contents() throws -> Data {
        if let memory { return memory }
        guard size > 0 else { return Data() }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw failure("mapping a temporary file", errno)
        }
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { _ = munmap($0, $1) })
    }

    private func failure(_ step: String, _ code: Int32) -> ZipArchiveError {
        .damaged(entry: name, "\(step) for the entry failed: \(String(cString: strerror(code)))")
    }
}
