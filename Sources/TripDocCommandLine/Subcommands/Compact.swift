import ArgumentParser
import Foundation
import TripDocKit

extension TripDocCommand {
    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fold a document's journal into the document.",
            discussion: """
                A store that saves to a journal (the typed layer's default) appends each save to \
                NAME.journal beside the document instead of rewriting the document; every \
                tripdoc command reads the two together. compact writes the document whole, in its \
                own format, with the journal's saves, and removes the journal (the store does the \
                same when its journal grows past half the document, when it is released, and when \
                the program exits). A document without a journal is left as it is. The document is \
                replaced atomically under its lock, so a store using it at the same time is not \
                disturbed.

                Examples:
                  tripdoc compact trips.json
                """)

        @Argument(help: "The document whose journal to fold in.")
        var file: String

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let compaction = try DocumentCompaction.compact(path: file, limits: try limitOptions.limits())
            try StandardOutput.write(compaction.text)
        }
    }
}
