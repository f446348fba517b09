import TripDocCore

/// An actor that owns a ``ModelContext`` and runs on that context's executor (SwiftData's
/// `ModelActor`), for work on models away from the main actor: importing, bulk edits.
///
/// Write `@ModelActor actor TripImporter { … }`: the macro adds ``modelContainer``,
/// ``modelExecutor`` and `init(modelContainer:)`, which makes the actor's context. In the
/// actor, ``modelContext`` is that context and `self[id, as: Trip.self]` the model with an
/// identifier. Models do not cross actors; their `PersistentIdentifier`s (`Sendable`) do, and
/// a context resolves them with ``ModelContext/model(for:)``. A context sees what another
/// context of the same container saved when it fetches again.
public protocol ModelActor: Actor {
    /// The container whose stores the actor's context uses.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor runs on, which holds its context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its ``modelExecutor``, which must be a ``SerialModelExecutor``
    /// (``DefaultSerialModelExecutor`` is).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialModelExecutor else {
            preconditionFailure(
                "\(Self.self).modelExecutor is a \(type(of: modelExecutor)), which is not a SerialModelExecutor; "
                    + "an actor needs a serial executor: use DefaultSerialModelExecutor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The context of the actor: use it only from the actor's own code.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with an identifier, as `T`: the one registered in the actor's context, else one
    /// made from its store's snapshot; `nil` when no store holds it or it is not a `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as type: T.Type) -> T? {
        modelContext.existingModel(identifiedBy: id, as: type)
    }
}
