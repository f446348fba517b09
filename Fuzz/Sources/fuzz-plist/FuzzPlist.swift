import FuzzSupport
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// bytes → PlistFormat's reader (libxml2 underneath). Read errors are expected; only crashes and
/// sanitizer reports count.
@_cdecl("fuzz_plist_main")
public func fuzzPlistMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data in
        _ = try? PlistFormat().readDocument(from: data, file: "fuzz.plist")
    }
}
