import Foundation

/// Frees large values on a thread of their own, so that whoever is done with them need not wait.
///
/// The integrity check of a million snapshots keeps tables whose freeing (a release per key) took
/// a tenth of a second at the end of a conversion, while one core waited and the other had
/// nothing left to do. A process that exits meanwhile does not wait for it.
public enum BackgroundRelease {
    /// Releases `value` on another thread.
    public static func release<Value>(_ value: consuming Value) {
        let box = Box(value)
        let thread = Thread { box.empty() }
        thread.start()
    }

    /// Holds the value until the other thread empties it; nothing else touches it.
    private final class Box<Value>: @unchecked Sendable {
        private var value: Value?

        init(_ value: consuming Value) {
            self.value = value
        }

        func empty() {
            value = nil
        }
    }
}
