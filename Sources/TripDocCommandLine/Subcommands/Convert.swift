import ArgumentParser
import Foundation
import TripDoc
import TripDocKit

extension TripDocCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a document into a new store, in any format.",
            discussion: """
                Reads IN (its format recognised from its contents) and writes OUT in the format its \
                extension selects, or --to. OUT is a new store: it gets a new store identifier and \
                every identifier and reference is remapped to it consistently. Unless --renumber, \
                every model keeps its primary key and OUT's header records where it came from \
                (derivedFrom: IN's store and newest transaction, or what IN itself derives from), \
                so that tripdoc diff matches IN and OUT, and copies of one source, by key. IN is never changed; \
                OUT is written atomically, so a failure leaves no partial file. A document with \
                integrity problems (see tripdoc inspect) is refused.

                IN is read in one pass and OUT written as it goes, on threads sharing the cores \
                (reading, checking and writing; a bundle's entries are also deflated on a thread \
                of their own), so a document larger \
                than memory converts: memory holds the header, schema and history, the integrity \
                check's tables (tens of bytes per model) and a window of IN. --renumber, OUT on \
                standard output, and documents tripdoc did not write (snapshots out of order, the \
                history after the snapshots) are converted in memory instead, with the same result. \
                When standard error is a terminal, a progress line shows the entities and snapshots \
                done and the rate (TRIPDOC_PROGRESS=0 hides it, TRIPDOC_PROGRESS=1 shows it \
                anywhere).

                Examples:
                  tripdoc convert trips.json copy.json
                  tripdoc convert trips.json trips.plist
                  tripdoc convert trips.plist trips.tripbundle
                  tripdoc convert trips.json - --to json --renumber
                  tripdoc convert trips.json copy.json --remap-table map.json
                """)

        @Argument(help: "The document to read ('-' for standard input).")
        var input: String

        @Argument(help: "The document to write ('-' for standard output).")
        var output: String

        @Option(help: "The format to write: \(TripDocCommand.formatNames). Defaults to the one OUT's extension selects.")
        var to: String?

        @Option(help: "The new store's identifier (default: a new UUID).")
        var storeIdentifier: String?

        @Flag(help: "Give every model a fresh primary key (1, 2, 3, … per entity).")
        var renumber = false

        @Option(help: "Write the old → new identifier mapping to this JSON file.")
        var remapTable: String?

        @Flag(help: "Replace OUT (and the remap table) if they exist.")
        var force = false

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let format = try DocumentFormats.forWriting(output, explicit: to)
            let destination = OutputDestination(path: output, force: force)
            try destination.check(notSameAs: input)
            let tableDestination = remapTable.map { OutputDestination(path: $0, force: force) }
            try tableDestination?.check(notSameAs: input)
            try tableDestination?.check(distinctFrom: destination, as: "--remap-table")
            let limits = try limitOptions.limits()
            let progress = TerminalProgress.forStandardError()
            defer { progress?.finish() }
            let data = try DocumentFile.contents(of: input, limits: limits, mapped: true)
            let sourceFormat = try DocumentFileReader.reading(data, path: input) {
                try DocumentFile.format(of: data, path: input)
            }
            if let storeIdentifier, storeIdentifier.isEmpty {
                throw TripDocError.invalidArgument("--store-identifier must not be empty")
            }
            // One pass, the document never whole in memory, when the output is a file (which is
            // discarded if the source turns out to have problems) and keys are kept.
            if !renumber, output != "-" {
                do {
                    var table: RemapTable?
                    let written = try destination.prepare { sink in
                        try CodingProgress.$observer.withValue(progress) {
                            progress?.begin("converting \(input) to \(output)")
                            table = try DocumentFileReader.reading(data, path: input) {
                                try DocumentStreamConversion.convert(
                                    data, path: input, format: sourceFormat, limits: limits, to: format,
                                    storeIdentifier: storeIdentifier ?? UUID().uuidString,
                                    wantsRemapTable: tableDestination != nil, sink: sink)
                            }
                        }
                    }
                    progress?.finish()
                    try Self.commit(written, tableDestination.map { try $0.prepare(try table!.jsonData()) })
                    return
                } catch is DocumentStreamConversion.Unavailable {
                    // Converted in memory below.
                }
            }
            let (conversion, written) = try CodingProgress.$observer.withValue(progress) {
                progress?.begin("reading \(input)")
                let source = try DocumentFile.read(data, path: input, limits: limits)
                let conversion = try DocumentConversion(
                    source: source, storeIdentifier: storeIdentifier, renumber: renumber)
                progress?.begin("writing \(output)", total: conversion.document.snapshots.count)
                return (conversion, try format.writeDocument(conversion.document))
            }
            progress?.finish()
            let table = try tableDestination.map { try $0.prepare(try RemapTable(conversion).jsonData()) }
            try Self.commit(try destination.prepare(written), table)
        }

        /// Puts the document and its remap table in place together, once both are complete
        /// (nothing is in place while either could still fail to be made): the document first,
        /// and if the table then fails, the document is taken back when it is a file this
        /// command created (one on standard output cannot be).
        private static func commit(_ document: PreparedOutput, _ table: PreparedOutput?) throws {
            try document.commit()
            do {
                try table?.commit()
            } catch {
                document.withdraw()
                throw error
            }
        }
    }
}
