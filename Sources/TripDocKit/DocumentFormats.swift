import Foundation
import TripDoc

/// The document formats tripdoc knows, and how it picks one for a file.
public enum DocumentFormats {
    /// Every format, in the order they are tried when recognising a file.
    public static let all: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// The format called `name` (`json`), or `nil`.
    public static func named(_ name: String) -> (any DocumentFormat)? {
        all.first { $0.name == name.lowercased() }
    }

    /// The names users may pass to `--to`.
    public static var names: [String] { all.map(\.name) }

    /// The format a file's extension selects, or `nil`.
    public static func forExtension(of path: String) -> (any DocumentFormat)? {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        return all.first { $0.fileExtensions.contains(fileExtension) }
    }

    /// The format whose bytes `data` starts with, or `nil`.
    public static func recognizing(_ data: Data) -> (any DocumentFormat)? {
        let prefix = data.prefix(512)
        return all.first { $0.recognizes(prefix) }
    }

    /// The format to write `path` in: `explicit` when given, else the one its extension selects
    /// (JSON for standard output, `-`).
    ///
    /// - Throws: ``TripDocError/unknownFormatName(_:)`` or ``TripDocError/cannotChooseFormat(path:)``.
    public static func forWriting(_ path: String, explicit: String?) throws -> any DocumentFormat {
        if let explicit {
            guard let format = named(explicit) else { throw TripDocError.unknownFormatName(explicit) }
            return format
        }
        if path == "-" { return all[0] }
        guard let format = forExtension(of: path) else { throw TripDocError.cannotChooseFormat(path: path) }
        return format
    }
}
