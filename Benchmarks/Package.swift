// swift-tools-version: 6.1
// The typed layer measured against GRDB over SQLite, the peer a Swift developer on Linux picks for
// app data today (issue 27). A separate package so that users of the library never build GRDB:
// build and run it with `scripts/benchmark-typed-layer`.
import PackageDescription

let package = Package(
    name: "tripdoc-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tripdoc", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The SampleTrips models through ModelContainer/ModelContext and as GRDB Codable records,
        // the same work on both sides, and a table of the two.
        .executableTarget(
            name: "typed-layer-benchmark",
            dependencies: [
                .product(name: "TripDoc", package: "tripdoc"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // The data generator, the checksums' agreement on both sides, the report and the options.
        .testTarget(name: "typed-layer-benchmarkTests", dependencies: ["typed-layer-benchmark"]),
    ]
)
