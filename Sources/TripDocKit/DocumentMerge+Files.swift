import Foundation
import TripDoc

extension DocumentMerge {
    /// `tripdoc merge` as a library: reads the three documents (two at a time, one per core),
    /// merges them and, when they combine or `keepConflicts` is given, writes the result to
    /// `output` (atomically) in `format`, or the format OUT's extension selects, or OURS' own.
    /// OUT may be OURS when `output` may replace files (what a git merge driver asks).
    ///
    /// - Throws: ``PatchError``, ``TripDocError``, `FileReadError` and `DocumentReadError`.
    public static func mergeFiles(
        base: String, ours: String, theirs: String, output: OutputDestination, format: String? = nil,
        keepConflicts: Side? = nil, author: String = "tripdoc-merge", limits: DocumentLimits = .standard,
        progress: TerminalProgress? = nil
    ) throws -> DocumentMerge {
        if [base, ours, theirs].filter({ $0 == "-" }).count > 1 {
            throw TripDocError.invalidArgument("only one of BASE, OURS and THEIRS can be standard input")
        }
        try OutputDestination(path: output.path, force: true).check(notSameAs: base)
        try OutputDestination(path: output.path, force: true).check(notSameAs: theirs)
        if !output.force { try output.check(notSameAs: ours) }
        let explicit = try format.map { try DocumentFormats.forWriting(output.path, explicit: $0) }
        let (merge, written, files) = try CodingProgress.$observer.withValue(progress) {
            progress?.begin("reading \(base), \(ours) and \(theirs)")
            // BASE and THEIRS as records (what comparing needs) one after the other on one
            // thread, OURS whole (what the merge changes) on the other.
            let (first, second) = TwoThreads.run(
                { Result<Loaded, any Error> { .records(try DocumentFile.readRecords(base, limits: limits), try DocumentFile.readRecords(theirs, limits: limits)) } },
                { Result<Loaded, any Error> { .document(try DocumentFile.read(ours, limits: limits)) } })
            guard case .records(let baseRecords, let theirsRecords) = try first.get(),
                case .document(let oursFile) = try second.get()
            else { preconditionFailure("each thread loads what it was given") }
            progress?.begin("merging")
            let merge = try DocumentMerge(
                base: baseRecords, ours: oursFile.document, theirs: theirsRecords,
                paths: (base, ours, theirs), keepConflicts: keepConflicts, author: author,
                readTheirs: { try DocumentFile.read(theirs, limits: limits).document })
            var written: Data?
            if let document = merge.document {
                let format = explicit ?? DocumentFormats.forExtension(of: output.path) ?? oursFile.format
                progress?.begin("writing \(output.path)", total: document.snapshots.count)
                written = try format.writeDocument(document)
            }
            return (merge, written, (baseRecords, oursFile, theirsRecords))
        }
        progress?.finish()
        if let written { try output.write(written) }
        withExtendedLifetime(files) {}
        return merge
    }

    /// What one of the reading threads loaded.
    private enum Loaded {
        case records(DocumentRecords, DocumentRecords)
        case document(DocumentFile)
    }

    /// The conflicts as `merge --json` prints them: `{"conflicts": [{"kind", "object",
    /// "property", "ours", "theirs"}], "merged": BOOL, "written": BOOL}` (`property` only when
    /// one is in conflict; `object` as `Entity/key`).
    public func jsonData() throws -> Data {
        struct Report: Encodable {
            struct Entry: Encodable {
                var kind: String
                var object: String
                var property: String?
                var ours: String
                var theirs: String
            }
            var conflicts: [Entry]
            var merged: Bool
            var written: Bool
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(
            Report(
                conflicts: conflicts.map {
                    .init(kind: $0.kind.rawValue, object: $0.object.description, property: $0.property, ours: $0.ours, theirs: $0.theirs)
                }, merged: conflicts.isEmpty, written: document != nil))
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The conflicts as text, one a line (empty when there are none).
    public var text: String {
        conflicts.map { "conflict: \($0)\n" }.joined()
    }
}
