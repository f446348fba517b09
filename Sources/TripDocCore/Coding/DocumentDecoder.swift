import Foundation

/// The one snapshot coding every format shares, reading side: drives a format's
/// ``StructuredReader`` with the schema in hand, so each value is decoded straight into its
/// type, and reports every problem with the file, the place and the key path.
///
/// It reads what ``DocumentEncoder`` writes, with members in any order, and refuses
/// everything else: unknown or duplicate keys, values of the wrong type, integers out of range,
/// missing non-optional values, documents newer than this library.
public struct DocumentDecoder {
    /// The caps on snapshot and history counts (the format's reader enforces the others).
    public var limits: DocumentLimits

    /// Creates a decoder.
    public init(limits: DocumentLimits = .standard) {
        self.limits = limits
    }

    /// The sections a document's root object may hold.
    static let sections: Set<String> = ["header", "history", "schema", "snapshots"]

    /// Reads a whole document; `file` names the file in error messages.
    ///
    /// - Throws: ``DocumentReadError``.
    public func decode<R: StructuredReader>(from reader: inout R, file: String) throws -> Document {
        try reported(file: file) { try decodeDocument(from: &reader) }
    }

    // MARK: Sections, for formats that keep them apart (the bundle's entries)

    /// Reads a header object that is the whole of its input (`prefix` starts the key path).
    public func decodeHeader<R: StructuredReader>(from reader: inout R, file: String, keyPath prefix: String = "header")
        throws -> DocumentHeader
    {
        try reported(file: file) {
            let header = try within(prefix) { try decodeHeader(from: &reader) }
            try reader.finish()
            return header
        }
    }

    /// Reads and validates a schema object that is the whole of its input.
    public func decodeSchema<R: StructuredReader>(from reader: inout R, file: String, keyPath prefix: String = "schema")
        throws -> Schema
    {
        try reported(file: file) {
            let schema = try within(prefix) { try decodeSchema(from: &reader) }
            try reader.finish()
            return schema
        }
    }

    /// Reads an array of snapshots of one entity that is the whole of its input, handing each to
    /// `sink` (``DocumentDecodingSink/add(_:)`` only); returns how many there were. `count` is
    /// the running total of a document's snapshots, checked against the snapshot-count cap.
    public func decodeSnapshots<R: StructuredReader, Sink: DocumentDecodingSink>(
        of entity: Schema.Entity, from reader: inout R, storeIdentifier: String, file: String, keyPath prefix: String,
        counted count: inout Int, into sink: inout Sink
    ) throws -> Int {
        try reported(file: file) {
            let entityCount = try within(prefix) {
                try decodeEntitySnapshots(
                    from: &reader, plan: EntityCodingPlan(entity), store: InternedName(storeIdentifier), counted: &count,
                    wantsMore: { sink.wantsMoreSnapshots }, skipped: { try sink.skipped(primaryKey: $0) }
                ) { try sink.add(record: $0) }
            }
            try reader.finish()
            return entityCount
        }
    }

    /// Reads a history object that is the whole of its input.
    public func decodeHistory<R: StructuredReader>(
        from reader: inout R, schema: Schema, storeIdentifier: String, file: String, keyPath prefix: String = "history"
    ) throws -> DocumentHistory {
        try reported(file: file) {
            let history = try within(prefix) {
                try decodeHistory(from: &reader, schema: schema, storeIdentifier: storeIdentifier)
            }
            try reader.finish()
            return history
        }
    }

    /// Reads where a history object that is the whole of its input stands (see
    /// ``DocumentDecodingSink/wantsHistoryPositionOnly``): a history without transactions
    /// whose ``DocumentHistory/nextTransactionIdentifier`` is the object's.
    public func decodeHistoryPosition<R: StructuredReader>(
        from reader: inout R, file: String, keyPath prefix: String = "history"
    ) throws -> DocumentHistory {
        try reported(file: file) {
            let history = try within(prefix) { try decodeHistoryPosition(from: &reader) }
            try reader.finish()
            return history
        }
    }

    /// Checks that a header agrees with its schema: the same schema version, and sequences
    /// only for entities the schema has.
    ///
    /// - Throws: ``DocumentReadError`` naming `file` and the header's key path.
    public func checkHeader(_ header: DocumentHeader, against schema: Schema, file: String, location: SourceLocation?)
        throws
    {
        if let message = Self.headerProblem(header, schema: schema) {
            throw DocumentReadError(
                file: file, location: location, keyPath: message.keyPath, message: message.text,
                hint: "Fix the value in the file, or restore the document from a copy")
        }
    }

    static func headerProblem(_ header: DocumentHeader, schema: Schema) -> (keyPath: String, text: String)? {
        if header.schemaVersion != schema.version {
            return (
                "header.schemaVersion",
                "the header's schemaVersion \(header.schemaVersion) differs from the schema's version \(schema.version)"
            )
        }
        let entityNames = Set(schema.entities.map(\.name))
        for entity in header.nextPrimaryKeys.keys.sorted() where !entityNames.contains(entity) {
            return (
                "header.nextPrimaryKeys",
                "the header's nextPrimaryKeys names '\(entity)', which is not an entity of the schema"
            )
        }
        return nil
    }

    /// Runs `body`, turning failures into ``DocumentReadError``s that name `file`.
    private func reported<T>(file: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as DocumentDecodingFailure {
            throw DocumentReadError(
                file: file, location: failure.location, keyPath: failure.pathString(), message: failure.message,
                hint: Self.hint(for: failure))
        } catch let error as StructuredReadError {
            throw DocumentReadError(
                file: file, location: error.location, message: error.message,
                hint: error.hint ?? "The file is damaged or is not a tripdoc document")
        }
    }

    private static func hint(for failure: DocumentDecodingFailure) -> String? {
        if let hint = failure.hint { return hint }
        if failure.isMalformed || failure.keyPath.isEmpty { return "The file is damaged or is not a tripdoc document" }
        return "Fix the value in the file, or restore the document from a copy"
    }

    /// Reads a whole document into memory.
    private func decodeDocument<R: StructuredReader>(from reader: inout R) throws -> Document {
        var collector = DocumentCollector()
        try decodeSections(from: &reader, into: &collector)
        return collector.document!
    }

    /// Reads a document and hands it to `sink` piece by piece (see ``DocumentDecodingSink``), so
    /// that a document far larger than memory can be converted or checked. `file` names the file
    /// in error messages; errors `sink` throws pass through unchanged.
    ///
    /// - Throws: ``DocumentReadError``, or what `sink` throws.
    public func decode<R: StructuredReader, Sink: DocumentDecodingSink>(
        from reader: inout R, file: String, into sink: inout Sink
    ) throws {
        try reported(file: file) { try decodeSections(from: &reader, into: &sink) }
    }

    /// Whether the history is read on another core while the snapshots are: when the sink takes
    /// it late and a copy of the reader reads on its own (the history is often as large as the
    /// snapshots).
    private func readsHistoryBeside<R: StructuredReader, Sink: DocumentDecodingSink>(_ reader: R.Type, _ sink: Sink) -> Bool {
        R.copiesReadIndependently && sink.acceptsLateHistory
    }

    private func decodeSections<R: StructuredReader, Sink: DocumentDecodingSink>(
        from reader: inout R, into sink: inout Sink
    ) throws {
        let historyOnAnotherThread = readsHistoryBeside(R.self, sink)
        let rootStart = reader.bookmark
        guard try reader.peekKind() == .object else {
            throw failure(
                at: rootStart, in: reader,
                "this is not a tripdoc document: expected an object with header, schema and snapshots, found "
                    + (try reader.peekKind()).article)
        }
        // Sections are decoded as soon as what they depend on is known: the header and schema
        // first. tripdoc writes header, history, schema, snapshots, so the history is bookmarked,
        // skipped, and read when the snapshots are reached (going back only over the history and
        // schema), and the snapshots are streamed to the sink in one pass. Sections that come
        // before the header or schema are bookmarked, skipped, and decoded at the end.
        var sections: [String: R.Bookmark] = [:]
        var header: DocumentHeader?
        var schema: Schema?
        var history: DocumentHistory?
        var begun = false
        var snapshotsDone = false

        func checkHeader(_ header: DocumentHeader, _ schema: Schema) throws {
            if let problem = Self.headerProblem(header, schema: schema) {
                var failure = failure(at: sections["header"]!, in: reader, problem.text)
                failure.keyPath = problem.keyPath.split(separator: ".").reversed().map(String.init)
                throw failure
            }
        }
        func readSkippedHistory(_ header: DocumentHeader, _ schema: Schema) throws {
            guard sink.wantsHistory, history == nil, let historyStart = sections["history"] else { return }
            reader.resume(at: historyStart)
            history = try within("history") {
                try decodeHistory(from: &reader, schema: schema, storeIdentifier: header.storeIdentifier)
            }
        }
        func streamSnapshots(_ header: DocumentHeader, _ schema: Schema) throws {
            try within("snapshots") {
                try decodeSnapshots(from: &reader, schema: schema, storeIdentifier: header.storeIdentifier, into: &sink)
            }
            snapshotsDone = true
        }

        try reader.beginObject()
        while let key = try reader.nextKey() {
            let start = reader.bookmark
            guard Self.sections.contains(key) else {
                throw failure(
                    at: start, in: reader,
                    "unexpected member '\(key)' in the document; expected header, history, schema and snapshots")
            }
            guard sections[key] == nil else {
                throw failure(at: start, in: reader, "the member '\(key)' appears twice")
            }
            sections[key] = start
            switch key {
            case "header":
                header = try within("header") { try decodeHeader(from: &reader) }
            case "schema":
                schema = try within("schema") { try decodeSchema(from: &reader) }
            case "history":
                if sink.wantsHistory, sink.wantsHistoryPositionOnly {
                    // Where the history stands needs neither header nor schema.
                    let position = try within("history") { try decodeHistoryPosition(from: &reader) }
                    if begun { try sink.lateHistory(position) } else { history = position }
                } else if let header, let schema, sink.wantsHistory {
                    let decoded = try within("history") {
                        try decodeHistory(from: &reader, schema: schema, storeIdentifier: header.storeIdentifier)
                    }
                    if begun { try sink.lateHistory(decoded) } else { history = decoded }
                } else {
                    try reader.skipValue()
                }
            default:  // snapshots
                guard let header, let schema else {
                    try reader.skipValue()
                    continue
                }
                try checkHeader(header, schema)
                if history == nil, let historyStart = sections["history"], sink.wantsHistory, historyOnAnotherThread {
                    // The history and the snapshots at once, each with a reader of its own; an
                    // error in the history, which comes first in the file, is the one reported.
                    try sink.begin(header: header, schema: schema, history: nil)
                    begun = true
                    var historyReader = reader
                    historyReader.resume(at: historyStart)
                    let (late, streamed) = TwoThreads.run(
                        {
                            Result {
                                try within("history") {
                                    try decodeHistory(from: &historyReader, schema: schema, storeIdentifier: header.storeIdentifier)
                                }
                            }
                        },
                        { Result { try streamSnapshots(header, schema) } })
                    try sink.lateHistory(late.get())
                    try streamed.get()
                    continue
                }
                if history == nil, sections["history"] != nil, sink.wantsHistory {
                    try readSkippedHistory(header, schema)
                    reader.resume(at: start)
                }
                try sink.begin(header: header, schema: schema, history: history)
                begun = true
                try streamSnapshots(header, schema)
            }
        }
        try reader.finish()
        guard let header else {
            throw failure(
                at: rootStart, in: reader, "this is not a tripdoc document: it has no 'header' member")
        }
        guard let schema else {
            throw failure(at: rootStart, in: reader, "the document has no 'schema' member")
        }
        if !begun {
            try checkHeader(header, schema)
            try readSkippedHistory(header, schema)
            try sink.begin(header: header, schema: schema, history: sink.wantsHistory ? history ?? DocumentHistory() : nil)
            if let snapshotsStart = sections["snapshots"], !snapshotsDone {
                reader.resume(at: snapshotsStart)
                try streamSnapshots(header, schema)
            }
        }
    }

    // MARK: Header

    private func decodeHeader<R: StructuredReader>(from reader: inout R) throws -> DocumentHeader {
        var format: String?
        var formatVersion: Int?
        var generator = ""
        var schemaVersion: Schema.Version?
        var storeIdentifier: String?
        var nextPrimaryKeys: [String: Int64] = [:]
        var derivedFrom: DefaultHistoryToken?
        let start = reader.bookmark
        try decodeObject(
            from: &reader,
            allowedKeys: [
                "derivedFrom", "format", "formatVersion", "generator", "nextPrimaryKeys", "schemaVersion", "storeIdentifier",
            ]
        ) { key, reader in
            switch key {
            case "derivedFrom":
                let valueStart = reader.bookmark
                let value = try reader.readString()
                guard let token = DefaultHistoryToken(value) else {
                    throw failure(
                        at: valueStart, in: reader,
                        "derivedFrom must be a history token, STORE:N (the store and transaction the document was "
                            + "converted from), found '\(value)'")
                }
                derivedFrom = token
            case "format":
                let valueStart = reader.bookmark
                let value = try reader.readString()
                guard value == DocumentHeader.documentFormat else {
                    throw failure(
                        at: valueStart, in: reader,
                        "this is not a tripdoc document: format is '\(value)', expected '\(DocumentHeader.documentFormat)'")
                }
                format = value
            case "formatVersion":
                let valueStart = reader.bookmark
                let value = try reader.readInt64()
                guard value >= 1, value <= Int64(DocumentHeader.currentFormatVersion) else {
                    throw failure(
                        at: valueStart, in: reader,
                        "format version \(value) is not one this tripdoc reads (1 to "
                            + "\(DocumentHeader.currentFormatVersion)); a newer tripdoc may read it")
                }
                formatVersion = Int(value)
            case "generator":
                generator = try reader.readString()
            case "schemaVersion":
                schemaVersion = try decodeVersion(from: &reader)
            case "storeIdentifier":
                let valueStart = reader.bookmark
                let value = try reader.readString()
                guard !value.isEmpty else { throw failure(at: valueStart, in: reader, "the store identifier is empty") }
                storeIdentifier = value
            default:  // nextPrimaryKeys
                try decodeObject(from: &reader, allowedKeys: nil) { entity, reader in
                    let valueStart = reader.bookmark
                    let value = try reader.readInt64()
                    guard value >= 1, value < Int64.max else {
                        throw failure(
                            at: valueStart, in: reader, "a next primary key must be from 1 to 2^63-2, found \(value)")
                    }
                    nextPrimaryKeys[entity] = value
                }
            }
        }
        guard let format, let formatVersion, let schemaVersion, let storeIdentifier else {
            let missing = [
                format == nil ? "format" : nil, formatVersion == nil ? "formatVersion" : nil,
                schemaVersion == nil ? "schemaVersion" : nil, storeIdentifier == nil ? "storeIdentifier" : nil,
            ].compactMap { $0 }
            throw failure(at: start, in: reader, "the header has no " + missing.joined(separator: ", "))
        }
        return DocumentHeader(
            format: format, formatVersion: formatVersion, storeIdentifier: storeIdentifier,
            schemaVersion: schemaVersion, generator: generator, nextPrimaryKeys: nextPrimaryKeys, derivedFrom: derivedFrom)
    }


    // MARK: Snapshots

    private func decodeSnapshots<R: StructuredReader, Sink: DocumentDecodingSink>(
        from reader: inout R, schema: Schema, storeIdentifier: String, into sink: inout Sink
    ) throws {
        let plans = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, EntityCodingPlan($0)) })
        var count = 0
        try decodeObject(from: &reader, allowedKeys: nil) { entityName, reader in
            guard let plan = plans[entityName] else {
                throw failure(
                    at: reader.bookmark, in: reader,
                    "snapshots of '\(entityName)', which is not an entity of the schema ("
                        + schema.entities.map(\.name).joined(separator: ", ") + ")")
            }
            guard sink.wantsSnapshots(of: plan.entity) else {
                try reader.skipValue()
                return
            }
            try sink.beginEntity(plan.entity)
            let entityCount = try decodeEntitySnapshots(
                from: &reader, plan: plan, store: InternedName(storeIdentifier), counted: &count,
                wantsMore: { sink.wantsMoreSnapshots }, skipped: { try sink.skipped(primaryKey: $0) }
            ) { try sink.add(record: $0) }
            try sink.endEntity(plan.entity, count: entityCount)
        }
    }

    /// Reads one entity's array of snapshots, handing each to `emit`; returns how many there were.
    /// `count` is the running total across entities, checked against the snapshot-count cap.
    private func decodeEntitySnapshots<R: StructuredReader>(
        from reader: inout R, plan: EntityCodingPlan, store: InternedName, counted count: inout Int,
        wantsMore: () -> Bool = { true }, skipped: (String?) throws -> Void = { _ in },
        emit: (consuming SnapshotRecord) throws -> Void
    ) throws -> Int {
        try expect(.array, in: &reader)
        try reader.beginArray()
        var index = 0
        // Where a to-many relationship's references are gathered, reused from snapshot to
        // snapshot: each list is then made once, at its size, not grown one reference at a time.
        var gathered: [PersistentIdentifier] = []
        while try reader.nextElement() {
            guard wantsMore() else {
                // The rest is skipped (read for its syntax and primary keys only) and counted.
                repeat {
                    guard count < limits.maximumSnapshotCount else {
                        throw limits.exceeded(.snapshotCount, at: reader.location(of: reader.bookmark))
                    }
                    let key = try skipSnapshot(from: &reader)
                    try skipped(key)
                    index += 1
                    count += 1
                } while try reader.nextElement()
                break
            }
            guard count < limits.maximumSnapshotCount else {
                throw limits.exceeded(.snapshotCount, at: reader.location(of: reader.bookmark))
            }
            let snapshot = try within("[\(index)]") {
                try decodeSnapshot(from: &reader, plan: plan, store: store, gathering: &gathered)
            }
            try emit(consume snapshot)
            index += 1
            count += 1
            CodingProgress.tick(index)
        }
        CodingProgress.finishEntity(index)
        return index
    }

    /// Skips one snapshot, returning its primary key when it has one as a string.
    private func skipSnapshot<R: StructuredReader>(from reader: inout R) throws -> String? {
        guard try reader.peekKind() == .object else {
            try reader.skipValue()
            return nil
        }
        try reader.beginObject()
        var primaryKey: String?
        while let key = try reader.nextKey() {
            if key == EntityCodingPlan.identifierKey, primaryKey == nil, try reader.peekKind() == .string {
                primaryKey = try reader.readString()
            } else {
                try reader.skipValue()
            }
        }
        return primaryKey
    }

    private func decodeSnapshot<R: StructuredReader>(
        from reader: inout R, plan: EntityCodingPlan, store: InternedName, gathering targets: inout [PersistentIdentifier]
    ) throws -> SnapshotRecord {
        let start = reader.bookmark
        try expect(.object, in: &reader)
        try reader.beginObject()
        var primaryKey: String?
        let properties = plan.propertiesInKeyOrder
        // The values in key order, and which have been seen.
        var values = plan.makeNullValues()
        var seen = SeenProperties(count: properties.count)
        let keys = plan.keysInKeyOrder
        let codings = plan.codingsInKeyOrder
        let knowsKeysByPlace = plan.knowsKeysByPlace
        var previous = -1
        // The key most likely next: `$id`, then each property in key order (as tripdoc writes
        // them). A key read as expected is known by its place, without a string or a lookup.
        var expected = EntityCodingPlan.identifierKey
        var expectedIndex = -1
        while let match = try reader.nextKey(matching: expected) {
            let index: Int
            switch match {
            case .expected where knowsKeysByPlace && expectedIndex >= 0 && expectedIndex < properties.count:
                index = expectedIndex
            case .expected, .other:
                let key = if case .other(let key) = match { key } else { expected }
                if key == EntityCodingPlan.identifierKey {
                    try readPrimaryKey(into: &primaryKey, from: &reader)
                    expectedIndex = previous + 1
                    expected = keys[expectedIndex]
                    continue
                }
                guard NameNormalization.isNFC(key) else {
                    throw failure(
                        at: reader.bookmark, in: reader, NameNormalization.problem(with: key, what: "the member name"))
                }
                guard let property = plan.propertiesByName[key] else {
                    throw failure(
                        at: reader.bookmark, in: reader,
                        "'\(key)' is not a property of \(plan.entity.name) (it has "
                            + plan.entity.propertyNames.joined(separator: ", ") + ")")
                }
                index = property.index
            }
            guard seen.insert(index) else {
                throw failure(at: reader.bookmark, in: reader, "the property '\(keys[index])' appears twice")
            }
            previous = index
            expectedIndex = index + 1
            expected = keys[expectedIndex]
            let coding = codings[index]
            values[index] = try within(keys[index]) {
                switch coding.role {
                case .attribute:
                    if coding.isOptional, try reader.peekKind() == .null {
                        try reader.skipValue()
                        return .null
                    }
                    return try decodeValue(coding.type, from: &reader)
                case .toOne:
                    if try reader.peekKind() == .null {
                        try reader.skipValue()
                        return .null
                    }
                    return .reference(
                        try decodeReference(
                            to: coding.destinationName, of: properties[index].destination, store: store, from: &reader))
                case .toMany:
                    try expect(.array, in: &reader)
                    try reader.beginArray()
                    targets.removeAll(keepingCapacity: true)
                    while try reader.nextElement() {
                        let target = try within("[\(targets.count)]") {
                            try decodeReference(
                                to: coding.destinationName, of: properties[index].destination, store: store, from: &reader)
                        }
                        targets.append(target)
                    }
                    // A copy of exactly the targets read: an array made from the whole of
                    // `targets` would share its buffer, spare capacity included, and the next
                    // snapshot's `removeAll(keepingCapacity:)` would then allocate another.
                    return .references(targets.withUnsafeBufferPointer { Array($0) })
                }
            }
        }
        guard let primaryKey else {
            throw failure(at: start, in: reader, "the snapshot has no '$id'")
        }
        for property in properties where !seen.contains(property.index) {
            switch property.role {
            case .attribute:
                if property.isOptional {
                    continue  // .null already
                } else if let defaultValue = property.defaultValue {
                    values[property.index] = defaultValue
                } else {
                    throw failure(
                        at: start, in: reader,
                        "the snapshot \(plan.entity.name)/\(primaryKey) has no value for the non-optional "
                            + "attribute '\(property.name)'")
                }
            case .toOne: continue
            case .toMany: values[property.index] = .references([])
            }
        }
        return SnapshotRecord(
            plan: plan, store: store, primaryKey: primaryKey, values: values, valuesFitPlan: true)
    }

    /// Reads a snapshot's `$id` into `primaryKey`, refusing a second one and an empty one.
    private func readPrimaryKey<R: StructuredReader>(into primaryKey: inout String?, from reader: inout R) throws {
        let valueStart = reader.bookmark
        guard primaryKey == nil else { throw failure(at: valueStart, in: reader, "'$id' appears twice") }
        let value = try within(EntityCodingPlan.identifierKey) { try reader.readString() }
        guard !value.isEmpty else { throw failure(at: valueStart, in: reader, "'$id' is empty") }
        primaryKey = value
    }

    /// Reads a reference to a `destination` (the entity's kept name), named `destinationText` in
    /// messages.
    private func decodeReference<R: StructuredReader>(
        to destination: InternedName, of destinationText: @autoclosure () -> String, store: InternedName,
        from reader: inout R
    ) throws -> PersistentIdentifier {
        let start = reader.bookmark
        // A format may write text it cannot carry as data (the plist); readString decodes it back.
        let kind = try reader.peekKind()
        guard kind == .string || kind == .data else {
            throw failure(
                at: start, in: reader, "expected the primary key of a \(destinationText()) as a string, found " + kind.article)
        }
        let key = try reader.readString()
        guard !key.isEmpty else { throw failure(at: start, in: reader, "a reference to \(destinationText()) is empty") }
        return PersistentIdentifier(store: store, entity: destination, primaryKey: key)
    }

    // MARK: Helpers

    /// Reads an object member by member, refusing duplicate keys and (when `allowedKeys` is
    /// given) keys not in it.
    func decodeObject<R: StructuredReader>(
        from reader: inout R, allowedKeys: Set<String>?, member: (String, inout R) throws -> Void
    ) throws {
        try expect(.object, in: &reader)
        try reader.beginObject()
        var seen: Set<String> = []
        while let key = try reader.nextKey() {
            let start = reader.bookmark
            guard NameNormalization.isNFC(key) else {
                throw failure(at: start, in: reader, NameNormalization.problem(with: key, what: "the member name"))
            }
            if let allowedKeys, !allowedKeys.contains(key) {
                throw failure(
                    at: start, in: reader,
                    "unexpected member '\(key)'; expected " + allowedKeys.sorted().joined(separator: ", "))
            }
            guard seen.insert(key).inserted else {
                throw failure(at: start, in: reader, "the member '\(key)' appears twice")
            }
            try within(key) { try member(key, &reader) }
        }
    }

    /// Reads a string that names an entity or a property, refusing one that is not in NFC
    /// (``NameNormalization``).
    func readName<R: StructuredReader>(from reader: inout R) throws -> String {
        let start = reader.bookmark
        let name = try reader.readString()
        guard NameNormalization.isNFC(name) else {
            throw failure(at: start, in: reader, NameNormalization.problem(with: name))
        }
        return name
    }

    /// Throws unless the next value is of `kind`.
    func expect<R: StructuredReader>(_ kind: StructuredValueKind, in reader: inout R) throws {
        let found = try reader.peekKind()
        guard found == kind else {
            throw failure(at: reader.bookmark, in: reader, "expected \(kind.article), found \(found.article)")
        }
    }

    /// Runs `body`, adding `component` to the key path of any failure that comes out of it
    /// (spelled only then: this runs for every value read).
    func within<T>(_ component: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var failure as DocumentDecodingFailure {
            failure.keyPath.append(component())
            throw failure
        } catch let error as StructuredReadError {
            throw DocumentDecodingFailure(
                location: error.location, keyPath: [component()], message: error.message, isMalformed: error.isMalformed,
                hint: error.hint)
        }
    }

    func failure<R: StructuredReader>(at bookmark: R.Bookmark, in reader: R, _ message: String)
        -> DocumentDecodingFailure
    {
        DocumentDecodingFailure(location: reader.location(of: bookmark), keyPath: [], message: message)
    }
}

/// Which properties of a snapshot have been read: bits for up to 64, an array beyond.
private struct SeenProperties {
    private var bits: UInt64 = 0
    private var flags: [Bool]?

    init(count: Int) {
        if count > 64 { flags = Array(repeating: false, count: count) }
    }

    /// Marks `index` seen; `false` when it already was.
    mutating func insert(_ index: Int) -> Bool {
        if flags != nil {
            if flags![index] { return false }
            flags![index] = true
            return true
        }
        let bit: UInt64 = 1 << UInt64(index)
        if bits & bit != 0 { return false }
        bits |= bit
        return true
    }

    func contains(_ index: Int) -> Bool {
        flags?[index] ?? (bits & (1 << UInt64(index)) != 0)
    }
}

