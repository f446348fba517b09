import Synchronization

/// The primary keys of temporary identifiers minted for new models: unique in the process, and
/// short enough for Swift to keep inline in a `String` (at most 15 UTF-8 bytes), so that a new
/// model's identifier costs no allocation and no read of the system's random source, as a UUID
/// would (a bulk insert mints one per model).
///
/// A key is a prefix drawn at random once per process, a `-`, and a counter, both in base 36:
/// `k3f9q-1`, `k3f9q-2`, … The random prefix keeps keys of two processes apart should one ever
/// meet another's (temporary identifiers are not meant to leave their process).
enum TemporaryKey {
    private static let counter = Atomic<UInt64>(0)
    private static let prefix: String = {
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<5).map { _ in digits[Int(generator.next(upperBound: UInt64(digits.count)))] })
    }()

    /// A key no other call in this process returns.
    static func next() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 36)
    }
}
