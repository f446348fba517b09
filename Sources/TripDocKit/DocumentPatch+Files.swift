import Foundation
import TripDoc

extension DocumentPatch {
    /// `tripdoc patch` as a library: reads the document at `documentPath` and the patch at
    /// `patchPath` (either may be `-`, standard input), applies the patch and writes the result
    /// to `output` (atomically: nothing is written when the patch does not apply) in `format`,
    /// or the format OUT's extension selects, or the document's own.
    ///
    /// - Throws: ``PatchError``, ``TripDocError`` (the output exists, is the input, or a format
    ///   is unknown), `FileReadError` and `DocumentReadError`.
    public static func applyFile(
        _ patchPath: String, to documentPath: String, output: OutputDestination, format: String? = nil,
        options: ApplyOptions = ApplyOptions(), limits: DocumentLimits = .standard, progress: TerminalProgress? = nil
    ) throws -> ApplyOutcome {
        if documentPath == "-", patchPath == "-" { throw TripDocError.invalidArgument("only one of DOC and PATCH can be standard input") }
        try output.check(notSameAs: documentPath)
        try output.check(notSameAs: patchPath)
        let explicit = try format.map { try DocumentFormats.forWriting(output.path, explicit: $0) }
        let patch = try read(patchPath, limits: limits)
        let (source, outcome, written) = try CodingProgress.$observer.withValue(progress) {
            progress?.begin("reading \(documentPath)")
            var source = try DocumentFile.read(documentPath, limits: limits)
            progress?.begin("applying \(patchPath)")
            let outcome = try patch.apply(to: &source.document, path: documentPath, options: options)
            let format = explicit ?? DocumentFormats.forExtension(of: output.path) ?? source.format
            progress?.begin("writing \(output.path)", total: source.document.snapshots.count)
            return (source, outcome, try format.writeDocument(source.document))
        }
        progress?.finish()
        try output.write(written)
        withExtendedLifetime(source) {}
        return outcome
    }
}
