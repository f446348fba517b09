import Foundation
import Testing
import TripDoc
@testable import TripDocKit

/// The keys `diff` keeps of each entity when it reads a document twice: every key found at its
/// position and every position's key given back, whether the keys run on (one range), leave
/// gaps (a number each), or are not numbers; keys never added are not found.
@Suite struct PrimaryKeyListTests {
    static let kinds: [(String, [String])] = [
        ("consecutive", (1...5_000).map(String.init)),
        ("with gaps", (1...5_000).map { String($0 * 2 + ($0 % 7 == 0 ? 1 : 0)) }),
        ("runs then gaps", (1...300).map(String.init) + (1...2_000).map { String(1_000 + $0 * 3) }),
        ("numbers then text", (0...99).map(String.init) + ["007", "a", "b-2", "k10", "k9", "ö"]),
        ("text only", (1...500).map { "key-\($0)" }.sorted { PrimaryKeyOrder.precedes($0, $1) }),
        ("large numbers", ["999999999999999998", "999999999999999999", "1000000000000000000", "99999999999999999999"]),
    ]

    @Test(arguments: kinds.indices)
    func everyKeyIsFoundAtItsPositionAndBack(kind: Int) throws {
        let (name, keys) = Self.kinds[kind]
        #expect(zip(keys, keys.dropFirst()).allSatisfy { PrimaryKeyOrder.precedes($0, $1) }, "\(name)")
        var list = PrimaryKeyList()
        for key in keys { list.append(key) }
        #expect(list.count == keys.count)
        for (position, key) in keys.enumerated() {
            #expect(list.position(of: key) == position, "\(name) \(key)")
            #expect(list.key(at: position) == key, "\(name) \(position)")
            if let number = PrimaryKeyOrder.canonicalNumber(key) { #expect(list.position(ofNumber: number) == position) }
        }
        let present = Set(keys)
        for absent in ["0", "3", "10001", "20001", "k", "key-0", "01", "-1", "1000000000000000001"] where !present.contains(absent) {
            #expect(list.position(of: absent) == nil, "\(name) \(absent)")
        }
    }
}
