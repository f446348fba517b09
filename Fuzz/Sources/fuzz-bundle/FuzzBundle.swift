import FuzzSupport
import TripDocBundle
import TripDocCore
import TripDocJSON
import TripDocPlist

/// bytes → BundleFormat's reader (zip through libarchive, then JSON entries). Read errors are
/// expected; only crashes and sanitizer reports count.
@_cdecl("fuzz_bundle_main")
public func fuzzBundleMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data in
        _ = try? BundleFormat().readDocument(from: data, file: "fuzz.tripbundle")
    }
}
