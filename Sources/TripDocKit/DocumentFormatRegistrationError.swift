import TripDoc

/// Why ``DocumentFormats/add(_:)`` refused a format: users pick a format by its name
/// (`--to NAME`) and by a file's extension, so each must select one format only.
public struct DocumentFormatRegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The refused format's name.
    public var name: String
    /// What is wrong with it, and what to do.
    public var message: String

    /// An error for the format called `name`.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The message a user reads: which format, what is wrong, what to do.
    /// The message a user reads: which format, what is wrong, what to do.
    public var description: String { "cannot add the format '\(name)': \(message)" }

    /// Throws when `format` could not be told apart from the `known` formats.
    static func check(_ format: any DocumentFormat, against known: [any DocumentFormat]) throws {
        let name = format.name
        guard !name.isEmpty, name == name.lowercased() else {
            throw Self(name: name, message: "a format's name must be lowercase and not empty; users type it after --to")
        }
        if let other = known.first(where: { $0.name == name }) {
            throw Self(name: name, message: "\(String(describing: type(of: other))) has that name already; choose another")
        }
        for fileExtension in format.fileExtensions {
            guard !fileExtension.isEmpty, fileExtension == fileExtension.lowercased(), !fileExtension.hasPrefix(".") else {
                throw Self(
                    name: name,
                    message: "its file extension '\(fileExtension)' must be lowercase, not empty and without its dot")
            }
            if let other = known.first(where: { $0.fileExtensions.contains(fileExtension) }) {
                throw Self(
                    name: name,
                    message: "the format '\(other.name)' is chosen by .\(fileExtension) already; choose another extension")
            }
        }
    }
}
