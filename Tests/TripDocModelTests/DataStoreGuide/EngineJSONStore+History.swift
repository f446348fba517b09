import Foundation
import TripDoc

// The guide's store answers typed history: the engine records a transaction per save in its
// document, and `DocumentHistory.transactions(_:storeIdentifier:schema:)` types them for the
// context, as tripdoc's own stores do.

extension EngineJSONStore: HistoryProviding {
    typealias HistoryType = DefaultHistoryTransaction

    func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        try archive.readDocument().history.transactions(descriptor, storeIdentifier: identifier, schema: schema)
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        // A document keeps history from a point on: delete through the newest selected transaction.
        guard let newest = try fetchHistory(descriptor).map(\.token).max() else { return }
        try archive.deleteHistory(through: newest)
    }
}
