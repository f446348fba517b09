import Foundation
import TripDocCore

/// Writes a bundle's zip container around entries already deflated (``DeflatedEntry``), handing
/// its bytes to a sink in order: each entry's local header, data and data descriptor, then the
/// central directory and the end records. The bytes are those docs/FORMATS.md (8.6) gives, the
/// ones libarchive's zip writer made when it deflated the entries itself (``ZipArchive/Writer``,
/// against which the tests compare them): bit 3 and a data descriptor for every entry, the fixed
/// times, permissions and extra fields, and zip64 records and fields only where sizes, offsets
/// or the number of entries need them.
///
/// An entry larger than ``ZipArchive/ratioCheckThreshold`` that deflates beyond the reader's
/// default compression-ratio cap is stored instead, its bytes inflated again from the deflated
/// ones: what tripdoc writes, it reads back under the default limits.
struct ZipWriter {
    private let sink: DocumentByteSink
    /// How many bytes have been handed to the sink.
    private var offset = 0
    /// The central directory so far.
    private var centralDirectory: [UInt8] = []
    private var entryCount = 0

    /// The DOS date and time of the Unix epoch: 1980-01-01 00:00, the earliest DOS can express.
    private static let dosTime: UInt32 = 0x0021_0000
    /// An extended timestamp (modification time 0) and Info-ZIP's Unix UID/GID field (0 and 0),
    /// in the local header and the central directory alike.
    private static let commonExtraFields: [UInt8] = [
        0x55, 0x54, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x75, 0x78, 0x0B, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
    ]
    /// A regular file, mode 0644, in the high 16 bits of the external attributes.
    private static let externalAttributes: UInt32 = 0o100644 << 16
    private static let method = (stored: UInt16(0), deflated: UInt16(8))
    private static let largest32BitValue = 0xFFFF_FFFF

    /// A writer handing the archive's bytes to `sink`.
    init(sink: @escaping DocumentByteSink) {
        self.sink = sink
    }

    /// Whether `entry` is written stored: it is larger than the ratio check's threshold, and its
    /// local header, deflated data and data descriptor together would take fewer bytes than its
    /// size divided by the default compression-ratio cap plus the most a local header and
    /// descriptor take (docs/FORMATS.md, 8.6).
    static func isStored(_ entry: DeflatedEntry) -> Bool {
        guard entry.size > ZipArchive.ratioCheckThreshold else { return false }
        let nameLength = entry.name.utf8.count
        let zip64 = usesZip64LocalHeader(size: entry.size, stored: false)
        let deflatedTotal = 30 + nameLength + commonExtraFields.count + (zip64 ? 20 : 0) + entry.compressedSize + (zip64 ? 24 : 16)
        let needed = 30 + nameLength + 64 + 24 + entry.size / DocumentLimits.standard.maximumCompressionRatio + 1
        return deflatedTotal < needed
    }

    /// Whether an entry's local header carries zip64 sizes: 4 GiB or more, or past 3.75 GiB deflated
    /// (deflate may make it larger).
    private static func usesZip64LocalHeader(size: Int, stored: Bool) -> Bool {
        size > largest32BitValue || (!stored && size > 0xF000_0000)
    }

    /// Writes `entry`, which must be finished.
    mutating func add(_ entry: DeflatedEntry) throws {
        let stored = Self.isStored(entry)
        let name = Array(entry.name.utf8)
        let size = entry.size
        let compressedSize = stored ? size : entry.compressedSize
        let zip64 = Self.usesZip64LocalHeader(size: size, stored: stored)
        let versionNeeded: UInt16 = zip64 ? 45 : stored ? 10 : 20
        let flags: UInt16 = 0x0008 | (name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800)
        let method = stored ? Self.method.stored : Self.method.deflated
        let entryOffset = offset

        var header: [UInt8] = []
        header.reserveCapacity(30 + name.count + 44)
        header.appendLittleEndian(UInt32(0x0403_4B50))
        header.appendLittleEndian(versionNeeded)
        header.appendLittleEndian(flags)
        header.appendLittleEndian(method)
        header.appendLittleEndian(Self.dosTime)
        header.appendLittleEndian(UInt32(0))  // the CRC-32 follows the data
        if zip64 {
            header.appendLittleEndian(UInt32.max)
            header.appendLittleEndian(UInt32.max)
        } else {
            // The compressed size is known before the data only when the entry is stored.
            header.appendLittleEndian(UInt32(stored ? size : 0))
            header.appendLittleEndian(UInt32(size))
        }
        header.appendLittleEndian(UInt16(name.count))
        header.appendLittleEndian(UInt16(Self.commonExtraFields.count + (zip64 ? 20 : 0)))
        header += name
        header += Self.commonExtraFields
        if zip64 {
            header.appendLittleEndian(UInt16(0x0001))
            header.appendLittleEndian(UInt16(16))
            header.appendLittleEndian(UInt64(size))
            header.appendLittleEndian(UInt64(stored ? size : 0))
        }
        try write(header)

        var written = 0
        let count: (UnsafeRawBufferPointer) throws -> Void = { [sink] piece in
            written += piece.count
            try sink(piece)
        }
        if stored { try entry.replayInflated(count) } else { try entry.replayDeflated(count) }
        offset += written
        guard written == compressedSize else {
            throw DeflateError(entry: entry.name, message: "\(written) bytes written for an entry of \(compressedSize)")
        }

        var descriptor: [UInt8] = []
        descriptor.appendLittleEndian(UInt32(0x0807_4B50))
        descriptor.appendLittleEndian(entry.crc32)
        if zip64 {
            descriptor.appendLittleEndian(UInt64(compressedSize))
            descriptor.appendLittleEndian(UInt64(size))
        } else {
            descriptor.appendLittleEndian(UInt32(truncatingIfNeeded: compressedSize))
            descriptor.appendLittleEndian(UInt32(truncatingIfNeeded: size))
        }
        try write(descriptor)

        // The central directory's zip64 field holds each value that does not fit in 32 bits.
        var zip64Field: [UInt8] = []
        if compressedSize > Self.largest32BitValue || size > Self.largest32BitValue || entryOffset > Self.largest32BitValue {
            zip64Field.appendLittleEndian(UInt16(0x0001))
            zip64Field.appendLittleEndian(UInt16(0))
            for value in [size, compressedSize, entryOffset] where value >= Self.largest32BitValue {
                zip64Field.appendLittleEndian(UInt64(value))
            }
            let length = UInt16(zip64Field.count - 4)
            zip64Field[2] = UInt8(length & 0xFF)
            zip64Field[3] = UInt8(length >> 8)
        }
        centralDirectory.appendLittleEndian(UInt32(0x0201_4B50))
        centralDirectory.appendLittleEndian(0x0300 | versionNeeded)  // made by: Unix
        centralDirectory.appendLittleEndian(zip64Field.isEmpty ? versionNeeded : max(versionNeeded, 45))
        centralDirectory.appendLittleEndian(flags)
        centralDirectory.appendLittleEndian(method)
        centralDirectory.appendLittleEndian(Self.dosTime)
        centralDirectory.appendLittleEndian(entry.crc32)
        centralDirectory.appendLittleEndian(UInt32(min(compressedSize, Self.largest32BitValue)))
        centralDirectory.appendLittleEndian(UInt32(min(size, Self.largest32BitValue)))
        centralDirectory.appendLittleEndian(UInt16(name.count))
        centralDirectory.appendLittleEndian(UInt16(Self.commonExtraFields.count + zip64Field.count))
        centralDirectory.appendLittleEndian(UInt16(0))  // comment length
        centralDirectory.appendLittleEndian(UInt16(0))  // disk number
        centralDirectory.appendLittleEndian(UInt16(0))  // internal attributes
        centralDirectory.appendLittleEndian(Self.externalAttributes)
        centralDirectory.appendLittleEndian(UInt32(min(entryOffset, Self.largest32BitValue)))
        centralDirectory += name
        centralDirectory += Self.commonExtraFields
        centralDirectory += zip64Field
        entryCount += 1
    }

    /// Writes the central directory and the end records.
    mutating func close() throws {
        let start = offset
        try write(centralDirectory)
        centralDirectory = []
        let end = offset
        let size = end - start
        var records: [UInt8] = []
        if size > Self.largest32BitValue || start > Self.largest32BitValue || entryCount > 0xFFFF {
            // The zip64 end of central directory record, and its locator.
            records.appendLittleEndian(UInt32(0x0606_4B50))
            records.appendLittleEndian(UInt64(44))
            records.appendLittleEndian(UInt16(45))
            records.appendLittleEndian(UInt16(45))
            records.appendLittleEndian(UInt32(0))
            records.appendLittleEndian(UInt32(0))
            records.appendLittleEndian(UInt64(entryCount))
            records.appendLittleEndian(UInt64(entryCount))
            records.appendLittleEndian(UInt64(size))
            records.appendLittleEndian(UInt64(start))
            records.appendLittleEndian(UInt32(0x0706_4B50))
            records.appendLittleEndian(UInt32(0))
            records.appendLittleEndian(UInt64(end))
            records.appendLittleEndian(UInt32(1))
        }
        records.appendLittleEndian(UInt32(0x0605_4B50))
        records.appendLittleEndian(UInt16(0))
        records.appendLittleEndian(UInt16(0))
        records.appendLittleEndian(UInt16(min(entryCount, 0xFFFF)))
        records.appendLittleEndian(UInt16(min(entryCount, 0xFFFF)))
        records.appendLittleEndian(UInt32(min(size, Self.largest32BitValue)))
        records.appendLittleEndian(UInt32(min(start, Self.largest32BitValue)))
        records.appendLittleEndian(UInt16(0))  // comment length
        try write(records)
    }

    private mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try sink($0) }
        offset += bytes.count
    }
}

extension [UInt8] {
    /// Appends `value` as little-endian bytes, as zip's fields hold numbers.
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
