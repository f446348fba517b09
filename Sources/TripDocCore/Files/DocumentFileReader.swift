import Foundation

/// Reads a document file's bytes, with errors that name the file and say why.
public enum DocumentFileReader {
    /// The bytes of the file at `path`, or of standard input when `path` is `-`.
    ///
    /// - Throws: ``FileReadError``.
    public static func contents(of path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileReadError(path: path, reason: "it is a folder, not a document") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .uncached)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw FileReadError(path: path, reason: reason)
        }
    }
}

/// A file that could not be read at all.
public struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var path: String
    /// Why it could not be read.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}
