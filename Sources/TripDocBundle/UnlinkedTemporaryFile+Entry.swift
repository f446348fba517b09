import TripDocCore

extension UnlinkedTemporaryFile {
    /// Runs `body`, which keeps the archive entry `entry` in a temporary file, turning a
    /// ``Failure`` into an error of that entry.
    static func keeping<T>(_ entry: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as Failure {
            throw ZipArchiveError.temporaryFileFailed(entry: entry, step: failure.step, code: failure.code)
        }
    }
}
