import Foundation

/// The table of contents at the end of a zip archive (APPNOTE 4.3.16, 4.3.12, and the zip64
/// records 4.3.14–15), read so that each entry's declared sizes, CRC and type are known before
/// libarchive inflates anything. Every read is bounds-checked: a truncated or lying archive is
/// an error, never a crash.
struct ZipCentralDirectory {
    struct Record: Equatable {
        var name: String
        var compressedSize: Int
        var uncompressedSize: Int
        var crc32: UInt32
        var localHeaderOffset: Int
        /// The Unix mode, when the entry was made on a Unix system.
        var unixMode: UInt32?

        var isDirectory: Bool { name.hasSuffix("/") || (unixMode.map { $0 & 0o170000 == 0o040000 } ?? false) }
        var isSymbolicLink: Bool { unixMode.map { $0 & 0o170000 == 0o120000 } ?? false }
    }

    let records: [Record]
    /// Where the central directory starts: the end of the last entry's data.
    let offset: Int

    /// Reads the central directory of the archive in `data`, touching only the end of it (the
    /// archive is usually a mapped file: its entries' data is left to libarchive).
    init(_ data: Data) throws {
        (records, offset) = try data.withUnsafeBytes { try Self.read($0) }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) throws -> (records: [Record], offset: Int) {
        func fail(_ reason: String) -> ZipArchiveError { .notAZipArchive(reason) }
        func u16(_ at: Int) throws -> Int {
            guard at >= 0, at <= bytes.count - 2 else { throw fail("it is cut short") }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> Int {
            let low = try u16(at)
            let high = try u16(at + 2)
            return low | high << 16
        }
        func u64(_ at: Int) throws -> Int {
            let low = UInt64(try u32(at))
            let high = UInt64(try u32(at + 4))
            let value = low | high << 32
            guard value <= UInt64(Int.max) else { throw fail("a size is out of range") }
            return Int(value)
        }

        // The end-of-central-directory record: 22 bytes plus a comment of up to 65,535.
        guard bytes.count >= 22 else { throw fail("it is too short to be a zip archive (the file may be cut short)") }
        var end = -1
        var candidate = bytes.count - 22
        while candidate >= max(0, bytes.count - 22 - 65_535) {
            let commentLength = try u16(candidate + 20)
            if bytes[candidate] == 0x50, bytes[candidate + 1] == 0x4B, bytes[candidate + 2] == 0x05,
                bytes[candidate + 3] == 0x06, candidate + 22 + commentLength == bytes.count
            {
                end = candidate
                break
            }
            candidate -= 1
        }
        guard end >= 0 else {
            throw fail("it has no end-of-central-directory record (the file may be cut short)")
        }
        var count = try u16(end + 10)
        var size = try u32(end + 12)
        var start = try u32(end + 16)
        // Zip64: the locator sits just before the classic record.
        let isZip64 = count == 0xFFFF || size == 0xFFFF_FFFF || start == 0xFFFF_FFFF
        if isZip64, end >= 20, try u32(end - 20) == 0x0706_4B50 {
            let record = try u64(end - 12)
            guard try u32(record) == 0x0606_4B50 else { throw fail("its zip64 end record is missing") }
            count = try u64(record + 32)
            size = try u64(record + 40)
            start = try u64(record + 48)
        }
        guard start <= bytes.count, size <= bytes.count - start else {
            throw fail("its central directory lies outside the file (the file may be cut short)")
        }
        var records: [Record] = []
        records.reserveCapacity(min(count, 1 << 20))
        var cursor = start
        for _ in 0..<count {
            guard try u32(cursor) == 0x0201_4B50 else { throw fail("its central directory is damaged") }
            let madeBy = try u16(cursor + 4) >> 8
            let crc = UInt32(try u32(cursor + 16))
            var compressed = try u32(cursor + 20)
            var uncompressed = try u32(cursor + 24)
            let nameLength = try u16(cursor + 28)
            let extraLength = try u16(cursor + 30)
            let commentLength = try u16(cursor + 32)
            let external = UInt32(try u32(cursor + 38))
            var local = try u32(cursor + 42)
            let nameStart = cursor + 46
            guard nameStart + nameLength + extraLength + commentLength <= bytes.count else {
                throw fail("its central directory is cut short")
            }
            guard let name = String(validating: bytes[nameStart..<nameStart + nameLength], as: UTF8.self) else {
                throw ZipArchiveError.unsafeName(String(decoding: bytes[nameStart..<nameStart + nameLength], as: UTF8.self))
            }
            // A bundle's entries are stored or deflated: any other method is refused here, from
            // the central directory, before anything is inflated (FORMATS 8.7).
            let method = try u16(cursor + 10)
            guard method == 0 || method == 8 else {
                throw ZipArchiveError.damaged(
                    entry: name, "it is compressed with method \(method); a bundle's entries are stored (0) or deflated (8)")
            }
            // Zip64 extended information: the 8-byte values of fields set to 0xFFFFFFFF, in order.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = try u16(extra)
                let length = try u16(extra + 2)
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF { uncompressed = try u64(field); field += 8 }
                    if compressed == 0xFFFF_FFFF { compressed = try u64(field); field += 8 }
                    if local == 0xFFFF_FFFF { local = try u64(field) }
                }
                extra += 4 + length
            }
            guard compressed <= bytes.count, local <= bytes.count else {
                throw fail("the central directory gives the entry '\(name)' sizes or offsets beyond the file")
            }
            records.append(
                Record(
                    name: name, compressedSize: compressed, uncompressedSize: uncompressed, crc32: crc,
                    localHeaderOffset: local, unixMode: madeBy == 3 ? external >> 16 : nil))
            cursor = extraEnd + commentLength
        }
        return (records, start)
    }
}
