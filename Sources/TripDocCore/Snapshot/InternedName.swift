import Foundation

/// A name kept once for the whole process — a store identifier, an entity name — and the number
/// that stands for it. A ``PersistentIdentifier`` holds the numbers, so copying one (which a
/// conversion does millions of times, on several threads) copies no string and counts no
/// references: a shared store identifier's reference count was a quarter of a conversion's time.
///
/// Names are told apart as Swift strings are, under Unicode canonical equivalence (as documents'
/// referring names are matched, FORMATS 1.2): two spellings of one name are one name, which reads
/// back in Unicode Normalization Form C, the only spelling documents hold (``NameNormalization``):
/// an identifier made with `"Cafe\u{301}"` is written as `"Café"`, never in a spelling a reader
/// refuses. The table only grows: a process names a few stores and entities.
struct InternedName: Hashable, Sendable {
    /// The name's number in the table.
    let number: UInt32

    /// The number of `text`, given on first sight.
    init(_ text: String) {
        number = Self.table.number(of: text)
    }

    /// The number of `text` when the process has met the name before, `nil` otherwise (without
    /// keeping it: for a look-up by a name that may be of nothing held).
    init?(ifKnown text: String) {
        guard let number = Self.table.existingNumber(of: text) else { return nil }
        self.number = number
    }

    /// The name.
    var text: String { Self.table.text(of: number) }

    private static let table = Table()

    /// The names, by number: chunks that never move once made, so that a number's name is read
    /// without the lock (a number is only ever handed on after its name was stored).
    private final class Table: @unchecked Sendable {
        private static let chunkSize = 1 << 10
        private static let chunkCount = 1 << 16
        private let lock = NSLock()
        private var numbers: [String: UInt32] = [:]
        private var count = 0
        private let chunks = UnsafeMutablePointer<UnsafeMutablePointer<String>?>.allocate(capacity: Table.chunkCount)

        init() {
            chunks.initialize(repeating: nil, count: Self.chunkCount)
        }

        func number(of text: String) -> UInt32 {
            lock.lock()
            defer { lock.unlock() }
            if let number = numbers[text] { return number }
            let (chunk, place) = count.quotientAndRemainder(dividingBy: Self.chunkSize)
            precondition(chunk < Self.chunkCount, "more than \(Self.chunkSize * Self.chunkCount) distinct names")
            if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
            (chunks[chunk]! + place).initialize(
                to: NameNormalization.isNFC(text) ? text : text.precomposedStringWithCanonicalMapping)
            let number = UInt32(count)
            numbers[text] = number
            count += 1
            return number
        }

        func existingNumber(of text: String) -> UInt32? {
            lock.lock()
            defer { lock.unlock() }
            return numbers[text]
        }

        func text(of number: UInt32) -> String {
            let (chunk, place) = Int(number).quotientAndRemainder(dividingBy: Self.chunkSize)
            return chunks[chunk]![place]
        }
    }
}
