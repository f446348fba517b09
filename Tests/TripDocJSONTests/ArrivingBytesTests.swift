import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// A reader over bytes that are still arriving (a bundle's entry as it inflates) reads exactly
/// what a reader over all of them reads: the same document, or the same error at the same place,
/// wherever the bytes happen to stop while it reads.
@Suite struct ArrivingBytesTests {
    /// What reading gives: the document, or the error's description.
    enum Outcome: Equatable, CustomTestStringConvertible {
        case read(Document)
        case refused(String)

        var testDescription: String {
            switch self {
            case .read(let document): "read \(document.snapshots.count) snapshots"
            case .refused(let message): "refused: \(message)"
            }
        }
    }

    /// What reading `bytes` gives, all at once (`step` is `nil`) or arriving `step(count)` bytes
    /// at a time.
    static func outcome(of bytes: [UInt8], arrivingBy step: ((Int) -> Int)?) -> Outcome {
        bytes.withUnsafeBytes { region in
            let decoder = DocumentDecoder()
            do {
                if let step {
                    var reader = JSONReader(arriving: region) { count in min(region.count, count + max(1, step(count))) }
                    return .read(try decoder.decode(from: &reader, file: "doc.json"))
                }
                var reader = JSONReader(bytes: region)
                return .read(try decoder.decode(from: &reader, file: "doc.json"))
            } catch {
                return .refused("\(error)")
            }
        }
    }

    /// Documents that read, and documents refused in each of the reader's ways: cut short inside
    /// each kind of token, malformed numbers, literals, strings and escapes, text after the end.
    static func texts() throws -> [String] {
        var random = RandomDocuments(seed: 7)
        let valid = [
            try String(decoding: JSONFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self),
            try String(decoding: JSONFormat().writeDocument(random.document()), as: UTF8.self),
            "\u{FEFF}" + JSONReaderStrictnessTests.document(snapshots: #"{"E":[{"$id":"1","n":-128,"next":"1"}]}"#),
        ]
        let malformed = [
            #"{"E":[{"$id":"1","n":12"#, #"{"E":[{"$id":"1","n":-"#, #"{"E":[{"$id":"1","n":1.}]}"#,
            #"{"E":[{"$id":"1","n":1e}]}"#, #"{"E":[{"$id":"1","n":01}]}"#, #"{"E":[{"$id":"1","n":1,"s":nul"#,
            #"{"E":[{"$id":"1","n":1,"s":"abc"#, #"{"E":[{"$id":"1","n":1,"s":"a\"#, #"{"E":[{"$id":"1","n":1,"s":"\u12"#,
            #"{"E":[{"$id":"1","n":1,"s":"\ud800"}]}"#, #"{"E":[{"$id":"1","n":1,}]}"#, #"{"E":[{"$id":"1","n":1}],}"#,
            #"{"E":[{"$id":"1","n":1,"nex"#, #"{"E":[{"$id":"1","n":1}]} x"#, #"{"E":[{"$i"#, #"{"E":[{"$id":"1","n":1}"#,
        ].map(JSONReaderStrictnessTests.document(snapshots:))
        // The same documents cut short at the end, where no more will ever arrive.
        let cut = valid.map { String($0.dropLast(3)) } + valid.map { String($0.prefix(while: { $0 != "]" })) }
        return valid + malformed + cut + ["", " ", "\u{FEFF}", "\u{FEFF}{", "{\"header\":"]
    }

    @Test func bytesArrivingOneAtATimeReadAsAllAtOnce() throws {
        for text in try Self.texts() {
            let bytes = Array(text.utf8)
            let whole = Self.outcome(of: bytes, arrivingBy: nil)
            let arriving = Self.outcome(of: bytes, arrivingBy: { _ in 1 })
            #expect(arriving == whole, "\(text.prefix(80))")
        }
    }

    @Test func bytesArrivingInUnevenPiecesReadAsAllAtOnce() throws {
        var state: UInt64 = 42
        for text in try Self.texts() {
            let bytes = Array(text.utf8)
            let whole = Self.outcome(of: bytes, arrivingBy: nil)
            for _ in 0..<8 {
                let arriving = Self.outcome(of: bytes) { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return Int(state >> 59) + 1  // 1 to 32 bytes
                }
                #expect(arriving == whole, "\(text.prefix(80))")
            }
        }
    }

    /// The reader waits only for bytes it needs: a value that ends where the bytes that have
    /// arrived end is read without asking for more.
    @Test func theReaderAsksForNoMoreThanItNeeds() throws {
        let bytes = Array(#"["ab",12]"#.utf8)
        try bytes.withUnsafeBytes { region in
            var asked: [Int] = []
            var reader = JSONReader(arriving: region) { count in
                asked.append(count)
                return min(region.count, count + 1)
            }
            try reader.beginArray()
            #expect(try reader.nextElement())
            #expect(try reader.readString() == "ab")
            #expect(asked.last == 4)
            #expect(try reader.nextElement())
            #expect(try reader.readInt64() == 12)
            // A number's end is only known at the byte after it.
            #expect(asked.last == 8)
            #expect(try !reader.nextElement())
            try reader.finish()
            #expect(asked.last == 9)
        }
    }
}
