/// An append-only list kept in chunks of a fixed size instead of one buffer that doubles: a list
/// of millions of elements is never copied to grow, and holds at most one chunk it does not use.
///
/// Growing one buffer by doubling touches about twice the memory it ends with, and on a virtual
/// machine memory touched for the first time is slow to get (the integrity check of a document of
/// a million snapshots spent a fifth of its time there).
struct ChunkedList<Element>: Sequence {
    private var chunks: [[Element]] = []
    private let chunkSize: Int

    /// An empty list that grows `chunkSize` elements at a time.
    init(chunkSize: Int = 1 << 16) {
        precondition(chunkSize > 0, "a chunk holds at least one element")
        self.chunkSize = chunkSize
    }

    /// The number of elements.
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == chunkSize {
            var chunk: [Element] = []
            chunk.reserveCapacity(chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// The elements in the order they were appended.
    func makeIterator() -> FlattenSequence<[[Element]]>.Iterator { chunks.joined().makeIterator() }
}
