import Foundation

/// The caps a bundle reader enforces before it inflates anything, so that a hostile archive
/// fails fast with bounded memory.
public struct BundleLimits: Hashable, Sendable {
    /// The most entries an archive may have.
    public var maximumEntryCount: Int
    /// The most bytes one entry may inflate to.
    public var maximumEntrySize: Int
    /// The most bytes all entries together may inflate to.
    public var maximumTotalSize: Int
    /// The highest ratio of inflated to compressed size an entry may have…
    public var maximumCompressionRatio: Int
    /// …once it inflates to more than this many bytes (small entries may compress well).
    public var ratioCheckThreshold: Int

    /// Creates limits.
    public init(
        maximumEntryCount: Int = 100_000, maximumEntrySize: Int = 2 << 30, maximumTotalSize: Int = 8 << 30,
        maximumCompressionRatio: Int = 200, ratioCheckThreshold: Int = 1 << 20
    ) {
        self.maximumEntryCount = maximumEntryCount
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
        self.maximumCompressionRatio = maximumCompressionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
    }

    /// The limits tripdoc uses unless told otherwise.
    public static let standard = BundleLimits()
}
