import Foundation
import Synchronization
import TripDoc

/// The document formats tripdoc knows, and how it picks one for a file: tripdoc's three, and
/// those a program adds with ``add(_:)``.
///
/// Everything in TripDocKit that names, recognises or chooses a format asks this list
/// (``DocumentFile`` when it reads, the merge and patch outputs, ``TripDocError``'s messages),
/// so a format added once, when the program starts, is read, written and listed everywhere,
/// as `TripDocCommandLine`'s `TripDocTool.main(commandName:adding:)` does for a whole command.
public enum DocumentFormats {
    /// tripdoc's own formats: JSON, XML property list and zipped bundle.
    public static let standard: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    /// The formats added with ``add(_:)``, in the order they were added.
    private static let addedFormats = Mutex<[any DocumentFormat]>([])

    /// The formats this program added with ``add(_:)``, in the order they were added.
    public static var added: [any DocumentFormat] { addedFormats.withLock { $0 } }

    /// Every format: the ``standard`` ones, then the ``added`` ones.
    public static var all: [any DocumentFormat] { standard + added }

    /// Adds `formats` to those every TripDocKit function reads, writes and lists, for the rest of
    /// the process. Call it when the program starts, before reading a document.
    ///
    /// An added format is tried before the standard ones when a file is recognised by its first
    /// bytes, so a format whose files would also pass for one of them (JSON Lines starts with
    /// `{`, as JSON does) is recognised by its own, stricter signature.
    ///
    /// - Throws: ``DocumentFormatRegistrationError`` when a format has no name, a name that is
    ///   not lowercase, or a name or file extension that a format already has (nothing is added
    ///   then).
    public static func add(_ formats: [any DocumentFormat]) throws {
        try addedFormats.withLock { added in
            var known = standard + added
            for format in formats {
                try DocumentFormatRegistrationError.check(format, against: known)
                known.append(format)
            }
            added.append(contentsOf: formats)
        }
    }

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

    /// The format whose bytes `data` starts with, or `nil`: the added formats are asked first,
    /// then the standard ones.
    public static func recognizing(_ data: Data) -> (any DocumentFormat)? {
        let prefix = data.prefix(512)
        return (added + standard).first { $0.recognizes(prefix) }
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
        if path == "-" { return standard[0] }
        guard let format = forExtension(of: path) else { throw TripDocError.cannotChooseFormat(path: path) }
        return format
    }
}
