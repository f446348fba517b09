import Foundation

// Foundation on Linux has no `NotificationCenter.notifications(named:object:)`, the asynchronous
// sequence SwiftData apps wait for saves with (`for await _ in NotificationCenter.default
// .notifications(named: ModelContext.didSave) { … }`). tripdoc adds it, with the spelling and the
// behaviour of Apple's Foundation: the sequence observes from when it is made, keeps what is
// posted until it is read, and stops observing when it is released.
#if !canImport(Darwin)
extension NotificationCenter {
    /// The notifications of one name (and, optionally, one object) posted to a center, as an
    /// asynchronous sequence (Foundation's `NotificationCenter.Notifications`).
    ///
    /// ```swift
    /// for await note in NotificationCenter.default.notifications(named: ModelContext.didSave) {
    ///     let inserted = note.userInfo?[ModelContext.NotificationKey.insertedIdentifiers.rawValue]
    /// }
    /// ```
    public struct Notifications: AsyncSequence, Sendable {
        /// A notification posted to the center.
        public typealias Element = Notification

        private let observation: Observation

        fileprivate init(_ observation: Observation) {
            self.observation = observation
        }

        /// Reads the notifications in the order they were posted, waiting for the next one.
        public struct Iterator: AsyncIteratorProtocol {
            private var notifications: AsyncStream<Notification>.Iterator
            /// Keeps the center observed while the iterator is in use.
            private let observation: Observation

            fileprivate init(_ observation: Observation) {
                self.observation = observation
                notifications = observation.notifications.makeAsyncIterator()
            }

            /// The next notification, waiting until one is posted; `nil` once the task is
            /// cancelled.
            public mutating func next() async -> Notification? {
                await notifications.next()
            }
        }

        /// An iterator over the notifications.
        public func makeAsyncIterator() -> Iterator {
            Iterator(observation)
        }
    }

    /// The notifications named `name` (and posted by `object`, when given), from now on, as an
    /// asynchronous sequence (Foundation's `notifications(named:object:)`).
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Notifications {
        Notifications(Observation(center: self, name: name, object: object))
    }
}

/// An observer of a center that keeps what is posted until it is read, removed from the center
/// when the last sequence or iterator that uses it is released.
private final class Observation: @unchecked Sendable {
    let notifications: AsyncStream<Notification>
    private let center: NotificationCenter
    private var observer: (any NSObjectProtocol)?

    init(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        self.center = center
        let (notifications, continuation) = AsyncStream.makeStream(of: Notification.self)
        self.notifications = notifications
        observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
            nonisolated(unsafe) let notification = notification
            continuation.yield(notification)
        }
    }

    deinit {
        if let observer { center.removeObserver(observer) }
    }
}
#endif
