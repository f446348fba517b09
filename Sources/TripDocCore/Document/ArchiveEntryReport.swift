import Foundation

/// One entry of a document stored as an archive, as `tripdoc inspect` lists it.
public struct ArchiveEntryReport: Codable, Hashable, Sendable {
    /// The entry's path in the archive.
    public var name: String
    /// Its size once inflated, in bytes.
    public var size: Int
    /// Its size in the archive, in bytes.
    public var compressedSize: Int
    /// `size / compressedSize`, rounded to two places (0 for an empty entry).
    public var ratio: Double
    /// `ok` when the bytes inflate to the CRC-32 the archive records.
    public var crc: String
    /// `ok` when the SHA-256 the document's manifest lists matches; `unlisted` for the manifest itself.
    public var digest: String

    /// Creates a report.
    public init(name: String, size: Int, compressedSize: Int, crc: String, digest: String) {
        self.name = name
        self.size = size
        self.compressedSize = compressedSize
        self.ratio = compressedSize == 0 ? 0 : (Double(size) / Double(compressedSize) * 100).rounded() / 100
        self.crc = crc
        self.digest = digest
    }
}

/// A format whose documents are archives of entries, which `tripdoc inspect` can list.
public protocol ArchiveInspecting {
    /// Every entry of the archive `data`, checked (CRC and manifest digests) under `limits`.
    ///
    /// - Throws: ``DocumentReadError`` naming the entry at fault.
    func entryReports(of data: Data, file: String, limits: DocumentLimits) throws -> [ArchiveEntryReport]
    /// The same report for an archive that ``DocumentFormat/readDocument(from:file:limits:into:)``
    /// has just read whole, and so checked: made without inflating every entry again. By default
    /// ``entryReports(of:file:limits:)``.
    func entryReports(ofRead data: Data, file: String, limits: DocumentLimits) throws -> [ArchiveEntryReport]
}

extension ArchiveInspecting {
    public func entryReports(ofRead data: Data, file: String, limits: DocumentLimits) throws -> [ArchiveEntryReport] {
        try entryReports(of: data, file: file, limits: limits)
    }

    /// Every entry of the archive `data`, checked under the ``DocumentLimits/standard`` limits.
    ///
    /// - Throws: ``DocumentReadError`` naming the entry at fault.
    public func entryReports(of data: Data, file: String) throws -> [ArchiveEntryReport] {
        try entryReports(of: data, file: file, limits: .standard)
    }
}
