import Foundation

/// Reads a document file's bytes, with errors that name the file and say why.
public enum DocumentFileReader {
    /// The bytes of the file at `path`, or of standard input when `path` is `-`, refusing more
    /// than the document-size limit before reading them.
    ///
    /// - Throws: ``FileReadError``, or ``DocumentReadError`` for a file over the limit.
    public static func contents(of path: String, limits: DocumentLimits = .standard) throws -> Data {
        if path == "-" {
            return try standardInput(limits: limits)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw FileReadError(path: path, reason: "it is a folder, not a document") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
            try limits.checkDocumentSize(size, file: path)
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .uncached)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw FileReadError(path: path, reason: reason)
        }
    }

    /// Standard input to its end, in chunks, stopping as soon as it passes the document-size limit.
    private static func standardInput(limits: DocumentLimits) throws -> Data {
        var data = Data()
        while true {
            let chunk = FileHandle.standardInput.readData(ofLength: 1 << 20)
            if chunk.isEmpty { return data }
            data.append(chunk)
            try limits.checkDocumentSize(data.count, file: "-")
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
