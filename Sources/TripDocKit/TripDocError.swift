import Foundation
import TripDoc

/// What the tripdoc tool refuses to do, and what to do instead.
public enum TripDocError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file's bytes match no known format.
    case unrecognizedFormat(path: String, start: String)
    /// `--to` names no known format.
    case unknownFormatName(String)
    /// An output path's extension selects no format and `--to` was not given.
    case cannotChooseFormat(path: String)
    /// The output exists and `--force` was not given.
    case outputExists(path: String)
    /// The output is the input.
    case outputIsInput(path: String)
    /// The output path names something tripdoc must not write through or replace.
    case unsafeOutput(path: String, reason: String)
    /// Two outputs of one command (`option` names the second) are the same file.
    case outputsCollide(path: String, option: String)
    /// `--entity` names an entity the document does not have.
    case unknownEntity(name: String, path: String, known: [String])
    /// The document has integrity problems that stop the operation.
    case documentHasProblems(path: String, problems: [IntegrityProblem])
    /// `--id` names an object the document does not hold.
    case unknownObject(identifier: String, path: String)
    /// The document a migration made has integrity problems (the input's own, or new ones such
    /// as a relationship's minimum count the old models do not meet).
    case migratedDocumentHasProblems(input: String, problems: [IntegrityProblem])
    /// An argument is out of range.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .unrecognizedFormat(let path, let start):
            "\(path) is not a document tripdoc can read: it starts with \(start), expected "
                + DocumentFormats.all.map(\.signatureDescription).joined(separator: " or ")
        case .unknownFormatName(let name):
            "unknown format '\(name)'; expected one of \(DocumentFormats.names.joined(separator: ", "))"
        case .cannotChooseFormat(let path):
            "cannot tell which format to write \(path) in: use an extension ("
                + DocumentFormats.all.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: ", ")
                + ") or --to"
        case .outputExists(let path):
            "\(path) already exists; pass --force to replace it"
        case .outputIsInput(let path):
            "the output \(path) is the input; write to another file"
        case .unsafeOutput(let path, let reason):
            "cannot write \(path): \(reason); remove it or write elsewhere"
        case .outputsCollide(let path, let option):
            "\(option) names \(path == "-" ? "standard output" : path), where the document goes too; write them to different files"
        case .unknownEntity(let name, let path, let known):
            "\(path) has no entity '\(name)'; it has \(known.joined(separator: ", "))"
        case .documentHasProblems(let path, let problems):
            "\(path) has \(problems.count) integrity problem(s); run tripdoc inspect \(path) to see them all. First: "
                + problems.prefix(3).map(\.description).joined(separator: "; ")
        case .unknownObject(let identifier, let path):
            "\(path) holds no object \(identifier); tripdoc show \(path) --entity \(identifier.prefix { $0 != "/" }) lists them"
        case .migratedDocumentHasProblems(let input, let problems):
            "\(input), migrated, would have \(problems.count) integrity problem(s), so nothing was written "
                + "(tripdoc inspect \(input) shows whether it has them already). First: "
                + problems.prefix(3).map(\.description).joined(separator: "; ")
        case .invalidArgument(let message):
            message
        }
    }
}
