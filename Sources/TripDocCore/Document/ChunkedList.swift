/// An append-only list kept in chunks instead of one buffer that doubles: a list of millions of
/// elements is never copied to grow, and holds at most one chunk it does not use.
///
/// Growing one buffer by doubling touches about twice the memory it ends with, and on a virtual
/// machine memory touched for the first time is slow to get (the integrity check of a document of
/// a million snapshots spent a fifth of its time there). Chunks start small, for short lists, and
/// double up to `largestChunk` elements.
struct ChunkedList<Element>: Sequence {
    private var chunks: [[Element]] = []
    private let largestChunk: Int
    private var nextChunk: Int

    /// An empty list whose chunks grow to `largestChunk` elements.
    init(largestChunk: Int = 1 << 16) {
        precondition(largestChunk > 0, "a chunk holds at least one element")
        self.largestChunk = largestChunk
        nextChunk = Swift.min(1 << 10, largestChunk)
    }

    /// The number of elements.
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == chunks[chunks.count - 1].capacity {
            var chunk: [Element] = []
            chunk.reserveCapacity(nextChunk)
            chunks.append(chunk)
            nextChunk = Swift.min(2 * nextChunk, largestChunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// The elements in the order they were appended.
    func makeIterator() -> FlattenSequence<[[Element]]>.Iterator { chunks.joined().makeIterator() }
}
