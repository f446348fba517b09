import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a SampleTrips document.",
            discussion: """
                Writes trips with their bucket lists and places to stay, relationships both ways. \
                The same --trips and --seed always give the same bytes. The format is chosen by the \
                output's extension (\(TripDocCommand.formatExtensions)) or --to. The document is written as \
                it is made, never whole in memory, so any size takes under 100 MB of memory: a file \
                atomically (nothing is left if writing fails), standard output as it comes.

                Examples:
                  tripdoc sample -o trips.json
                  tripdoc sample -o big.json --trips 100000 --seed 7
                  tripdoc sample -o trips.plist
                  tripdoc sample -o trips.tripbundle
                  tripdoc sample -o story.json --history
                """)

        @Option(name: .shortAndLong, help: "The document to write ('-' for standard output).")
        var output: String

        // Unconditional, so that `--trips -1` is a value to refuse, not a missing one.
        @Option(parsing: .unconditional, help: "How many trips to generate (0 to 10000000).")
        var trips: Int = 3

        @Option(help: "The seed of the generator; the same seed gives the same document.")
        var seed: UInt64 = 1

        @Option(help: "The format to write: \(TripDocCommand.formatNames). Defaults to the one the output's extension selects.")
        var to: String?

        @Flag(
            help: "Save the sample through the store so its history tells a story: the app inserts the trips, the widget adds and then updates a place to stay, the app deletes the first trip.")
        var history = false

        @Flag(help: "Replace the output if it exists.")
        var force = false

        func validate() throws {
            guard (0...SampleTrips.maximumTrips).contains(trips) else {
                throw ValidationError("--trips must be from 0 to \(SampleTrips.maximumTrips), not \(trips)")
            }
        }

        func run() throws {
            let format = try DocumentFormats.forWriting(output, explicit: to)
            let destination = OutputDestination(path: output, force: force)
            try destination.check()
            // Written as it is made: a file atomically, standard output piece by piece.
            try destination.writeAsMade { sink in
                var writer = format.makeStreamWriter(sink: sink)
                try SampleTrips.write(trips: trips, seed: seed, history: history, to: &writer)
            }
        }
    }
}
