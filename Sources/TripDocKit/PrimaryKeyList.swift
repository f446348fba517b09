import Foundation
import TripDoc

/// Primary keys appended in primary-key order (`PrimaryKeyOrder`), each found by its position
/// and each position's key found again, kept compactly: a run of consecutive canonical numbers
/// (what stores mint) as one range, or, once runs are short (keys with gaps), each number in
/// 8 bytes, and any other key as its string. What `diff` keeps of each entity's objects when it
/// matches them by their values or a remap table, instead of the objects themselves (a position
/// stands for an object).
struct PrimaryKeyList {
    /// Runs of consecutive canonical numbers, in order (while they are fewer than a third of
    /// the numbers).
    private var runs: [ClosedRange<Int64>] = []
    /// The position of each run's first key.
    private var runStarts: [Int] = []
    /// The canonical numbers one by one, in order, once runs took more room than they would.
    private var numbers: [Int64]?
    /// The other keys (and numbers that came after one of them), in primary-key order.
    private var others: [String] = []
    /// The position of the first of ``others``.
    private var othersStart = 0
    /// How many keys were appended.
    private(set) var count = 0

    /// Adds `key` at position ``count``.
    ///
    /// - Precondition: `key` follows every key added before, in primary-key order.
    mutating func append(_ key: String) {
        defer { count += 1 }
        guard others.isEmpty, let number = PrimaryKeyOrder.canonicalNumber(key) else {
            if others.isEmpty { othersStart = count }
            others.append(key)
            return
        }
        if numbers != nil {
            numbers!.append(number)
        } else if let last = runs.last, last.upperBound + 1 == number {
            runs[runs.count - 1] = last.lowerBound...number
        } else {
            runs.append(number...number)
            runStarts.append(count)
            // A run takes 24 bytes, a number 8: past a run for every three numbers, one by one.
            if runs.count > 64, runs.count * 3 > count + 1 {
                numbers = runs.flatMap { Array($0) }
                runs = []
                runStarts = []
            }
        }
    }

    /// The position of `key`, if it was added.
    func position(of key: String) -> Int? {
        if let number = PrimaryKeyOrder.canonicalNumber(key) { return position(ofNumber: number) }
        return position(amongOthers: key)
    }

    /// The position of the key that is the canonical number `number` (below 10^18, as
    /// `PrimaryKeyOrder.canonicalNumber` reads it), if it was added.
    func position(ofNumber number: Int64) -> Int? {
        if let numbers {
            var low = 0
            var high = numbers.count
            while low < high {
                let middle = (low + high) / 2
                if numbers[middle] < number { low = middle + 1 } else { high = middle }
            }
            if low < numbers.count, numbers[low] == number { return low }
        }
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].upperBound < number { low = middle + 1 } else { high = middle }
        }
        if low < runs.count, runs[low].contains(number) { return runStarts[low] + Int(number - runs[low].lowerBound) }
        // A number listed after a key that is not one.
        return others.isEmpty ? nil : position(amongOthers: String(number))
    }

    /// The position of `key` among the keys kept as strings, if it was added.
    private func position(amongOthers key: String) -> Int? {
        var low = 0
        var high = others.count
        while low < high {
            let middle = (low + high) / 2
            if PrimaryKeyOrder.precedes(others[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low < others.count && others[low] == key ? othersStart + low : nil
    }

    /// The key at `position`.
    ///
    /// - Precondition: `position` is below ``count``.
    func key(at position: Int) -> String {
        precondition(position >= 0 && position < count, "position \(position) of \(count) keys")
        if !others.isEmpty, position >= othersStart { return others[position - othersStart] }
        if let numbers { return String(numbers[position]) }
        var low = 0
        var high = runStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if runStarts[middle] <= position { low = middle } else { high = middle }
        }
        return String(runs[low].lowerBound + Int64(position - runStarts[low]))
    }
}
