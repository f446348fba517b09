import Foundation
import TripDoc

/// `tripdoc history` as a library: the transactions of a document that a query selects, as
/// text or JSON.
public struct HistoryReport {
    /// The document's store.
    public var storeIdentifier: String
    /// The schema the values follow.
    public var schema: Schema
    /// The selected transactions.
    public var transactions: [HistoryTransactionRecord]
    /// How far the document's history was deleted.
    public var deletedThrough: Int64

    /// Selects the transactions of `file` that `query` asks for, and with `condition` (a
    /// `--where` expression over the one entity `query` names) only the changes to objects that
    /// meet it: an object the document holds as it is now, a deleted one as its tombstone keeps it
    /// (attributes not preserved on deletion are nil). The limit counts the transactions left.
    ///
    /// - Throws: `HistoryError` for an expired or foreign token, ``QueryError`` for a condition
    ///   that does not parse or fit the schema.
    public init(_ file: DocumentFile, query: HistoryQuery, condition: String? = nil) throws {
        let document = file.document
        storeIdentifier = document.storeIdentifier
        schema = document.schema
        deletedThrough = document.history.deletedThrough
        guard let condition, let entityName = query.entityNames?.first, let entity = schema.entity(named: entityName) else {
            transactions = try document.history.transactions(matching: query, storeIdentifier: document.storeIdentifier)
            return
        }
        let matcher = try SnapshotQuery(condition, entity: entity, schema: schema)
        var unlimited = query
        unlimited.fetchLimit = nil
        let selected = try document.history.transactions(matching: unlimited, storeIdentifier: storeIdentifier)
        let related = matcher.relatedSnapshots { document.snapshots(of: $0) }
        var matching = Set(
            document.snapshots(of: entityName).filter { matcher.matches($0, related: related) }.map(\.persistentIdentifier))
        for transaction in selected {
            for case .delete(let identifier, let tombstone) in transaction.changes
            where identifier.entityName == entityName
                && matcher.matches(DefaultSnapshot(persistentIdentifier: identifier, values: tombstone), related: related)
            {
                matching.insert(identifier)
            }
        }
        transactions = Array(
            selected.compactMap { transaction -> HistoryTransactionRecord? in
                var kept = transaction
                kept.changes = transaction.changes.filter { matching.contains($0.changedPersistentIdentifier) }
                return kept.changes.isEmpty ? nil : kept
            }.prefix(query.fetchLimit ?? Int.max))
    }

    /// Parses a token as the user wrote it: `STORE:N`, or `N` for this document's store.
    public static func token(_ text: String, storeIdentifier: String) throws -> DefaultHistoryToken {
        if let number = Int64(text), number >= 0 {
            return DefaultHistoryToken(storeIdentifier: storeIdentifier, transactionIdentifier: number)
        }
        guard let token = DefaultHistoryToken(text) else {
            throw TripDocError.invalidArgument("'\(text)' is not a history token; expected STORE:N, or N for this document's store")
        }
        return token
    }

    /// One block per transaction: `TOKEN  TIME  AUTHOR`, then one line per change.
    public var text: String {
        var lines: [String] = []
        for transaction in transactions {
            let time = DateCoding.string(from: transaction.timestamp) ?? "\(transaction.timestamp.timeIntervalSinceReferenceDate)"
            var heading = "\(transaction.token(in: storeIdentifier))  \(time)  \(transaction.author ?? "(no author)")"
            if let process = transaction.processIdentifier { heading += "  pid \(process)" }
            if let bundle = transaction.bundleIdentifier { heading += "  \(bundle)" }
            lines.append(heading)
            for change in transaction.changes {
                let id = change.changedPersistentIdentifier
                switch change {
                case .insert:
                    lines.append("  insert \(id)")
                case .update(_, let names, let values):
                    let shown = names.map { name in
                        values[name].map { "\(name) = \(Self.render($0))" } ?? name
                    }
                    lines.append("  update \(id)  " + shown.joined(separator: ", "))
                case .delete(_, let tombstone):
                    let kept = tombstone.sorted { $0.key < $1.key }.map { "\($0.key) = \(Self.render($0.value))" }
                    lines.append("  delete \(id)" + (kept.isEmpty ? "" : "  tombstone: " + kept.joined(separator: ", ")))
                }
            }
        }
        if transactions.isEmpty { lines.append("no transactions") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func render(_ value: SnapshotValue) -> String {
        if case .string(let text) = value { return "\"\(text)\"" }
        return SnapshotTable.render(value)
    }

    /// `{"deletedThrough": N, "storeIdentifier": ID, "transactions": [...]}`: the history in the
    /// document coding, each transaction with its `token`.
    public func jsonData() throws -> Data {
        var writer = JSONWriter(compactLevel: 4)
        try DocumentEncoder().encodeHistory(
            DocumentHistory(transactions: transactions, deletedThrough: deletedThrough), schema: schema,
            tokensFor: storeIdentifier, to: &writer)
        return writer.data
    }
}
