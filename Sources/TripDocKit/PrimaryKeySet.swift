import Foundation
import TripDoc

/// Primary keys added in primary-key order (`PrimaryKeyOrder`), kept compactly: a run of
/// consecutive canonical numbers (what stores mint) as one range, any other key as its string.
/// What `diff` keeps of the objects it matched, to name A's references in B's terms.
struct PrimaryKeySet {
    /// Runs of consecutive canonical numbers, in order.
    private var runs: [ClosedRange<Int64>] = []
    /// The other keys (and numbers that came after one of them), in primary-key order.
    private var others: [String] = []

    /// Adds `key`.
    ///
    /// - Precondition: `key` follows every key added before, in primary-key order.
    mutating func append(_ key: String) {
        guard others.isEmpty, let number = Self.number(key) else {
            others.append(key)
            return
        }
        if let last = runs.last, last.upperBound < Int64.max, last.upperBound + 1 == number {
            runs[runs.count - 1] = last.lowerBound...number
        } else {
            runs.append(number...number)
        }
    }

    /// Whether `key` was added.
    func contains(_ key: String) -> Bool {
        if let number = Self.number(key) {
            var low = 0
            var high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].upperBound < number { low = middle + 1 } else { high = middle }
            }
            if low < runs.count, runs[low].contains(number) { return true }
        }
        var low = 0
        var high = others.count
        while low < high {
            let middle = (low + high) / 2
            if PrimaryKeyOrder.precedes(others[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low < others.count && others[low] == key
    }

    /// The value of `key` when it is a canonical number (ASCII digits, no leading zero) that
    /// fits 64 bits.
    private static func number(_ key: String) -> Int64? {
        let bytes = key.utf8
        guard let first = bytes.first, bytes.count <= 19, first != UInt8(ascii: "0") || bytes.count == 1,
            bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(key)
    }
}
