import Foundation

/// A new, empty folder under the system's temporary directory for one test, removed with all it
/// holds (documents, lock files, a failed save's leftovers) when the last reference goes away.
///
/// A suite keeps one as a stored property: Swift Testing makes a suite instance per test and
/// drops it when the test ends, so each test starts with an empty folder and leaves nothing.
public final class ScratchFolder: Sendable {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Makes the folder, named `prefix` followed by a UUID.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of `name` in the folder (nothing is created).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
