import Foundation
import Testing
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist
import TripDocTestSupport

/// FORMATS 3.7's `Decimal` rule, checked against an implementation of its text alone (`Spec`
/// below, which asks neither `DecimalCoding` nor Foundation's parser): over random texts and
/// random `Decimal`s (38 and 39 significant digits, the extreme exponents, negative zero, NaN),
/// every reader accepts exactly the texts the rule accepts, with their exact value; every writer
/// writes exactly the `Decimal`s of at most 38 significant digits, in the rule's plain notation,
/// and reads them back equal, in each format and through `ArchiveStore`.
@Suite struct DecimalAgreementTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// FORMATS 3.7, implemented from its text.
    enum Spec {
        /// An exact value: `-` when `isNegative`, `digits` × 10^`exponent`, `digits` without
        /// leading or trailing zeros (empty for zero, which has no sign).
        struct Value: Equatable, CustomStringConvertible {
            var isNegative: Bool
            var digits: String
            var exponent: Int

            init(isNegative: Bool, integer: String, exponent: Int) {
                var digits = Substring(integer.drop { $0 == "0" })
                var exponent = exponent
                while digits.last == "0" {
                    digits.removeLast()
                    exponent += 1
                }
                self.digits = String(digits)
                self.isNegative = isNegative && !digits.isEmpty
                self.exponent = digits.isEmpty ? 0 : exponent
            }

            /// A `Decimal`'s value, from Foundation's own view of it (sign, integer significand,
            /// exponent).
            init(_ decimal: Decimal) {
                self.init(isNegative: decimal.sign == .minus, integer: decimal.significand.description, exponent: decimal.exponent)
            }

            /// Zero, or at most 38 significant digits, none below 10^-128, and a magnitude of at
            /// most (2^128 - 1) × 10^127.
            var isAccepted: Bool {
                if digits.isEmpty { return true }
                guard digits.count <= 38, exponent >= -128 else { return false }
                let largest = "340282366920938463463374607431768211455" + String(repeating: "0", count: 127)
                let length = digits.count + exponent
                if length != largest.count { return length < largest.count }
                return digits + String(repeating: "0", count: exponent) <= largest
            }

            /// Plain notation, as tripdoc writes it.
            var text: String {
                if digits.isEmpty { return "0" }
                let sign = isNegative ? "-" : ""
                if exponent >= 0 { return sign + digits + String(repeating: "0", count: exponent) }
                let fraction = -exponent
                if digits.count > fraction { return sign + digits.dropLast(fraction) + "." + digits.suffix(fraction) }
                return sign + "0." + String(repeating: "0", count: fraction - digits.count) + digits
            }

            var description: String { "\(isNegative ? "-" : "")\(digits.isEmpty ? "0" : digits)e\(exponent)" }
        }

        /// The value of a text of the grammar, `nil` for any other text (and for `NaN`).
        static func value(of text: String) -> Value? {
            guard let match = text.wholeMatch(of: /(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?/) else { return nil }
            let fraction = match.3.map(String.init) ?? ""
            var exponent = 0
            if let digits = match.5 {
                let significant = digits.drop { $0 == "0" }
                exponent = significant.count > 12 ? 1_000_000_000_000 : Int(significant) ?? 0
                if match.4 == "-" { exponent = -exponent }
            }
            return Value(isNegative: match.1 == "-", integer: String(match.2) + fraction, exponent: exponent - fraction.count)
        }
    }

    /// Random texts near and inside the grammar, and random `Decimal`s, reproducibly.
    struct RandomDecimals {
        private var random: SplitMix
        init(seed: UInt64) { random = SplitMix(seed: seed) }
        mutating func next() -> UInt64 { random.next() }
        mutating func below(_ bound: Int) -> Int { random.below(bound) }

        /// A digit count: often 1 to 3, often 36 to 40, sometimes up to 200.
        mutating func count() -> Int {
            switch below(4) {
            case 0: 1 + below(3)
            case 1: 36 + below(5)
            case 2: 1 + below(45)
            default: below(3) == 0 ? 41 + below(160) : 1 + below(40)
            }
        }

        mutating func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(below(10))) })
        }

        /// Runs of zeros around the digits, so that significant digits and written digits differ.
        mutating func zeros() -> String { below(2) == 0 ? "" : String(repeating: "0", count: below(3) == 0 ? below(200) : below(5)) }

        /// An exponent: small, at the edges of −128…127 shifted by up to 40 digits, or huge.
        mutating func exponent() -> String {
            let magnitude: Int
            switch below(5) {
            case 0: magnitude = below(10)
            case 1: magnitude = 80 + below(130)
            case 2: magnitude = 160 + below(20)
            case 3: magnitude = below(3) == 0 ? 1 << 62 : 1_000 + below(100_000)
            default: magnitude = below(300)
            }
            let sign = ["", "+", "-", "-"][below(4)]
            return ["e", "E"][below(2)] + sign + zeros().prefix(3) + String(magnitude)
        }

        /// A text of the grammar, or one a character away from it.
        mutating func text() -> String {
            var text = below(2) == 0 ? "-" : ""
            text += zeros() + digits(count())
            if below(2) == 0 { text += "." + digits(count()) + zeros() }
            if below(3) != 0 { text += exponent() }
            switch below(12) {
            case 0: text = "+" + text
            case 1: text += ["x", " ", ".", "e", "e+", "-"][below(6)]
            case 2: text = String(text.dropFirst(below(max(text.count, 1))))
            case 3: text = ["NaN", "nan", "-NaN", "", "-", ".5", "5.", "0x10", "Infinity", "1e", "--1", "1.e5", "١"][below(13)]
            default: break
            }
            return text
        }

        /// A `Decimal` Foundation holds: a mantissa of 1 to 39 digits (at most 2^128 − 1), some
        /// ending in zeros, at any exponent, with the edges often; or NaN, or a zero.
        mutating func decimal() -> Decimal {
            switch below(16) {
            case 0: return .nan
            case 1: return [Decimal(-0.0), Decimal(sign: .minus, exponent: 0, significand: 0), Decimal(0)][below(3)]
            case 2: return [.greatestFiniteMagnitude, .leastFiniteMagnitude, .leastNonzeroMagnitude, -Decimal.leastNonzeroMagnitude][below(4)]
            default: break
            }
            let exponent = [-128, 127, -128 + below(4), 127 - below(4), below(256) - 128][below(5)]
            let sign: FloatingPointSign = below(2) == 0 ? .minus : .plus
            var length = [38, 39, 39, 1 + below(39)][below(4)]
            var mantissa = digits(length)
            if length == 39 {
                mantissa = "3" + String(mantissa.dropFirst())
                if mantissa > "340282366920938463463374607431768211455" { mantissa = "340282366920938463463374607431768211455" }
            }
            while mantissa.count > 1, mantissa.first == "0" { mantissa.removeFirst() }
            length = mantissa.count
            let trailing = below(3) == 0 ? below(length) : 0
            if trailing > 0, mantissa.dropLast(trailing).contains(where: { $0 != "0" }) {
                // A mantissa ending in zeros, which Foundation keeps when it adds two values at
                // the same exponent: the mantissa minus 1 (ending in 9), plus 1.
                var lessOne = Array(mantissa.dropLast(trailing).utf8) + Array(repeating: UInt8(ascii: "0"), count: trailing)
                var index = lessOne.count - 1
                while lessOne[index] == UInt8(ascii: "0") {
                    lessOne[index] = UInt8(ascii: "9")
                    index -= 1
                }
                lessOne[index] -= 1
                let base = Decimal(sign: sign, exponent: exponent, significand: Decimal(string: String(decoding: lessOne, as: UTF8.self))!)
                return base + Decimal(sign: sign, exponent: exponent, significand: 1)
            }
            let significand = Decimal(string: mantissa)!
            return Decimal(sign: sign, exponent: exponent, significand: significand)
        }
    }

    /// Of random texts, the rule and the reader accept the same ones, and the value read is the
    /// text's exact value.
    @Test(arguments: 1...4)
    func theReaderAcceptsExactlyTheTextsTheRuleAccepts(seed: Int) {
        var random = RandomDecimals(seed: UInt64(seed))
        var accepted = 0
        for _ in 0..<5_000 {
            let text = random.text()
            let read = DecimalCoding.value(of: text)
            if text == "NaN" {
                #expect(read?.isNaN == true)
                continue
            }
            let expected = Spec.value(of: text).flatMap { $0.isAccepted ? $0 : nil }
            #expect(read.map(Spec.Value.init) == expected, "\"\(text)\"")
            if expected != nil { accepted += 1 }
        }
        #expect(accepted > 1_000, "the texts reach both sides of the rule")
    }

    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("-0.000", "0"), ("0e300", "0"), ("-0e-99999999999999999999", "0"),
        ("12.50", "12.5"), ("1E3", "1000"), ("0.1E-2", "0.001"), ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
        ("1e128", "1" + String(repeating: "0", count: 128)), ("10e127", "1" + String(repeating: "0", count: 128)),
        ("34028236692093846346337460743176821145e128", "34028236692093846346337460743176821145" + String(repeating: "0", count: 128)),
        ("0." + String(repeating: "0", count: 127) + "10", "0." + String(repeating: "0", count: 127) + "1"),
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
    ])
    func aTextIsReadAsItsExactValue(text: String, written: String) throws {
        let value = try #require(DecimalCoding.value(of: text))
        #expect(DecimalCoding.text(of: value) == written)
    }

    @Test(arguments: [
        "1e-129", "1.5e-128", "123456789012345678901234567890123456789", "1e166",
        "34028236692093846346337460743176821146e128", "1e99999999999999999999", "12abc", "+1", "1.", ".1", " 1", "1e", "0x1",
    ])
    func aTextOutsideTheRuleIsRefused(text: String) {
        #expect(DecimalCoding.value(of: text) == nil)
    }

    /// Of random `Decimal`s, each writer refuses exactly those of 39 significant digits; it writes
    /// the others in the rule's plain notation, and reads them back equal.
    @Test(arguments: formats, 1...3)
    func everyWriterWritesExactlyTheDecimalsTheRuleAccepts(format: any DocumentFormat, seed: Int) throws {
        let schema = Schema([Schema.Entity(name: "Price", attributes: [.init("amount", .decimal)])])
        var random = RandomDecimals(seed: UInt64(seed) << 8)
        var written = 0
        for round in 0..<300 {
            let decimal = random.decimal()
            let spec = Spec.Value(decimal)
            let storable = decimal.isNaN || spec.isAccepted
            #expect(storable == (decimal.isNaN || spec.digits.count <= 38), "\(spec): only 39 digits are refused")
            #expect(DecimalCoding.isStorable(decimal) == storable, "\(spec)")
            if storable, !decimal.isNaN {
                #expect(DecimalCoding.text(of: decimal) == spec.text, "\(spec)")
                // The text earlier versions wrote (Foundation's description), so documents keep their bytes.
                #expect(DecimalCoding.text(of: decimal) == decimal.description, "\(spec)")
            }
            var document = Document.empty(schema: schema, storeIdentifier: "S")
            let id = PersistentIdentifier(storeIdentifier: "S", entityName: "Price", primaryKey: "1")
            document.snapshots = [DefaultSnapshot(persistentIdentifier: id, values: ["amount": .decimal(decimal)])]
            document.header.nextPrimaryKeys = ["Price": 2]
            let bytes: Data
            do {
                bytes = try format.writeDocument(document)
            } catch let error as DocumentWriteError {
                #expect(!storable, "\(format.name), round \(round), \(spec): refused \(error)")
                continue
            }
            #expect(storable, "\(format.name), round \(round), \(spec): written, though the rule refuses it")
            written += 1
            let read = try format.readDocument(from: bytes, file: "decimal.\(format.name)")
            guard case .decimal(let back) = read.snapshots.first?.values["amount"] else {
                Issue.record("\(format.name), round \(round): no decimal read back")
                continue
            }
            if decimal.isNaN { #expect(back.isNaN) } else { #expect(Spec.Value(back) == spec, "\(format.name), round \(round)") }
        }
        #expect(written > 100)
    }

    /// A text placed in a JSON or property-list document is accepted by its reader exactly when
    /// the rule accepts it.
    @Test(arguments: 1...2)
    func theDocumentReadersAcceptExactlyTheTextsTheRuleAccepts(seed: Int) throws {
        let schema = Schema([Schema.Entity(name: "Price", attributes: [.init("amount", .decimal)])])
        var document = Document.empty(schema: schema, storeIdentifier: "S")
        let id = PersistentIdentifier(storeIdentifier: "S", entityName: "Price", primaryKey: "1")
        document.snapshots = [DefaultSnapshot(persistentIdentifier: id, values: ["amount": .decimal(Decimal(string: "1234.5")!)])]
        document.header.nextPrimaryKeys = ["Price": 2]
        let json = String(decoding: try JSONFormat().writeDocument(document), as: UTF8.self)
        let plist = String(decoding: try PlistFormat().writeDocument(document), as: UTF8.self)
        #expect(json.contains("\"1234.5\"") && plist.contains("<string>1234.5</string>"))
        var random = RandomDecimals(seed: UInt64(seed) << 16)
        for _ in 0..<400 {
            let text = random.text()
            let expected = text == "NaN" ? nil : Spec.value(of: text).flatMap { $0.isAccepted ? $0 : nil }
            for (format, source) in [
                (JSONFormat() as any DocumentFormat, json.replacingOccurrences(of: "\"1234.5\"", with: "\"\(text)\"")),
                (PlistFormat(), plist.replacingOccurrences(of: "<string>1234.5</string>", with: "<string>\(text)</string>")),
            ] {
                do {
                    let read = try format.readDocument(from: Data(source.utf8), file: "d.\(format.name)")
                    guard case .decimal(let value) = read.snapshots.first?.values["amount"] else {
                        Issue.record("\(format.name): no decimal")
                        continue
                    }
                    if text == "NaN" { #expect(value.isNaN) } else { #expect(Spec.Value(value) == expected, "\(format.name): \"\(text)\"") }
                } catch let error as DocumentReadError {
                    #expect(expected == nil && text != "NaN", "\(format.name): \"\(text)\" refused: \(error.message)")
                    #expect(error.message.contains("at most 38 significant digits") || error.message.contains("expected a decimal"))
                }
            }
        }
    }

    /// Through a store: a save of a `Decimal` the rule refuses fails and leaves the file; every
    /// other save reads back equal in a store opened afresh.
    @Test(arguments: formats)
    func whatAStoreSavesItReadsAgain(format: any DocumentFormat) throws {
        let scratch = try ScratchFolder("decimal-agreement")
        let path = scratch.file("store.\(format.fileExtensions[0])").path
        let schema = Schema([Schema.Entity(name: "Price", attributes: [.init("amount", .decimal)])])
        let store = try ArchiveStore(path: path, format: format, schema: schema)
        var random = RandomDecimals(seed: 77)
        var saved: [Decimal] = []
        var refused = 0
        for round in 0..<40 {
            let decimal = random.decimal()
            let storable = decimal.isNaN || Spec.Value(decimal).isAccepted
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            do {
                try store.save(
                    DataStoreSaveChangesRequest(inserted: [
                        DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Price"), values: ["amount": .decimal(decimal)])
                    ]))
                #expect(storable, "\(format.name), round \(round): saved \(Spec.Value(decimal))")
                saved.append(decimal)
            } catch let error as SaveChangesError {
                #expect(!storable, "\(format.name), round \(round): \(error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "a refused save leaves the file")
                refused += 1
            }
        }
        let reopened = try ArchiveStore(path: path, format: format, schema: schema)
        let read = try reopened.fetchSnapshots(entityName: "Price").compactMap { snapshot -> Decimal? in
            guard case .decimal(let value) = snapshot.values["amount"] else { return nil }
            return value
        }
        #expect(read.map { $0.isNaN ? nil : Spec.Value($0) } == saved.map { $0.isNaN ? nil : Spec.Value($0) })
        #expect(refused > 0 && saved.count > 10)
    }
}
