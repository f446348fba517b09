import Foundation
import TripDocCore

extension ModelContext {
    /// Posted when a context is about to send its unsaved changes to its stores (SwiftData's
    /// `ModelContext.willSave`), with the context as the object and no `userInfo`.
    public static let willSave = Notification.Name("SwiftData.ModelContext.willSave")

    /// Posted when a context's stores have taken its changes (SwiftData's `ModelContext.didSave`),
    /// with the context as the object. The `userInfo` holds, under each ``NotificationKey``'s
    /// `rawValue`, the `[PersistentIdentifier]` of the models inserted (by their permanent
    /// identifiers), updated and deleted.
    public static let didSave = Notification.Name("SwiftData.ModelContext.didSave")

    /// The keys of a ``didSave`` notification's `userInfo` (SwiftData's `NotificationKey`); the
    /// dictionary is keyed by their `rawValue`.
    public enum NotificationKey: String, Sendable {
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save updated.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
        /// Not posted by tripdoc: every model a save touches is named by the keys above.
        case invalidatedAllIdentifiers
        /// Not posted by tripdoc, whose stores have no query generations.
        case queryGeneration
    }

    /// Does nothing more than the context already did: tripdoc registers every insert, change
    /// and deletion as it is made (``insertedModelsArray``, ``hasChanges`` and fetches that
    /// include pending changes are always up to date), so nothing is left pending here.
    /// SwiftData's spelling, for code that calls it before reading those.
    public func processPendingChanges() {}

    /// The models the stores of one save took, named in ``didSave``.
    struct SavedModels {
        private(set) var inserted: [any PersistentModel] = []
        private(set) var updated: [any PersistentModel] = []
        private(set) var deleted: [PersistentIdentifier] = []

        var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

        /// Adds what one store took. A deleted model's identifier is taken now: it is the one
        /// the store deleted whatever becomes of the object.
        mutating func append(inserted: [any PersistentModel], updated: [any PersistentModel], deleted: [any PersistentModel]) {
            // One store's lists are shared, not copied (a bulk insert's is as long as the save).
            if self.inserted.isEmpty { self.inserted = inserted } else { self.inserted += inserted }
            if self.updated.isEmpty { self.updated = updated } else { self.updated += updated }
            self.deleted += deleted.map(\.persistentModelID)
        }
    }

    /// Posts ``didSave`` for `saved`; inserted models are named by the permanent identifiers
    /// their save gave them.
    func postDidSave(_ saved: SavedModels) {
        let userInfo: [AnyHashable: Any] = [
            NotificationKey.insertedIdentifiers.rawValue: saved.inserted.map(\.persistentModelID),
            NotificationKey.updatedIdentifiers.rawValue: saved.updated.map(\.persistentModelID),
            NotificationKey.deletedIdentifiers.rawValue: saved.deleted,
        ]
        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: userInfo)
    }
}
