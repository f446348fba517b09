import Foundation

/// The local header before each entry's data (APPNOTE 4.3.7), checked against the entry's
/// central directory record before anything is inflated (FORMATS 8.7, step 2), so that the
/// central directory's name and size are the entry's, whatever a tool that reads local headers
/// instead would see.
enum ZipLocalHeader {
    /// Throws unless `bytes` hold, at `record`'s local header offset, a local header whose name
    /// is the record's, byte for byte, and whose CRC-32, compressed and uncompressed sizes are the
    /// record's (the sizes from the zip64 extra field where the 4-byte field is 0xFFFFFFFF).
    /// When bit 3 of its flags is set, each of the three may also be 0, and a data descriptor
    /// follows the entry's data (with or without its signature) holding the record's three
    /// values (8-byte sizes when the local header has a zip64 extra field).
    static func check(_ record: ZipCentralDirectory.Record, in bytes: UnsafeRawBufferPointer) throws {
        let start = record.localHeaderOffset
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func u64(_ at: Int) -> Int {
            let value = UInt64(u32(at)) | UInt64(u32(at + 4)) << 32
            return value <= UInt64(Int.max) ? Int(value) : -1
        }
        func damaged(_ reason: String) -> ZipArchiveError { .damaged(entry: record.name, reason) }
        guard start >= 0, start + 30 <= bytes.count, u32(start) == 0x0403_4B50 else {
            throw damaged("its local header is missing")
        }
        let flags = u16(start + 6)
        let nameLength = u16(start + 26)
        let extraLength = u16(start + 28)
        let nameStart = start + 30
        let dataStart = nameStart + nameLength + extraLength
        guard dataStart <= bytes.count else { throw damaged("its local header is cut short") }
        let name = bytes[nameStart..<nameStart + nameLength]
        guard name.elementsEqual(record.name.utf8) else {
            throw damaged("its local header names it '\(String(decoding: name, as: UTF8.self))', unlike the central directory")
        }
        var crc = u32(start + 14)
        var compressed = u32(start + 18)
        var uncompressed = u32(start + 22)
        // Zip64 extended information: in a local header, the uncompressed size, then the compressed.
        var hasZip64 = false
        var extra = nameStart + nameLength
        while extra + 4 <= dataStart {
            let length = u16(extra + 2)
            if u16(extra) == 0x0001 {
                hasZip64 = true
                var field = extra + 4
                if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length, field + 8 <= dataStart {
                    uncompressed = u64(field)
                    field += 8
                }
                if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length, field + 8 <= dataStart {
                    compressed = u64(field)
                }
            }
            extra += 4 + length
        }
        let deferred = flags & 0x0008 != 0
        func agrees(_ local: Int, _ central: Int) -> Bool { local == central || (deferred && local == 0) }
        guard agrees(uncompressed, record.uncompressedSize), agrees(compressed, record.compressedSize) else {
            throw damaged("its local header and the central directory disagree on its size")
        }
        guard agrees(crc, Int(record.crc32)) else {
            throw damaged("its local header and the central directory disagree on its CRC-32")
        }
        guard deferred else { return }
        // The data descriptor, after the data.
        var descriptor = dataStart + record.compressedSize
        let sizeWidth = hasZip64 ? 8 : 4
        if descriptor + 4 <= bytes.count, u32(descriptor) == 0x0807_4B50 { descriptor += 4 }
        guard descriptor + 4 + 2 * sizeWidth <= bytes.count else { throw damaged("its data descriptor is missing") }
        crc = u32(descriptor)
        compressed = hasZip64 ? u64(descriptor + 4) : u32(descriptor + 4)
        uncompressed = hasZip64 ? u64(descriptor + 4 + sizeWidth) : u32(descriptor + 4 + sizeWidth)
        guard crc == Int(record.crc32), compressed == record.compressedSize, uncompressed == record.uncompressedSize else {
            throw damaged("its data descriptor and the central directory disagree on its CRC-32 or sizes")
        }
    }
}
