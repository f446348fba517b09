import Foundation

/// A document that cannot be read: which file, where in it, what was expected, what to do.
public struct DocumentReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (or `-` for standard input) as the user named it.
    public var file: String
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// The path of the value inside the document, such as `snapshots.Trip[3].startDate`.
    public var keyPath: String?
    /// What was wrong: "expected a date as an ISO 8601 string, found an integer".
    public var message: String
    /// What the user can do about it.
    public var hint: String?

    /// Creates an error.
    public init(
        file: String, location: SourceLocation? = nil, keyPath: String? = nil, message: String, hint: String? = nil
    ) {
        self.file = file
        self.location = location
        self.keyPath = keyPath
        self.message = message
        self.hint = hint
    }

    /// `trips.json: line 3, column 14: snapshots.Trip[0].startDate: expected …. Hint.`
    ///
    /// A long value quoted in the message or named in the key path (a million-digit number, a
    /// megabyte of text) is abbreviated to its start and end with its length, so the sentence
    /// stays readable (``abbreviatingLongRuns(_:)``).
    public var description: String {
        var text = file
        if let location, location != SourceLocation() { text += ": \(location)" }
        if let keyPath, !keyPath.isEmpty { text += ": at \(Self.abbreviatingLongRuns(keyPath))" }
        text += ": \(Self.abbreviatingLongRuns(message))"
        if let hint { text += ". \(hint)" }
        return text
    }

    /// The longest run of characters between two quotes, or without a space, that a message shows whole.
    static let longestRunShown = 120

    /// `text` with every run longer than 120 characters (between double quotes, or
    /// without a space) cut to its first 60 and last 20 characters around `…(N characters)…`.
    public static func abbreviatingLongRuns(_ text: String) -> String {
        guard text.count > longestRunShown else { return text }
        var result = ""
        var run = ""
        var inQuotes = false
        func flush() {
            if run.count > longestRunShown {
                result += run.prefix(60) + "…(\(run.count) characters)…" + run.suffix(20)
            } else {
                result += run
            }
            run = ""
        }
        for character in text {
            if character == "\"" {
                flush()
                result.append(character)
                inQuotes.toggle()
            } else if character == " ", !inQuotes {
                flush()
                result.append(character)
            } else {
                run.append(character)
            }
        }
        flush()
        return result
    }
}

/// A problem the shared decoder finds, before it knows the file name: a location, a key path
/// built up as the error travels out, and the message.
struct DocumentDecodingFailure: Error {
    var location: SourceLocation?
    var keyPath: [String]
    var message: String
    /// Whether the format's reader found the bytes malformed (rather than a well-formed value
    /// that does not fit the document model).
    var isMalformed = false
    /// What to do, when the failure says more than "damaged" or "fix the value".
    var hint: String?

    func pathString() -> String {
        var text = ""
        for component in keyPath.reversed() {
            if component.hasPrefix("[") || text.isEmpty { text += component } else { text += "." + component }
        }
        return text
    }
}
