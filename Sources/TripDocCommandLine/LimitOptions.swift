import ArgumentParser
import TripDoc

/// `--max NAME=VALUE`: the reading limits of the commands that read documents.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max"),
        help: ArgumentHelp(
            "Change a reading limit (repeatable): "
                + DocumentLimits.Cap.allCases.map {
                    "\($0.rawValue) (\($0.meaning); default \(DocumentLimits.format(DocumentLimits.standard[$0], isSize: $0.isSize)))"
                }.joined(separator: ", ")
                + ". Sizes take K, M, G or T.",
            valueName: "name=value"))
    var assignments: [String] = []

    /// The limits: the standard ones with each `--max` applied in order.
    func limits() throws -> DocumentLimits {
        var limits = DocumentLimits.standard
        for assignment in assignments {
            do {
                try limits.set(assignment)
            } catch let error as DocumentLimitsError {
                throw ValidationError("--max \(assignment): \(error.message)")
            }
        }
        return limits
    }

    func validate() throws {
        _ = try limits()
    }
}
