// swift-tools-version: 6.1
// A fourth document format, JSON Lines, added to tripdoc from outside: the format uses tripdoc's
// public products only, and its command, `tripdoc-jsonl`, is tripdoc's with the format in every
// subcommand. Build and test it with `swift test --package-path samples/JSONLines`.
import PackageDescription

let package = Package(
    name: "tripdoc-jsonl",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TripDocJSONLines", targets: ["TripDocJSONLines"]),
        .executable(name: "tripdoc-jsonl", targets: ["tripdoc-jsonl"]),
    ],
    dependencies: [
        .package(name: "tripdoc", path: "../.."),
    ],
    targets: [
        // The format: its syntax over tripdoc's shared coding and its JSON reader and writer.
        .target(name: "TripDocJSONLines", dependencies: [.product(name: "TripDoc", package: "tripdoc")]),
        // `tripdoc-jsonl`: tripdoc's command with JSON Lines added.
        .executableTarget(
            name: "tripdoc-jsonl",
            dependencies: ["TripDocJSONLines", .product(name: "TripDocCommandLine", package: "tripdoc")]),
        // The format through the library: round trips with tripdoc's three formats, hostile
        // input, the store engine and @Model code.
        .testTarget(
            name: "TripDocJSONLinesTests",
            dependencies: [
                "TripDocJSONLines",
                .product(name: "TripDocKit", package: "tripdoc"),
                .product(name: "TripDocTestSupport", package: "tripdoc"),
            ]),
        // `tripdoc-jsonl` run as a user runs it, and this package's use of tripdoc.
        .testTarget(name: "JSONLinesToolTests", dependencies: ["tripdoc-jsonl"]),
    ]
)
