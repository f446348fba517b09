/// A ``ModelExecutor`` that runs one job at a time, so it can be an actor's executor
/// (SwiftData's `SerialModelExecutor`).
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}
