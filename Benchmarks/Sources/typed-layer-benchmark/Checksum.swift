import Foundation

/// What a fetch returned, reduced to a number both sides must agree on: FNV-1a over each trip's
/// values, combined in order (for sorted fetches) or independently of order (for the others,
/// whose order neither side promises), with the number of trips.
struct Checksum: Codable, Equatable, CustomStringConvertible {
    private(set) var count = 0
    private(set) var value: UInt64 = 0

    var description: String {
        "\(count):\(String(value, radix: 16))"
    }

    /// Adds a trip whose position does not matter.
    mutating func addUnordered(name: String, destination: String, startDate: Date, endDate: Date) {
        count += 1
        value &+= Self.hash(name: name, destination: destination, startDate: startDate, endDate: endDate)
    }

    /// Adds a trip after the ones added before it.
    mutating func addOrdered(name: String, destination: String, startDate: Date, endDate: Date) {
        count += 1
        value = (value ^ Self.hash(name: name, destination: destination, startDate: startDate, endDate: endDate))
            &* 0x0000_0100_0000_01B3
    }

    /// Adds a number (such as a count of rows), in order.
    mutating func add(_ number: Int) {
        count += 1
        value = (value ^ UInt64(bitPattern: Int64(number))) &* 0x0000_0100_0000_01B3
    }

    private static func hash(name: String, destination: String, startDate: Date, endDate: Date) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func feed<S: Sequence<UInt8>>(_ bytes: S) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        feed(name.utf8)
        feed(CollectionOfOne(0))
        feed(destination.utf8)
        feed(CollectionOfOne(0))
        withUnsafeBytes(of: Int64(startDate.timeIntervalSinceReferenceDate.rounded()).littleEndian) { feed($0) }
        withUnsafeBytes(of: Int64(endDate.timeIntervalSinceReferenceDate.rounded()).littleEndian) { feed($0) }
        return hash
    }
}
