import Foundation

extension DocumentDecoder {
    /// Reads the history object, with the schema and store in hand.
    func decodeHistory<R: StructuredReader>(from reader: inout R, schema: Schema, storeIdentifier: String) throws
        -> DocumentHistory
    {
        var history = DocumentHistory()
        try decodeObject(from: &reader, allowedKeys: ["deletedThrough", "transactions"]) { key, reader in
            if key == "deletedThrough" {
                history.deletedThrough = try decodeDeletedThrough(from: &reader)
            } else {
                let names = EntityNames(schema)
                history.transactions = try decodeArray(from: &reader, cappedBy: .historyLength) { reader in
                    try decodeTransaction(from: &reader, schema: schema, names: names, storeIdentifier: storeIdentifier)
                }
            }
        }
        try checkOrder(of: history.transactions.map(\.transactionIdentifier), after: history.deletedThrough)
        return history
    }

    /// Reads where the history object stands: its `deletedThrough` and its transactions'
    /// identifiers, each checked as ``decodeHistory(from:schema:storeIdentifier:)`` checks
    /// them; the rest of each transaction is read for its syntax only. The result has no
    /// transactions: its ``DocumentHistory/deletedThrough`` is the newest identifier (or the
    /// object's `deletedThrough`, when larger), so that its
    /// ``DocumentHistory/nextTransactionIdentifier`` is the history's. Nothing is held per
    /// transaction, so the history-length cap, which bounds the transactions a read holds,
    /// does not apply.
    func decodeHistoryPosition<R: StructuredReader>(from reader: inout R) throws -> DocumentHistory {
        var deletedThrough: Int64 = 0
        // The identifiers are checked as they come, the first once deletedThrough is known (it
        // may come after them); the first identifier out of order is the one reported, as a
        // whole read reports it.
        var first: Int64?
        var newest: Int64 = 0
        var outOfOrder: (identifier: Int64, previous: Int64, index: Int)?
        try decodeObject(from: &reader, allowedKeys: ["deletedThrough", "transactions"]) { key, reader in
            if key == "deletedThrough" {
                deletedThrough = try decodeDeletedThrough(from: &reader)
                return
            }
            try expect(.array, in: &reader)
            try reader.beginArray()
            var index = 0
            while try reader.nextElement() {
                let identifier = try within("[\(index)]") {
                    let start = reader.bookmark
                    var identifier: Int64?
                    var hasTimestamp = false
                    try decodeObject(from: &reader, allowedKeys: Self.transactionMembers) { member, reader in
                        switch member {
                        case "id": identifier = try decodeTransactionIdentifier(from: &reader)
                        case "timestamp":
                            hasTimestamp = true
                            try reader.skipValue()
                        default: try reader.skipValue()
                        }
                    }
                    guard let identifier, hasTimestamp else {
                        throw failure(at: start, in: reader, "a transaction needs 'id' and 'timestamp'")
                    }
                    return identifier
                }
                if first != nil, outOfOrder == nil, identifier <= newest { outOfOrder = (identifier, newest, index) }
                first = first ?? identifier
                newest = identifier
                index += 1
            }
        }
        if let first { try checkOrder(of: [first], after: deletedThrough) }
        if let outOfOrder { try checkOrder(of: [outOfOrder.identifier], after: outOfOrder.previous, startingAt: outOfOrder.index) }
        return DocumentHistory(deletedThrough: max(newest, deletedThrough))
    }

    /// The members a transaction object may have.
    private static let transactionMembers: Set<String> = [
        "author", "bundleIdentifier", "changes", "id", "processIdentifier", "timestamp",
    ]

    private func decodeDeletedThrough<R: StructuredReader>(from reader: inout R) throws -> Int64 {
        try readInt64(from: &reader, in: 0...(Int64.max - 1), "deletedThrough must be from 0 to 2^63-2")
    }

    private func decodeTransactionIdentifier<R: StructuredReader>(from reader: inout R) throws -> Int64 {
        try readInt64(from: &reader, in: 1...(Int64.max - 1), "a transaction identifier must be from 1 to 2^63-2")
    }

    /// Reads an integer within `range`, or throws `problem` at it.
    private func readInt64<R: StructuredReader>(from reader: inout R, in range: ClosedRange<Int64>, _ problem: String)
        throws -> Int64
    {
        let start = reader.bookmark
        let value = try reader.readInt64()
        guard range.contains(value) else { throw failure(at: start, in: reader, problem) }
        return value
    }

    /// Throws unless the transaction `identifiers` (the history's from `startingAt` on)
    /// increase and exceed `deletedThrough` (the identifier before them).
    private func checkOrder(of identifiers: [Int64], after deletedThrough: Int64, startingAt first: Int = 0) throws {
        var previous = deletedThrough
        for (offset, identifier) in identifiers.enumerated() {
            guard identifier > previous else {
                throw DocumentDecodingFailure(
                    location: nil, keyPath: ["id", "[\(first + offset)]", "transactions"],
                    message: "transaction identifiers must increase and exceed deletedThrough; found "
                        + "\(identifier) after \(previous)")
            }
            previous = identifier
        }
    }

    /// Each entity's attribute and property names, made once for a whole history rather than
    /// for each change (a change of a wide entity would otherwise cost its width).
    struct EntityNames {
        var attributes: [String: Set<String>] = [:]
        var properties: [String: Set<String>] = [:]

        init(_ schema: Schema) {
            for entity in schema.entities where attributes[entity.name] == nil {
                attributes[entity.name] = Set(entity.attributes.map(\.name))
                properties[entity.name] = Set(entity.propertyNames)
            }
        }
    }

    private func decodeTransaction<R: StructuredReader>(
        from reader: inout R, schema: Schema, names: EntityNames, storeIdentifier: String
    ) throws -> HistoryTransactionRecord {
        let start = reader.bookmark
        var identifier: Int64?
        var author: String?
        var bundle: String?
        var process: String?
        var timestamp: Date?
        var changes: [HistoryChangeRecord] = []
        try decodeObject(from: &reader, allowedKeys: Self.transactionMembers) { key, reader in
            switch key {
            case "author": author = try reader.readString()
            case "bundleIdentifier": bundle = try reader.readString()
            case "processIdentifier": process = try reader.readString()
            case "id": identifier = try decodeTransactionIdentifier(from: &reader)
            case "timestamp":
                guard case .date(let date) = try decodeValue(.date, from: &reader) else { return }
                timestamp = date
            default:
                changes = try decodeArray(from: &reader) { reader in
                    try decodeChange(from: &reader, schema: schema, names: names, storeIdentifier: storeIdentifier)
                }
            }
        }
        guard let identifier, let timestamp else {
            throw failure(at: start, in: reader, "a transaction needs 'id' and 'timestamp'")
        }
        return HistoryTransactionRecord(
            transactionIdentifier: identifier, author: author, timestamp: timestamp, bundleIdentifier: bundle,
            processIdentifier: process, changes: changes)
    }

    private func decodeChange<R: StructuredReader>(
        from reader: inout R, schema: Schema, names entityNames: EntityNames, storeIdentifier: String
    ) throws -> HistoryChangeRecord {
        let start = reader.bookmark
        var entityName: String?
        var key: String?
        var kind: String?
        var attributes: [String]?
        var valuesStart: R.Bookmark?
        var tombstoneStart: R.Bookmark?
        var values: [String: SnapshotValue]?
        var tombstone: [String: SnapshotValue]?
        /// Reads an object of attribute values of `entity`.
        func attributeValues(of entity: Schema.Entity, from reader: inout R) throws -> [String: SnapshotValue] {
            var result: [String: SnapshotValue] = [:]
            try decodeObject(from: &reader, allowedKeys: entityNames.attributes[entity.name] ?? []) { attribute, reader in
                result[attribute] = try decodeValue(entity.attribute(named: attribute)!.type, from: &reader)
            }
            return result
        }
        try decodeObject(
            from: &reader, allowedKeys: ["attributes", "entity", "id", "kind", "tombstone", "values"]
        ) { member, reader in
            switch member {
            case "entity": entityName = try readName(from: &reader)
            case "id": key = try reader.readString()
            case "kind": kind = try reader.readString()
            case "attributes": attributes = try decodeArray(from: &reader) { reader in try readName(from: &reader) }
            default:
                // Typed by the entity, which comes first in key order; if a writer put it later,
                // come back once it is known.
                if let entityName, let entity = schema.entity(named: entityName) {
                    let decoded = try attributeValues(of: entity, from: &reader)
                    if member == "values" { values = decoded } else { tombstone = decoded }
                } else if member == "values" {
                    valuesStart = reader.bookmark
                    try reader.skipValue()
                } else {
                    tombstoneStart = reader.bookmark
                    try reader.skipValue()
                }
            }
        }
        guard let entityName, let key, !key.isEmpty, let kind else {
            throw failure(at: start, in: reader, "a change needs 'entity', 'id' and 'kind'")
        }
        guard let entity = schema.entity(named: entityName) else {
            throw failure(at: start, in: reader, "the change names '\(entityName)', which is not an entity of the schema")
        }
        let identifier = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: key)
        let end = reader.bookmark
        defer { reader.resume(at: end) }
        func valuesAt(_ bookmark: R.Bookmark?, _ name: String, decoded: [String: SnapshotValue]?) throws -> [String: SnapshotValue] {
            if let decoded { return decoded }
            guard let bookmark else { return [:] }
            reader.resume(at: bookmark)
            return try within(name) { try attributeValues(of: entity, from: &reader) }
        }
        switch kind {
        case "insert":
            guard attributes == nil, valuesStart == nil, tombstoneStart == nil, values == nil, tombstone == nil else {
                throw failure(at: start, in: reader, "an insert change has only 'entity', 'id' and 'kind'")
            }
            return .insert(identifier)
        case "update":
            guard tombstoneStart == nil, tombstone == nil else {
                throw failure(at: start, in: reader, "an update change has no 'tombstone'")
            }
            let names = attributes ?? []
            let known = entityNames.properties[entity.name] ?? []
            if let unknown = names.first(where: { !known.contains($0) }) {
                throw failure(at: start, in: reader, "the update names '\(unknown)', which is not a property of \(entityName)")
            }
            return .update(identifier, updatedAttributes: names, values: try valuesAt(valuesStart, "values", decoded: values))
        case "delete":
            guard attributes == nil, valuesStart == nil, values == nil else {
                throw failure(at: start, in: reader, "a delete change has only 'entity', 'id', 'kind' and 'tombstone'")
            }
            return .delete(identifier, tombstone: try valuesAt(tombstoneStart, "tombstone", decoded: tombstone))
        default:
            throw failure(at: start, in: reader, "unknown change kind '\(kind)'; expected insert, update or delete")
        }
    }
}
