import Foundation

extension DocumentEncoder {
    /// Writes the history object: `{"deletedThrough": N, "transactions": [...]}`, each
    /// transaction `{"author", "bundleIdentifier", "changes", "id", "processIdentifier",
    /// "timestamp"}` (absent members omitted), each change `{"attributes", "entity", "id", "kind",
    /// "tombstone", "values"}` with values typed by the entity's attributes.
    ///
    /// - Parameters:
    ///   - history: The history to write.
    ///   - schema: The document's schema, which types the values of changes and tombstones.
    ///   - storeIdentifier: When given, the object also gets a `storeIdentifier` member and each
    ///     transaction a `token` (`STORE:N`): what `tripdoc history --json` prints. Documents omit them.
    ///   - writer: The format's writer.
    public func encodeHistory<W: StructuredWriter>(
        _ history: DocumentHistory, schema: Schema, tokensFor storeIdentifier: String? = nil, to writer: inout W
    ) throws {
        try encodeHistory(
            history, schema: schema, tokensFor: storeIdentifier, changes: { _, _ in }, afterChange: { _ in }, to: &writer)
    }

    /// Writes the history object of a history too long to hold: each transaction's changes are
    /// those its record holds, then those `changes` hands over for it (``HistoryChangeStream``),
    /// and `afterChange` gets the writer after each change written, of either kind, to empty a
    /// full buffer. The same bytes as ``encodeHistory(_:schema:tokensFor:to:)`` for the history that
    /// holds all the changes.
    ///
    /// - Throws: ``DocumentWriteError`` for a change whose entity or values do not fit the
    ///   schema, or what `changes` and `afterChange` throw.
    public func encodeHistory<W: StructuredWriter>(
        _ history: DocumentHistory, schema: Schema, changes: HistoryChangeStream,
        afterChange: (inout W) throws -> Void, to writer: inout W
    ) throws {
        try encodeHistory(history, schema: schema, tokensFor: nil, changes: changes, afterChange: afterChange, to: &writer)
    }

    private func encodeHistory<W: StructuredWriter>(
        _ history: DocumentHistory, schema: Schema, tokensFor storeIdentifier: String?, changes: HistoryChangeStream,
        afterChange: (inout W) throws -> Void, to writer: inout W
    ) throws {
        let entities = schema.entitiesByName
        writer.beginObject()
        writer.key("deletedThrough")
        writer.writeInt(history.deletedThrough)
        if let storeIdentifier {
            writer.key("storeIdentifier")
            writer.writeString(storeIdentifier)
        }
        writer.key("transactions")
        writer.beginArray()
        for (index, transaction) in history.transactions.enumerated() {
            writer.beginObject()
            if let author = transaction.author {
                writer.key("author")
                writer.writeString(author)
            }
            if let bundle = transaction.bundleIdentifier {
                writer.key("bundleIdentifier")
                writer.writeString(bundle)
            }
            writer.key("changes")
            writer.beginArray()
            for change in transaction.changes {
                try encodeChange(change, in: transaction, entities: entities, to: &writer)
                try afterChange(&writer)
            }
            // (Not escaping: the two closures are only in the way of the rule that a closure
            // passed to one must not capture another.)
            try withoutActuallyEscaping(afterChange) { afterChange in
                try changes(index) { change in
                    try encodeChange(change, in: transaction, entities: entities, to: &writer)
                    try afterChange(&writer)
                }
            }
            writer.endArray()
            writer.key("id")
            writer.writeInt(transaction.transactionIdentifier)
            if let process = transaction.processIdentifier {
                writer.key("processIdentifier")
                writer.writeString(process)
            }
            writer.key("timestamp")
            encodeValue(.date(transaction.timestamp), as: .date, to: &writer)
            if let storeIdentifier {
                writer.key("token")
                writer.writeString(transaction.token(in: storeIdentifier).description)
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }

    /// Writes one change of `transaction`.
    private func encodeChange<W: StructuredWriter>(
        _ change: HistoryChangeRecord, in transaction: HistoryTransactionRecord, entities: [String: Schema.Entity],
        to writer: inout W
    ) throws {
        let id = change.changedPersistentIdentifier
        guard let entity = entities[id.entityName] else {
            throw DocumentWriteError(
                identifier: id, property: "(history)",
                message: "is named in transaction \(transaction.transactionIdentifier) but its entity is not in the schema")
        }
        writer.beginObject()
        if case .update(_, let names, _) = change {
            writer.key("attributes")
            writer.beginArray()
            for name in names { writer.writeString(name) }
            writer.endArray()
        }
        writer.key("entity")
        writer.writeString(id.entityName)
        writer.key("id")
        writer.writeString(id.primaryKey)
        writer.key("kind")
        writer.writeString(change.kind)
        switch change {
        case .delete(_, let tombstone):
            writer.key("tombstone")
            try encodeAttributeValues(tombstone, of: entity, identifier: id, to: &writer)
        case .update(_, _, let values):
            writer.key("values")
            try encodeAttributeValues(values, of: entity, identifier: id, to: &writer)
        case .insert:
            break
        }
        writer.endObject()
    }

    /// Writes `values` (attribute name → value, nil omitted) as an object in key order.
    private func encodeAttributeValues<W: StructuredWriter>(
        _ values: [String: SnapshotValue], of entity: Schema.Entity, identifier: PersistentIdentifier, to writer: inout W
    ) throws {
        writer.beginObject()
        for (name, value) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) where value != .null {
            guard let attribute = entity.attribute(named: name), value.fits(attribute.type) else {
                throw DocumentWriteError(
                    identifier: identifier, property: name,
                    message: "holds \(value.kindDescription) in the history, which does not fit an attribute of \(entity.name)")
            }
            writer.key(name)
            encodeValue(value, as: attribute.type, to: &writer)
        }
        writer.endObject()
    }
}
