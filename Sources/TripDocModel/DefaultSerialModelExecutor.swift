import Dispatch

/// The executor of a `@ModelActor` actor: it runs the actor's jobs one at a time on a serial
/// dispatch queue of its own, where the actor's ``ModelContext`` is used (SwiftData's
/// `DefaultSerialModelExecutor`). An executor of a container's
/// ``ModelContainer/mainContext`` runs them on the main actor instead, one at a time with the
/// main actor's code, as SwiftData runs an executor's jobs on its context's queue: the main
/// context, which the main actor uses (and autosaves), is never used on two threads at once.
///
/// The context is not `Sendable` and the executor does not share it: only code isolated to the
/// actor reaches it, through ``ModelActor/modelContext``. Models stay on the actor; pass their
/// `PersistentIdentifier`s to other actors.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    /// The context the actor's code uses.
    public let modelContext: ModelContext
    private let queue: DispatchQueue
    /// Whether the context is a container's main context, whose jobs the main actor runs.
    private let runsOnTheMainActor: Bool
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// An executor whose jobs use `modelContext` (which it then owns: use it only from the
    /// actor this executor runs). With a container's `mainContext`, the jobs run on the main
    /// actor.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        runsOnTheMainActor = modelContext.isMainActorContext
        queue = DispatchQueue(label: "TripDoc.DefaultSerialModelExecutor")
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    /// Runs `job` on the executor's queue, after the jobs enqueued before it. (The jobs of an
    /// actor on the main context never come here: the runtime gives them to the main actor,
    /// whose executor ``asUnownedSerialExecutor()`` names.)
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// The executor as the runtime refers to it: the main actor's, for the main context.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        runsOnTheMainActor ? MainActor.sharedUnownedExecutor : UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's queue, that is, in the actor's code.
    public func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    /// Stops the program unless the caller runs on this executor (what `assumeIsolated` asks).
    public func checkIsolated() {
        precondition(
            isIsolatingCurrentContext() == true, "expected to run on the model actor's executor (DefaultSerialModelExecutor)")
    }
}
