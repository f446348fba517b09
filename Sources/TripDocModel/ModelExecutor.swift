/// An executor that runs a ``ModelActor``'s code with the context it owns (SwiftData's
/// `ModelExecutor`). ``DefaultSerialModelExecutor`` is the one `@ModelActor` makes.
public protocol ModelExecutor: Executor, AnyObject, Sendable {
    /// The context the executor's jobs use. Use it only from the actor the executor runs
    /// (through ``ModelActor/modelContext``): a context is not `Sendable`.
    var modelContext: ModelContext { get }
}
