// The typed layer at app scale against GRDB over SQLite (issue 27): the SampleTrips models
// through ModelContainer/ModelContext and as GRDB Codable records, the same work on both sides,
// each piece in a fresh process of this program, medians of the repetitions, and the results'
// checksums compared. See Options for the command line; scripts/benchmark-typed-layer builds and
// runs it.
import Foundation

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("typed-layer-benchmark: \(message)\n".utf8))
    exit(status)
}

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    guard let message = error.message else {
        print(Options.usage)
        exit(0)
    }
    fail("\(message)\n\(Options.usage)", status: 2)
}

// A child process: one stage, its result as JSON on standard output.
if let stage = options.child, let kind = options.store, let path = options.path, let trips = options.sizes.first {
    do {
        let result = try stage.run(on: kind, path: path, plan: options.plan(trips: trips))
        FileHandle.standardOutput.write(try JSONEncoder().encode(result))
        exit(0)
    } catch {
        fail("\(stage.rawValue) on \(kind.rawValue): \(error)", status: 1)
    }
}

var reports: [SizeReport] = []
do {
    for trips in options.effectiveSizes {
        let plan = options.plan(trips: trips)
        var report = SizeReport(plan: plan, repetitions: options.effectiveRepetitions)
        for repetition in 1...options.effectiveRepetitions {
            FileHandle.standardError.write(Data("\(trips) trips, run \(repetition) of \(options.effectiveRepetitions)\n".utf8))
            // Stores in turn within a run, so that a slow spell of the machine falls on all of them.
            for kind in StoreKind.allCases {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("typed-layer-benchmark-\(getpid())-\(kind.rawValue)")
                try? FileManager.default.removeItem(at: directory)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let path = directory.appendingPathComponent(kind.fileName).path
                let stages: [Stage] = kind.isInMemory ? [.inMemory] : [.insert, .open, .fetchAll, .work]
                for stage in stages {
                    report.add(try ChildProcess.run(stage, on: kind, path: path, plan: plan), from: kind)
                }
            }
        }
        reports.append(report)
    }
} catch {
    fail("\(error)", status: 1)
}

if options.json {
    let data = try JSONSerialization.data(
        withJSONObject: ["sizes": reports.map(\.json)], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
} else {
    print(reports.map(\.table).joined(separator: "\n\n"))
}
let disagreements = reports.flatMap(\.disagreements)
if !disagreements.isEmpty {
    fail(disagreements.joined(separator: "\n"), status: 1)
}
