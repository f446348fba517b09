import Foundation
import FuzzSupport
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// bytes → JSON document → IntegrityChecker, then a round-trip oracle: what the JSON writer makes
/// of a document must read back, and the document read back must write the same bytes.
///
/// A writer refusing a document the reader accepted (a DocumentWriteError) is allowed, unless
/// TRIPDOC_FUZZ_STRICT_WRITE=1. With TRIPDOC_FUZZ_CROSS_FORMAT=1 the document also goes through
/// the plist and bundle formats (write, read back) and must come back as the same JSON bytes.
/// Anything else breaking a round trip traps (fatalError), which libFuzzer reports as a crash.
@_cdecl("fuzz_validator_main")
public func fuzzValidatorMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    let strictWrite = environment["TRIPDOC_FUZZ_STRICT_WRITE"] == "1"
    let otherFormats: [any DocumentFormat] =
        environment["TRIPDOC_FUZZ_CROSS_FORMAT"] == "1" ? [PlistFormat(), BundleFormat()] : []
    return runFuzzer(argc, argv) { data in
        let json = JSONFormat()
        guard let document = try? json.readDocument(from: data, file: "fuzz.json") else { return }
        _ = IntegrityChecker().problems(in: document)
        guard let first = write(document, as: json, strict: strictWrite) else { return }
        let reread = readBack(first, as: json)
        _ = IntegrityChecker().problems(in: reread)
        let second = write(reread, as: json, strict: true)!
        if first != second {
            fatalError(
                "round trip: the re-read document writes different bytes\n--- first\n"
                    + String(decoding: first, as: UTF8.self) + "\n--- second\n" + String(decoding: second, as: UTF8.self))
        }
        for format in otherFormats {
            guard let bytes = write(document, as: format, strict: strictWrite) else { continue }
            let converted = write(readBack(bytes, as: format), as: json, strict: true)!
            if converted != first {
                fatalError(
                    "round trip through \(format.name): the document comes back different\n--- before\n"
                        + String(decoding: first, as: UTF8.self) + "\n--- after\n"
                        + String(decoding: converted, as: UTF8.self))
            }
        }
    }
}

/// `document` written as `format`; nil when the writer refuses it and that is allowed.
private func write(_ document: Document, as format: any DocumentFormat, strict: Bool) -> Data? {
    do {
        return try format.writeDocument(document)
    } catch {
        if strict { fatalError("round trip: the \(format.name) writer refuses a document the reader accepted: \(error)") }
        return nil
    }
}

/// What `format` reads from bytes its own writer made; that it cannot is a bug.
private func readBack(_ bytes: Data, as format: any DocumentFormat) -> Document {
    do {
        return try format.readDocument(from: bytes, file: "rewritten.\(format.name)")
    } catch {
        fatalError("round trip: the \(format.name) writer's output does not read back: \(error)")
    }
}
