import Foundation
import TripDocCore

extension DefaultHistoryTransaction {
    /// The typed transaction of a stored one: each change's payload typed by its model, found
    /// among `modelTypes` by entity name.
    ///
    /// - Throws: ``ModelContextError/unknownEntity(_:)`` for a change of an entity none of the
    ///   model types is.
    init(
        _ record: HistoryTransactionRecord, storeIdentifier: String,
        modelTypes: [String: any PersistentModel.Type]
    ) throws {
        let token = record.token(in: storeIdentifier)
        transactionIdentifier = record.transactionIdentifier
        self.token = token
        author = record.author
        timestamp = record.timestamp
        self.storeIdentifier = storeIdentifier
        bundleIdentifier = record.bundleIdentifier
        processIdentifier = record.processIdentifier
        changes = try record.changes.enumerated().map { index, change in
            let id = change.changedPersistentIdentifier
            guard let modelType = modelTypes[id.entityName] else { throw ModelContextError.unknownEntity(id.entityName) }
            return Self.change(change, of: modelType, at: HistoryChangeIdentifier(token: token, index: index))
        }
    }

    private static func change<Model: PersistentModel>(
        _ record: HistoryChangeRecord, of type: Model.Type, at changeIdentifier: HistoryChangeIdentifier
    ) -> HistoryChange {
        let description = ModelDescription.of(type)
        switch record {
        case .insert(let id):
            return .insert(DefaultHistoryInsert<Model>(changedPersistentIdentifier: id, changeIdentifier: changeIdentifier))
        case .update(let id, let names, _):
            let keyPaths = names.compactMap { description.property(named: $0)?.keyPath as? PartialKeyPath<Model> }
            return .update(
                DefaultHistoryUpdate<Model>(
                    changedPersistentIdentifier: id, changeIdentifier: changeIdentifier, updatedAttributes: keyPaths))
        case .delete(let id, let tombstone):
            return .delete(
                DefaultHistoryDelete<Model>(
                    changedPersistentIdentifier: id, changeIdentifier: changeIdentifier,
                    tombstone: HistoryTombstone(values: tombstone)))
        }
    }
}
