import Foundation

/// Watches a long read or write: the shared coding tells it how many snapshots it has decoded
/// or encoded, a few thousand at a time, and when it finishes an entity.
public protocol CodingProgressObserver: AnyObject, Sendable {
    /// `snapshots` more snapshots were decoded or encoded; `finishedEntity` when they end one
    /// entity's snapshots.
    func advance(snapshots: Int, finishedEntity: Bool)
}

/// Where the coding finds its observer: bind one around a read or write with
/// `CodingProgress.$observer.withValue(observer) { … }`.
public enum CodingProgress {
    /// The observer of the current task or thread, if any.
    @TaskLocal public static var observer: (any CodingProgressObserver)?

    /// How many snapshots pass between reports.
    static let interval = 4096

    /// Reports `count` snapshots done if they complete an interval (called after each one).
    @inline(__always)
    static func tick(_ count: Int) {
        if count % interval == 0 { observer?.advance(snapshots: interval, finishedEntity: false) }
    }

    /// Reports the rest of an entity's `count` snapshots, and that the entity is done.
    static func finishEntity(_ count: Int) {
        observer?.advance(snapshots: count % interval, finishedEntity: true)
    }
}
