import TripDocCore

/// A document the bundle format cannot write as one that its reader reads back.
public enum BundleWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The archive would hold more entries than a reader accepts under the standard limits.
    case tooManyEntries(count: Int, externalValues: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooManyEntries(let count, let externalValues, let limit):
            "the bundle would hold \(count) entries (one per entity and per distinct .externalStorage value, "
                + "\(externalValues) of those), more than the \(limit) a reader accepts (entry-count); nothing was "
                + "written: write the document as JSON or a property list, which keep such values inline"
        }
    }
}
