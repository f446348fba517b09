// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "tripdoc",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TripDoc", targets: ["TripDoc"]),
        // The same API under SwiftData's name: `import SwiftData` compiles unchanged on Linux.
        .library(name: "SwiftData", targets: ["SwiftData"]),
        // The document model and the three formats without the typed layer (and its macros):
        // what tools that only read and write documents need, such as the fuzz targets in Fuzz/.
        .library(name: "TripDocDocuments", targets: ["TripDocCore", "TripDocJSON", "TripDocPlist", "TripDocBundle"]),
        // What the command does, as a library: reading any document, converting, diffing,
        // inspecting, patching, merging (DocumentFormats, DocumentFile, DocumentDiff, …).
        .library(name: "TripDocKit", targets: ["TripDocKit"]),
        // The `tripdoc` command itself, for a package that adds a format: its tool's main.swift
        // is `TripDocTool.main(commandName:adding:)` (see samples/JSONLines).
        .library(name: "TripDocCommandLine", targets: ["TripDocCommandLine"]),
        // Documents with every attribute type at its edges, and random ones: what a format's
        // round-trip tests read and write (samples/JSONLines' tests use them).
        .library(name: "TripDocTestSupport", targets: ["TripDocTestSupport"]),
        .executable(name: "tripdoc", targets: ["tripdoc"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // `swift package generate-documentation`: the DocC catalogs (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Schema, identifiers, snapshots, the DataStore protocols, the document model and the
        // archive-store engine. Foundation, and small C targets (CWriteback, CMappedFile, CInterruptCleanup).
        .target(name: "TripDocCore", dependencies: ["CWriteback", "CMappedFile", "CInterruptCleanup"]),
        // sync_file_range and renameat2, which Swift's Glibc module does not declare (see its header).
        .target(name: "CWriteback"),
        // A SIGBUS handler that keeps a mapped input file that shrinks from stopping the process.
        .target(name: "CMappedFile"),
        // Handlers that remove writes' temporary files when the process is interrupted.
        .target(name: "CInterruptCleanup"),
        // The JSON document format.
        .target(name: "TripDocJSON", dependencies: ["TripDocCore"]),
        // libxml2, wrapped once (by TripDocPlist's XMLEventReader).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The XML property-list document format.
        .target(name: "TripDocPlist", dependencies: ["TripDocCore", "CLibXML2"]),
        // libarchive, wrapped once (by TripDocBundle's ZipArchive).
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // zlib, wrapped once (by TripDocBundle's DeflatedEntry): the bundle writer deflates its
        // entries itself, beside the writing, and ZipWriter makes the container around them.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // jemalloc, the command-line tools' allocator (see Sources/CJemalloc/shim.h).
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // The zipped bundle document format: JSON entries in one zip archive.
        .target(
            name: "TripDocBundle",
            dependencies: [
                "TripDocCore", "TripDocJSON", "CLibArchive", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The compiler plugin behind @Model, @Attribute, @Relationship, @Transient, #Unique, #Index.
        .macro(
            name: "TripDocMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]),
        // The typed model layer: @Model and the other macros, ModelContainer, ModelContext, the
        // DataStore protocols, typed history, and the document stores behind ModelConfiguration.
        .target(
            name: "TripDocModel",
            dependencies: ["TripDocCore", "TripDocJSON", "TripDocPlist", "TripDocBundle", "TripDocMacros"]),
        // The umbrella module users import: `import TripDoc`.
        .target(
            name: "TripDoc", dependencies: ["TripDocCore", "TripDocJSON", "TripDocPlist", "TripDocBundle", "TripDocModel"]),
        // `import SwiftData`: re-exports TripDoc, so SwiftData code needs no edit on Linux.
        .target(name: "SwiftData", dependencies: ["TripDoc"]),
        // What the command-line tool does, as a library: sample, show, inspect, convert.
        .target(name: "TripDocKit", dependencies: ["TripDoc"]),
        // The command-line tool's subcommands and argument parsing, as a library whose
        // `TripDocTool.main` takes the formats a package adds.
        .target(
            name: "TripDocCommandLine",
            dependencies: ["TripDocKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The command-line tool: TripDocCommandLine with tripdoc's own formats, on jemalloc.
        .executableTarget(name: "tripdoc", dependencies: ["TripDocCommandLine", "CJemalloc"]),
        // Writes and checks man/tripdoc.1 from the tool's help (scripts/generate-man).
        .executableTarget(
            name: "tripdoc-manual", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Documents with every attribute type at its edges, shared by the suites.
        .target(name: "TripDocTestSupport", dependencies: ["TripDocCore"], path: "Tests/TripDocTestSupport"),
        // Read and write speed per format, for the closing notes and the performance work.
        .executableTarget(name: "tripdoc-benchmark", dependencies: ["TripDocKit", "TripDocPlist", "CJemalloc"]),
        // The SampleTrips sample's data layer on the command line (samples/SampleTrips).
        .executableTarget(name: "SampleTrips", dependencies: ["TripDoc"], path: "samples/SampleTrips"),
        // Increments a counter through the store API; several at once test the save lock.
        .executableTarget(name: "tripdoc-stress-writer", dependencies: ["TripDocKit"]),
        .testTarget(name: "TripDocCoreTests", dependencies: ["TripDocCore", "TripDocTestSupport"]),
        .testTarget(
            name: "TripDocJSONTests", dependencies: ["TripDocJSON", "TripDocTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "TripDocPlistTests", dependencies: ["TripDocPlist", "TripDocJSON", "TripDocTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "TripDocBundleTests", dependencies: ["TripDocBundle", "TripDocPlist", "TripDocJSON", "TripDocTestSupport"]),
        .testTarget(
            name: "TripDocMacrosTests",
            dependencies: [
                "TripDocMacros",
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
            ]),
        .testTarget(name: "TripDocModelTests", dependencies: ["TripDoc", "TripDocTestSupport"]),
        // Model and persistence code written as SwiftData apps write it (`import SwiftData`,
        // non-final classes, properties without type annotations, `let`s, a `@ModelActor`), in
        // Swift 6 language mode with strict concurrency…
        .testTarget(name: "SwiftDataAppTests", dependencies: ["SwiftData", "TripDocTestSupport"]),
        // …and the same files (symbolic links to SwiftDataAppTests') in Swift 5 language mode.
        .testTarget(
            name: "SwiftDataAppSwift5Tests", dependencies: ["SwiftData", "TripDocTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "TripDocKitTests", dependencies: ["TripDocKit", "TripDocTestSupport"]),
        .testTarget(
            name: "tripdocTests", dependencies: ["tripdoc", "tripdoc-manual", "tripdoc-stress-writer", "SampleTrips"],
            resources: [.copy("Fixtures")]),
    ]
)
