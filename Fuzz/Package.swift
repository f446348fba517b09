// swift-tools-version: 6.1
// libFuzzer targets for tripdoc's document readers. A separate package so that the main
// package's build never sees the sanitizer flags: build and run it with `scripts/fuzz`, which
// passes `-sanitize=fuzzer,address` to every Swift module (ours and tripdoc's, for coverage).
import PackageDescription

// The formats only: the typed layer's macros would bring swift-syntax into a sanitized build.
let tripDoc: Target.Dependency = .product(name: "TripDocDocuments", package: "tripdoc")

let package = Package(
    name: "tripdoc-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tripdoc", path: ".."),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver (the runtime comes with -sanitize=fuzzer).
        .target(name: "CFuzzerDriver"),
        // The entry-point glue every fuzz target shares.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", tripDoc]),
        .executableTarget(name: "fuzz-plist", dependencies: ["FuzzSupport", tripDoc]),
        .executableTarget(name: "fuzz-bundle", dependencies: ["FuzzSupport", tripDoc]),
        .executableTarget(name: "fuzz-validator", dependencies: ["FuzzSupport", tripDoc]),
        // Writer–reader agreement: documents made from the bytes, over every type's whole range.
        .executableTarget(name: "fuzz-agreement", dependencies: ["FuzzSupport", tripDoc]),
    ]
)
