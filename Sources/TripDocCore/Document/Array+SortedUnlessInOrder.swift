extension Array {
    /// The elements sorted by `areInIncreasingOrder`, without sorting when each already precedes
    /// the next (documents read from files usually are in order: that costs one pass). Checked
    /// by index, so no element is copied.
    func sortedUnlessInOrder(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        var index = 1
        while index < count, areInIncreasingOrder(self[index - 1], self[index]) { index += 1 }
        return index >= count ? self : sorted(by: areInIncreasingOrder)
    }
}
