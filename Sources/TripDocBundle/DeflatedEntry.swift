import CZlib
import Crypto
import Foundation
import TripDocCore

/// An archive entry deflated as its bytes are made, with what the zip container and the manifest
/// need of it: its size, CRC-32 and SHA-256. Only the deflated bytes are kept: in memory, or in
/// an ``UnlinkedTemporaryFile`` once they pass the spill threshold, so that a large entry never
/// sits in memory whole. The deflate stream is zlib's raw deflate at its default level, as zip's
/// method 8 holds it (docs/FORMATS.md, 8.6).
///
/// One thread at a time appends (``EntryCompressor`` may do it on a thread of its own); the
/// sizes, checksums and bytes are read once ``finish()`` has returned.
final class DeflatedEntry {
    /// The entry's name in the archive.
    let name: String
    /// How many bytes have been appended (the entry's size, once finished).
    private(set) var size = 0
    /// How many deflated bytes there are.
    private(set) var compressedSize = 0
    /// The CRC-32 (zip's, zlib's) of the appended bytes.
    private(set) var crc32: UInt32 = 0
    private var hasher = SHA256()
    private var isFinished = false
    /// zlib keeps a pointer to its stream, which so stays where it was made.
    private let stream: UnsafeMutablePointer<z_stream>
    private var streamIsOpen = false
    /// Where deflate writes, before the bytes are kept; freed when the entry is finished, so that
    /// a document of many entities holds none for the entries it has finished.
    private var output: UnsafeMutableRawBufferPointer?
    private var memory: [UInt8]? = []
    private var file: UnlinkedTemporaryFile?
    /// The deflated size past which the bytes move to a temporary file.
    private let spillThreshold: Int

    /// How much deflate writes at a time.
    private static let outputSize = 1 << 16

    /// An empty entry named `name`, whose deflated bytes stay in memory up to `spillThreshold`.
    init(name: String, spillThreshold: Int) throws {
        self.name = name
        self.spillThreshold = spillThreshold
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: Self.outputSize, alignment: 16)
        // Fully initialised: should zlib not start, deinit frees the buffers.
        guard CZlib_deflateInit(stream) == Z_OK else {
            throw DeflateError(entry: name, message: "zlib could not start deflating (out of memory)")
        }
        streamIsOpen = true
    }

    /// An entry named `name` holding `data`, finished.
    convenience init(name: String, data: Data, spillThreshold: Int) throws {
        try self.init(name: name, spillThreshold: spillThreshold)
        try data.withUnsafeBytes { try append($0) }
        try finish()
    }

    deinit {
        if streamIsOpen { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        output?.deallocate()
    }

    /// Appends `bytes` to the entry: counted, checksummed, hashed and deflated.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!isFinished, "bytes appended to a finished entry")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        hasher.update(bufferPointer: bytes)
        size += bytes.count
        // zlib counts in 32 bits: a piece larger than that is handed over in parts.
        var offset = 0
        while offset < bytes.count {
            let count = min(bytes.count - offset, Int(UInt32.max >> 1))
            let start = base.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            crc32 = UInt32(CZlib.crc32(uLong(crc32), start, uInt(count)))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: start)
            stream.pointee.avail_in = uInt(count)
            try deflate(finishing: false)
            offset += count
        }
    }

    /// Ends the deflate stream. The entry's sizes, checksums and bytes are then final.
    func finish() throws {
        guard !isFinished else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try deflate(finishing: true)
        deflateEnd(stream)
        streamIsOpen = false
        isFinished = true
        output?.deallocate()
        output = nil
    }

    /// Runs deflate over the stream's input, keeping what it writes; to the stream's end when
    /// `finishing`.
    private func deflate(finishing: Bool) throws {
        let output = self.output!
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = CZlib.deflate(stream, finishing ? Z_FINISH : Z_NO_FLUSH)
            guard status != Z_STREAM_ERROR else {
                throw DeflateError(entry: name, message: "zlib's deflate failed (its state was damaged)")
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { try keep(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            if finishing ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { return }
        }
    }

    private func keep(_ bytes: UnsafeRawBufferPointer) throws {
        compressedSize += bytes.count
        if memory != nil {
            memory!.append(contentsOf: bytes)
            if compressedSize > spillThreshold {
                // The file first: should making it fail, the memory still holds every byte.
                file = try UnlinkedTemporaryFile.keeping(name) { try UnlinkedTemporaryFile() }
                let held = memory!
                memory = nil
                try held.withUnsafeBytes { bytes in try UnlinkedTemporaryFile.keeping(name) { try file!.append(bytes) } }
            }
            return
        }
        try UnlinkedTemporaryFile.keeping(name) { try file!.append(bytes) }
    }

    /// The SHA-256 of the entry's bytes, in lowercase hexadecimal.
    var digest: String { hasher.finalize().hexadecimal }

    /// Hands the deflated bytes over in pieces of at most 1 MiB.
    func replayDeflated(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        precondition(isFinished, "an entry replayed before it was finished")
        if let memory {
            try memory.withUnsafeBytes { try write($0) }
            return
        }
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { piece.deallocate() }
        var offset = 0
        while offset < compressedSize {
            let count = try UnlinkedTemporaryFile.keeping(name) {
                try file!.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: piece[0..<min(piece.count, compressedSize - offset)]),
                    at: offset)
            }
            try write(UnsafeRawBufferPointer(rebasing: piece[0..<count]))
            offset += count
        }
    }

    /// Hands the entry's own bytes over, inflated again from the deflated ones, in pieces of at
    /// most 256 KiB: for an entry written stored.
    func replayInflated(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        let inflater = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        inflater.initialize(to: z_stream())
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer {
            inflater.deinitialize(count: 1)
            inflater.deallocate()
            piece.deallocate()
        }
        guard CZlib_inflateInit(inflater) == Z_OK else {
            throw DeflateError(entry: name, message: "zlib could not start inflating (out of memory)")
        }
        defer { inflateEnd(inflater) }
        var inflated = 0
        var ended = false
        try replayDeflated { deflated in
            guard !deflated.isEmpty else { return }
            inflater.pointee.next_in = UnsafeMutablePointer(mutating: deflated.baseAddress!.assumingMemoryBound(to: Bytef.self))
            inflater.pointee.avail_in = uInt(deflated.count)
            repeat {
                inflater.pointee.next_out = piece.baseAddress!.assumingMemoryBound(to: Bytef.self)
                inflater.pointee.avail_out = uInt(piece.count)
                let status = inflate(inflater, Z_NO_FLUSH)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw DeflateError(entry: name, message: "its deflated bytes, kept aside, no longer inflate (\(status))")
                }
                let count = piece.count - Int(inflater.pointee.avail_out)
                inflated += count
                if count > 0 { try write(UnsafeRawBufferPointer(rebasing: piece[0..<count])) }
                if status == Z_STREAM_END { ended = true }
            } while inflater.pointee.avail_out == 0 && !ended
        }
        guard ended, inflated == size else {
            throw DeflateError(entry: name, message: "its deflated bytes, kept aside, inflate to \(inflated) bytes, not \(size)")
        }
    }
}

/// zlib failed while an entry was deflated for the archive, or its bytes kept aside could not be
/// read back: neither is the document's fault.
struct DeflateError: Error, CustomStringConvertible {
    /// The archive entry.
    var entry: String
    /// What went wrong.
    var message: String

    var description: String { "writing the archive entry \(entry): \(message)" }
}
