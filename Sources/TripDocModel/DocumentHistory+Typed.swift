import Foundation
import TripDocCore

extension DocumentHistory {
    /// The typed transactions `descriptor` selects from this history of the store
    /// `storeIdentifier`, as ``ModelContext/fetchHistory(_:)`` expects them: each change typed by
    /// the model class of its entity in `schema` (a schema made from model types knows its
    /// classes), changes of entities outside `schema` left out (a document shared with an app that
    /// has more models), then the descriptor's predicate, sort and limit.
    ///
    /// This is what ``DocumentStore`` answers; a store of your own that keeps a ``Document``
    /// (through `ArchiveStore`, say) answers `HistoryProviding.fetchHistory` with it.
    ///
    /// - Throws: `HistoryError.historyTokenExpired(_:deletedThrough:)` when the predicate compares
    ///   transactions' tokens with a token of this store older than the history kept (deleted
    ///   history may have held changes after it): discard the token and fetch from the start.
    ///   ``ModelContextError/unknownEntity(_:)`` for a change of an entity `schema` has but no
    ///   model class is known for.
    public func transactions(
        _ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, storeIdentifier: String, schema: Schema
    ) throws -> [DefaultHistoryTransaction] {
        let modelTypes = SchemaModelTypes.types(for: schema)
        let ownEntities = Set(schema.entities.map(\.name))
        var transactions = try self.transactions.map { record in
            var record = record
            record.changes.removeAll { !ownEntities.contains($0.changedPersistentIdentifier.entityName) }
            return try DefaultHistoryTransaction(record, storeIdentifier: storeIdentifier, modelTypes: modelTypes)
        }
        if let predicate = descriptor.predicate {
            let (kept, compared) = try DefaultHistoryToken.recordingComparisons {
                // The predicate also meets the point history was deleted through, so that the
                // token it compares with is seen even when no transaction is left.
                if deletedThrough > 0 {
                    let deletedPoint = DefaultHistoryTransaction(
                        transactionIdentifier: deletedThrough,
                        token: DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: deletedThrough),
                        author: nil, timestamp: .distantPast, storeIdentifier: storeIdentifier, changes: [])
                    _ = try? predicate.evaluate(deletedPoint)
                }
                return try transactions.filter { try predicate.evaluate($0) }
            }
            if let expired = compared.first(where: {
                $0.storeIdentifier == storeIdentifier && $0.transactionIdentifier < deletedThrough
            }) {
                throw HistoryError.historyTokenExpired(expired, deletedThrough: deletedThrough)
            }
            transactions = kept
        }
        if !descriptor.sortBy.isEmpty { transactions.sort(using: descriptor.sortBy) }
        if let limit = descriptor.fetchLimit { transactions = Array(transactions.prefix(max(limit, 0))) }
        return transactions
    }
}
