import Foundation

/// A place in a document file: a line and column in a text format, an entry of an archive, or both.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The archive entry, for formats made of several entries.
    public var entry: String?
    /// The 1-based line.
    public var line: Int?
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int?

    /// Creates a location.
    public init(entry: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.entry = entry
        self.line = line
        self.column = column
    }

    /// `line 3, column 14`, `entry snapshots/Trip.json, line 3, column 14`, …
    public var description: String {
        var parts: [String] = []
        if let entry { parts.append("entry \(entry)") }
        if let line { parts.append("line \(line)") }
        if let column { parts.append("column \(column)") }
        return parts.joined(separator: ", ")
    }
}
