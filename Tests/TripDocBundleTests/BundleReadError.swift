import Foundation
import TripDocBundle
import TripDocCore

/// What reading `data` as a bundle (named `b.tripbundle` in messages) reports, or `nil` when it
/// reads: for tests of what a reader refuses.
func bundleReadError(_ data: Data) -> DocumentReadError? {
    do {
        _ = try BundleFormat().readDocument(from: data, file: "b.tripbundle")
        return nil
    } catch {
        return error as? DocumentReadError
    }
}
