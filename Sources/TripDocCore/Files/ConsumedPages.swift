import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Hands the pages a reader has gone past back to the system, so that reading a mapped file
/// (``DocumentFileReader/contents(of:limits:mapped:)``) in one pass keeps only a window of it in
/// memory, not the whole file.
///
/// It asks the kernel to reclaim the pages (`MADV_PAGEOUT`), which never loses data: pages of a
/// file are read again if the reader comes back (a bookmark, an error's line count), and memory
/// that is not a file's is left where it is. Elsewhere than Linux it does nothing.
public struct ConsumedPages {
    /// How far the pages before it have been handed back.
    private var released = 0
    /// How far the reader's progress has been reported (``CodingProgress``).
    private var reported = 0
    /// How much to read past before handing pages back again.
    private static let stride = 8 << 20
    /// How much just behind the reader is kept, for a reader that looks back a little.
    private static let margin = 1 << 20

    /// Nothing released yet.
    public init() {}

    /// Notes that the reader of `bytes` is at `position`, releasing what lies well behind it,
    /// and reporting how far it went to the progress observer a megabyte at a time.
    @inline(__always)
    public mutating func advance(to position: Int, in bytes: UnsafeRawBufferPointer) {
        if position - reported >= CodingProgress.inputInterval {
            CodingProgress.readInput(position - reported)
            reported = position
        }
        if position - released >= Self.stride { release(upTo: position - Self.margin, in: bytes) }
    }

    private mutating func release(upTo end: Int, in bytes: UnsafeRawBufferPointer) {
        #if os(Linux)
            guard let base = bytes.baseAddress else { return }
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let start = (Int(bitPattern: base) + released + page - 1) / page * page
            let stop = (Int(bitPattern: base) + end) / page * page
            if stop > start {
                _ = madvise(UnsafeMutableRawPointer(bitPattern: start), stop - start, 21 /* MADV_PAGEOUT */)
            }
        #endif
        released = end
    }
}
