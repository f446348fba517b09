import Foundation

/// Watches a long read or write: the shared coding tells it how many snapshots it has decoded
/// or encoded, a few thousand at a time, and when it finishes an entity.
public protocol CodingProgressObserver: AnyObject, Sendable {
    /// `snapshots` more snapshots were decoded or encoded; `finishedEntity` when they end one
    /// entity's snapshots.
    func advance(snapshots: Int, finishedEntity: Bool)

    /// A reader went `bytes` further into its input (reported a megabyte or so at a time, by
    /// the readers that read a file's bytes in order: JSON and property lists).
    func advance(inputBytes bytes: Int)
}

extension CodingProgressObserver {
    /// Byte progress is optional: an observer of snapshots only ignores it.
    public func advance(inputBytes bytes: Int) {}
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

    /// How many input bytes pass between reports.
    static let inputInterval = 1 << 20

    /// Reports that a reader went `bytes` further into its input.
    static func readInput(_ bytes: Int) {
        observer?.advance(inputBytes: bytes)
    }

    /// Reports the rest of an entity's `count` snapshots, and that the entity is done.
    static func finishEntity(_ count: Int) {
        observer?.advance(snapshots: count % interval, finishedEntity: true)
    }
}
