import Foundation

/// Work done on both cores at once: the two closures run on two threads, and their results come
/// back in order. The closures may only read what they share (each writes its own result).
package enum TwoThreads {
    /// The results of `first` and `second`, worked out at the same time. Both see the caller's
    /// progress observer (``CodingProgress``), which a thread does not inherit by itself.
    package static func run<T, U>(_ first: () -> T, _ second: () -> U) -> (T, U) {
        let results = Results<T, U>()
        let observer = UncheckedSendable(value: CodingProgress.observer)
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = UncheckedSendable(value: (first, second))
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    CodingProgress.$observer.withValue(observer.value) {
                        if index == 0 { results.first = work.value.0() } else { results.second = work.value.1() }
                    }
                }
            }
        }
        return (results.first!, results.second!)
    }

    /// Each result, written by one thread only.
    private final class Results<T, U>: @unchecked Sendable {
        var first: T?
        var second: U?
    }

    /// The closures, handed to the threads: the compiler cannot see that they only read.
    private struct UncheckedSendable<Value>: @unchecked Sendable {
        let value: Value
    }
}
