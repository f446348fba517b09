import CFuzzerDriver
import Foundation

/// Runs libFuzzer's driver with `body` as the fuzz target. Call it from the executable's entry
/// point, `@_cdecl("<module>_main")`: SwiftPM links executables against `<module>_main`, and with
/// `-sanitize=fuzzer` no such symbol exists unless we define it (swiftlang/swift#75800).
///
/// `body` gets the input as `Data` over libFuzzer's own, exactly-sized buffer (no copy), so that
/// AddressSanitizer sees a read past its end. Inputs of 14 bytes or fewer are stored inline by
/// `Data` and so are copied.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: @escaping (Data) -> Void
) -> Int32 {
    fuzzBody = body
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { pointer, count in
        let data =
            if let pointer, count > 0 {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: pointer), count: count, deallocator: .none)
            } else {
                Data()
            }
        fuzzBody?(data)
        return 0
    }
}

/// The target body: a C callback cannot capture it. libFuzzer calls it from one thread.
nonisolated(unsafe) private var fuzzBody: ((Data) -> Void)?
