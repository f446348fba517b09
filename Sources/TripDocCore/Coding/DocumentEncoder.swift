import Foundation

/// The one snapshot coding every format shares: writes a ``Document`` as a tree of objects,
/// arrays and scalars through a format's ``StructuredWriter``.
///
/// The shape (see docs/FORMATS.md): a root object with `header`, `schema` and `snapshots`;
/// object keys in byte order; snapshots grouped by entity and ordered by primary key; `nil`
/// values omitted; dates as exact ISO 8601 text; decimals, UUIDs and URLs as text; non-finite
/// numbers as `NaN`, `Infinity`, `-Infinity`; references as the destination's primary key.
public struct DocumentEncoder {
    /// Creates an encoder.
    public init() {}

    /// Writes the whole document.
    ///
    /// - Throws: ``SchemaError`` when the schema is not consistent, ``DocumentWriteError`` when a
    ///   snapshot's value does not fit the schema (it would not read back); the writer's output is
    ///   then incomplete and must be discarded.
    public func encode<W: StructuredWriter>(_ document: Document, to writer: inout W) throws {
        var stream = DocumentStreamEncoder(schema: document.schema)
        try stream.begin(header: document.header, history: document.history, to: &writer)
        for (entity, snapshots) in Self.groupedByEntity(document.orderedSnapshots, schema: document.schema)
        where !snapshots.isEmpty {
            try stream.beginEntity(entity.name, to: &writer)
            for snapshot in snapshots { try stream.add(snapshot, to: &writer) }
            stream.endEntity(to: &writer)
        }
        stream.finish(to: &writer)
    }

    /// Writes the header object.
    public func encodeHeader<W: StructuredWriter>(_ header: DocumentHeader, to writer: inout W) {
        writer.beginObject()
        // Only documents derived from another store have it (convert), so every other document
        // is written as before.
        if let derivedFrom = header.derivedFrom {
            writer.key("derivedFrom")
            writer.writeString(derivedFrom.description)
        }
        writer.key("format")
        writer.writeString(header.format)
        writer.key("formatVersion")
        writer.writeInt(Int64(header.formatVersion))
        writer.key("generator")
        writer.writeString(header.generator)
        writer.key("nextPrimaryKeys")
        writer.beginObject()
        for (entity, key) in header.nextPrimaryKeys.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            writer.key(entity)
            writer.writeInt(key)
        }
        writer.endObject()
        writer.key("schemaVersion")
        writer.writeString(header.schemaVersion.description)
        writer.key("storeIdentifier")
        writer.writeString(header.storeIdentifier)
        writer.endObject()
    }

    /// Writes the snapshots object: entity name → array of snapshot objects, in document order.
    public func encodeSnapshots<W: StructuredWriter>(
        _ snapshots: [DefaultSnapshot], schema: Schema, to writer: inout W
    ) throws {
        let ordered = Document.ordered(snapshots)
        writer.beginObject()
        for (entity, slice) in Self.groupedByEntity(ordered, schema: schema) {
            writer.key(entity.name)
            try encodeEntitySnapshots(slice, of: entity, to: &writer)
        }
        writer.endObject()
    }

    /// Writes one entity's snapshots as an array, in the order given (document order is by
    /// primary key; see ``PersistentIdentifier``'s `<`).
    public func encodeEntitySnapshots<W: StructuredWriter>(
        _ snapshots: ArraySlice<DefaultSnapshot>, of entity: Schema.Entity, to writer: inout W
    ) throws {
        let plan = EntityCodingPlan(entity)
        writer.beginArray()
        for (index, snapshot) in snapshots.enumerated() {
            try encodeSnapshot(snapshot, plan: plan, to: &writer)
            CodingProgress.tick(index + 1)
        }
        CodingProgress.finishEntity(snapshots.count)
        writer.endArray()
    }

    /// Each entity of `schema` (in byte order of names) with its run of `ordered` snapshots,
    /// which must be sorted by identifier. Snapshots of entities the schema lacks are skipped.
    public static func groupedByEntity(_ ordered: [DefaultSnapshot], schema: Schema)
        -> [(entity: Schema.Entity, snapshots: ArraySlice<DefaultSnapshot>)]
    {
        var index = 0
        return schema.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }).map { entity in
            while index < ordered.count, ordered[index].entityName.utf8.lexicographicallyPrecedes(entity.name.utf8) {
                index += 1
            }
            let start = index
            while index < ordered.count, ordered[index].entityName == entity.name { index += 1 }
            return (entity, ordered[start..<index])
        }
    }

    /// Writes one snapshot object: `$id`, then each non-nil property in key order.
    func encodeSnapshot<W: StructuredWriter>(
        _ snapshot: DefaultSnapshot, plan: EntityCodingPlan, to writer: inout W
    ) throws {
        try encodeRecord(
            SnapshotRecord.of(snapshot, plan: plan).record, plan: plan, identifier: snapshot.persistentIdentifier,
            to: &writer)
    }

    /// Writes one snapshot object from its record: `$id`, then each non-nil property in key
    /// order. `identifier` names the snapshot in errors (the record's own by default).
    /// `layoutChecked`: the record is known to be laid out as `plan` says; `valuesChecked`: its
    /// values are also known to fit `plan`'s types and destinations (decoded by this entity's
    /// plan), so they are not checked again.
    func encodeRecord<W: StructuredWriter>(
        _ record: SnapshotRecord, plan: EntityCodingPlan, identifier: PersistentIdentifier? = nil,
        layoutChecked: Bool = false, valuesChecked: Bool = false, to writer: inout W
    ) throws {
        guard layoutChecked || plan.hasTheLayout(of: record.plan) else {
            // A record of another schema's plan: by name.
            return try encodeSnapshot(record.snapshot, plan: plan, to: &writer)
        }
        func failure(_ index: Int, _ message: String) -> DocumentWriteError {
            DocumentWriteError(
                identifier: identifier ?? record.persistentIdentifier, property: plan.propertiesInKeyOrder[index].name,
                message: message)
        }
        // Throws unless `value` fits `coding`: the check of a record whose values were not
        // decoded by this plan's types.
        func check(_ value: SnapshotValue, against coding: EntityCodingPlan.Coding, at index: Int) throws {
            switch coding.role {
            case .attribute:
                guard value.fits(coding.type) else {
                    throw failure(index, "holds \(value.kindDescription), expected \(coding.type.name)")
                }
            case .toOne:
                guard case .reference(let target) = value, target.isOf(coding.destinationName) else {
                    throw failure(
                        index,
                        "holds \(value.kindDescription), expected a reference to a \(plan.propertiesInKeyOrder[index].destination)")
                }
            case .toMany:
                guard case .references(let targets) = value, targets.allSatisfy({ $0.isOf(coding.destinationName) })
                else {
                    throw failure(
                        index,
                        "holds \(value.kindDescription), expected references to \(plan.propertiesInKeyOrder[index].destination) models")
                }
            }
        }
        writer.beginObject()
        writer.key(EntityCodingPlan.identifierKey)
        writer.writeString(record.primaryKey)
        // By place, from the plan's value arrays: no property object's references are counted.
        // Through buffer pointers, which lend their elements: an array's subscript copies each
        // value and coding out, counting the references they hold.
        let keys = plan.keysInKeyOrder
        try plan.codingsInKeyOrder.withUnsafeBufferPointer { codings in
            try record.values.withUnsafeBufferPointer { values in
                for index in codings.indices {
                    if case .null = values[index] {
                        if codings[index].role == .attribute, !codings[index].isOptional {
                            throw failure(index, "is nil but the attribute is not optional")
                        }
                        continue
                    }
                    if !valuesChecked { try check(values[index], against: codings[index], at: index) }
                    // References are written as their primary keys (encodeValue), as everywhere.
                    writer.key(keys[index])
                    if codings[index].usesExternalStorage, case .data(let data) = values[index] {
                        writer.writeData(data, externalStorage: true)
                    } else {
                        encodeValue(values[index], as: codings[index].type, to: &writer)
                    }
                }
            }
        }
        writer.endObject()
    }

    /// Writes one attribute value as its type says.
    public func encodeValue<W: StructuredWriter>(_ value: SnapshotValue, as type: AttributeType, to writer: inout W) {
        // A Codable value's scalars are written as any attribute's; its nil, arrays and
        // objects as encodeCodableValue says.
        switch value {
        case .null where type == .codable: writer.writeNull()
        case .null:
            // Unreachable: callers check `fits`, which no nil value passes; documents omit nil.
            assertionFailure("nil has no document coding")
            writer.writeString("")
        case .bool(let v): writer.writeBool(v)
        case .int(let v): writer.writeInt(v)
        case .uint(let v): writer.writeUInt(v)
        case .double(let v):
            if v.isFinite { writer.writeDouble(v) } else { writer.writeString(Self.nonFiniteText(v)) }
        case .float(let v):
            if v.isFinite { writer.writeFloat(v) } else { writer.writeString(Self.nonFiniteText(v)) }
        case .decimal(let v): writer.writeString(DecimalCoding.text(of: v))
        case .string(let v): writer.writeString(v)
        case .date(let v):
            if DateCoding.withText(of: v, { writer.writeString(plainASCII: $0) }) != nil {
                // Written in place.
            } else if v.timeIntervalSinceReferenceDate.isFinite {
                writer.writeDouble(v.timeIntervalSinceReferenceDate)
            } else {
                writer.writeString(Self.nonFiniteText(v.timeIntervalSinceReferenceDate))
            }
        case .data(let v): writer.writeData(v)
        case .uuid(let v): writer.writeString(v.uuidString)
        case .url(let v): writer.writeString(v.absoluteString)
        case .array where type == .codable, .composite where type == .codable: encodeCodableValue(value, to: &writer)
        case .array(let elements):
            let elementType: AttributeType = if case .array(let e) = type { e } else { type }
            writer.beginArray()
            for element in elements { encodeValue(element, as: elementType, to: &writer) }
            writer.endArray()
        case .composite(let fields):
            let declared: [CompositeField] = if case .composite(let f) = type { f } else { [] }
            let types = Dictionary(declared.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
            writer.beginObject()
            for (name, field) in fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
            where field != .null {
                writer.key(name)
                encodeValue(field, as: types[name] ?? type, to: &writer)
            }
            writer.endObject()
        case .reference(let id): writer.writeString(id.primaryKey)
        case .references(let ids):
            writer.beginArray()
            for id in ids { writer.writeString(id.primaryKey) }
            writer.endArray()
        }
    }

    /// Writes a value of a ``AttributeType/codable`` attribute as it describes itself: objects'
    /// members in byte order of their names, `nil` members and elements kept (docs/FORMATS.md 3.10).
    func encodeCodableValue<W: StructuredWriter>(_ value: SnapshotValue, to writer: inout W) {
        switch value {
        case .null: writer.writeNull()
        case .array(let elements):
            writer.beginArray()
            for element in elements { encodeCodableValue(element, to: &writer) }
            writer.endArray()
        case .composite(let members):
            writer.beginObject()
            for (name, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                writer.key(name)
                encodeCodableValue(member, to: &writer)
            }
            writer.endObject()
        default:
            encodeValue(value, as: .string, to: &writer)
        }
    }

    static func nonFiniteText<F: FloatingPoint>(_ value: F) -> String {
        value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity")
    }
}

/// A document that cannot be written because a value does not fit the schema.
public struct DocumentWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The snapshot holding the value.
    public var identifier: PersistentIdentifier
    /// The property.
    public var property: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    public init(identifier: PersistentIdentifier, property: String, message: String) {
        self.identifier = identifier
        self.property = property
        self.message = message
    }

    public var description: String {
        "cannot write \(identifier).\(property): it \(message); nothing was written"
    }
}
