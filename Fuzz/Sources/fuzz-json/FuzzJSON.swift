import FuzzSupport
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// bytes → JSONFormat's reader. Read errors are expected; only crashes and sanitizer reports count.
@_cdecl("fuzz_json_main")
public func fuzzJSONMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data in
        _ = try? JSONFormat().readDocument(from: data, file: "fuzz.json")
    }
}
