import Crypto
import Foundation
import TripDocCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An entry's bytes kept aside, as the bundle's writer makes them, while they are hashed with
/// SHA-256: in memory, or in an ``UnlinkedTemporaryFile``, so that a large entry never sits in
/// memory whole.
final class HashedSpool {
    /// The entry the bytes are, for messages.
    let name: String
    /// How many bytes have been appended.
    private(set) var size = 0
    private var hasher = SHA256()
    private var memory: Data? = Data()
    private var file: UnlinkedTemporaryFile?

    /// The size past which the bytes move to a temporary file.
    private let spillThreshold: Int

    /// A spool for the entry `name`: in memory until it holds more than `spillThreshold` bytes,
    /// then in an unlinked temporary file. Small entries so never hold a descriptor.
    init(name: String, spillThreshold: Int) {
        self.name = name
        self.spillThreshold = spillThreshold
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bufferPointer: bytes)
        size += bytes.count
        if memory != nil {
            memory!.append(contentsOf: bytes)
            if size > spillThreshold {
                // The file first: should making it fail, the spool still holds every byte.
                file = try UnlinkedTemporaryFile.keeping(name) { try UnlinkedTemporaryFile() }
                let held = memory!
                memory = nil
                try held.withUnsafeBytes { try writeToFile($0) }
            }
            return
        }
        try writeToFile(bytes)
    }

    private func writeToFile(_ bytes: UnsafeRawBufferPointer) throws {
        try UnlinkedTemporaryFile.keeping(name) { try file!.append(bytes) }
    }

    /// The SHA-256 of the bytes, in lowercase hexadecimal.
    var digest: String { hasher.finalize().hexadecimal }

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
            let count = try UnlinkedTemporaryFile.keeping(name) {
                try file!.read(into: UnsafeMutableRawBufferPointer(rebasing: piece[0..<min(piece.count, size - offset)]), at: offset)
            }
            try write(UnsafeRawBufferPointer(rebasing: piece[0..<count]))
            offset += count
        }
    }
}
