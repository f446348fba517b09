import Testing
@testable import TripDocCore

/// The integrity check's append-only list: what goes in comes out, in order, however many chunks.
@Suite struct ChunkedListTests {
    @Test(arguments: [0, 1, 1_023, 1_024, 1_025, 200_000])
    func elementsComeBackInTheOrderAppended(count: Int) {
        var list = ChunkedList<Int>(largestChunk: 4_096)
        for element in 0..<count { list.append(element) }
        #expect(list.count == count)
        #expect(Array(list) == Array(0..<count))
    }
}
