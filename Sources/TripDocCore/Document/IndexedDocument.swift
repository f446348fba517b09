import Foundation

/// A document held for saving often: its snapshots by identifier, each entity's in document
/// order, and each uniqueness constraint's index (built when a save first needs it), all kept
/// up to date by
/// ``applySaveChanges(_:timestamp:processIdentifier:bundleIdentifier:keepingInsertedIdentifiers:)``
/// at the cost of what a save changes, not of the document's size.
///
/// A store that keeps its document in memory between saves (tripdoc's `DocumentStore` and
/// ``ArchiveStore`` do) holds one of these; ``Document`` is the form formats read and write.
/// Making one from a document, and ``document`` back, each take one pass over the snapshots.
public struct IndexedDocument: Sendable {
    /// What the document says about itself.
    public private(set) var header: DocumentHeader
    /// The entities the snapshots follow.
    public let schema: Schema
    /// Every save's transaction, oldest first.
    public var history: DocumentHistory
    /// Every snapshot, by identifier.
    private(set) var byIdentifier: IdentifierTable<DefaultSnapshot>
    /// The identifiers in document order of each entity whose snapshots ``byIdentifier`` does
    /// not hold in one run, by entity name. An entity not listed has its identifiers in one run
    /// (what a store numbering its models gives): their order is the run's, kept by the table
    /// itself, which spares the document a second list of every identifier.
    private var orders: [String: EntityOrder]
    /// For each entity and uniqueness constraint, the model holding each combination of values:
    /// the indexes saves keep up to date (those a save asked for before, see
    /// ``lazyUniqueIndexes``).
    private var uniqueIndexes: [String: [[String]: UniqueIndex]]
    /// The uniqueness indexes not yet in ``uniqueIndexes``, built when a save first asks for one
    /// (``uniqueIndex(of:constraint:)``).
    private var lazyUniqueIndexes = LazyIndexes<[String], UniqueIndex>()
    /// The model holding each combination of a uniqueness constraint's values.
    typealias UniqueIndex = [[SnapshotValue]: PersistentIdentifier]
    /// What was wrong with the document this was made from (an identifier listed twice); a save
    /// refuses to change such a document.
    let problems: [IntegrityProblem]
    /// For each entity, the attributes with an index (an `#Index` on the attribute alone) that
    /// saves keep up to date: those a fetch asked for before a save (see
    /// ``lazyAttributeIndexes``).
    private var attributeIndexes: [String: [String: AttributeIndex]] = [:]
    /// Whether attributes with an `#Index` get an index of their values.
    private let indexingAttributes: Bool
    /// The attribute indexes not yet in ``attributeIndexes``, built when a fetch first uses one.
    private var lazyAttributeIndexes: LazyIndexes<String, AttributeIndex>?
    /// The snapshots of each entity a document holding only some entities holds, in document
    /// order, as they were read (when the file listed them in order, once each).
    private var heldSnapshots: [String: [DefaultSnapshot]] = [:]
    /// The entities whose snapshots this holds, when it holds only some of the document's
    /// (``ArchiveStore/readSnapshots(of:)``): it then has no history, and cannot be written.
    /// It can take saves appended to a journal once it knows where the history stands
    /// (``knowsHistoryPosition``), when it holds every entity the save reads
    /// (``entitiesMissing(toSave:)``). `nil` for a whole document.
    public private(set) var heldEntities: Set<String>?
    /// Whether the document knows where its history stands: always for a whole document; for
    /// one holding only some entities, once it was read with the entities. Its
    /// ``history`` then has no transactions of the file's; its
    /// ``DocumentHistory/deletedThrough`` is the newest of them, and the transactions of the
    /// saves applied since follow.
    public var knowsHistoryPosition: Bool { heldEntities == nil || holdsHistoryPosition }
    private var holdsHistoryPosition = false
    /// The held entities whose snapshots list an identifier twice: a save of such a document
    /// reads it whole, which names the problem.
    private(set) var entitiesListingAnIdentifierTwice: Set<String> = []

    /// Indexes `document`. An identifier the document lists more than once is kept once (its
    /// last snapshot); saves then fail with ``SaveChangesError/documentHasProblems(_:)``.
    ///
    /// With `indexingAttributes`, each attribute that an `#Index` names alone (the schema's
    /// `indices`) gets an index of its values, for ``identifiers(of:where:from:to:)``, built
    /// when a fetch first asks for it and kept up to date by saves from then on: what a store
    /// answering fetches wants, and a tool applying one save does not.
    public init(_ document: Document, indexingAttributes: Bool = false) {
        header = document.header
        schema = document.schema
        history = document.history
        self.indexingAttributes = indexingAttributes
        var byIdentifier = IdentifierTable<DefaultSnapshot>()
        byIdentifier.prepareRuns(for: document.snapshots.lazy.map(\.persistentIdentifier))
        var hasDuplicates = false
        for snapshot in document.snapshots where byIdentifier.updateValue(snapshot, forKey: snapshot.persistentIdentifier) != nil {
            hasDuplicates = true
        }
        var orders: [String: EntityOrder] = [:]
        for entity in byIdentifier.entities { orders[entity.text] = Self.listedOrder(of: entity, in: byIdentifier) }
        self.byIdentifier = byIdentifier
        self.orders = orders
        uniqueIndexes = [:]
        problems = hasDuplicates ? IntegrityChecker().problems(in: document) : []
        if indexingAttributes { lazyAttributeIndexes = LazyIndexes() }
    }

    /// A document that holds the snapshots of some entities only, without history: what a
    /// store reads to answer fetches of those entities (see ``heldEntities``).
    init(partOf header: DocumentHeader, schema: Schema, indexingAttributes: Bool) {
        self.header = header
        self.schema = schema
        history = DocumentHistory()
        self.indexingAttributes = indexingAttributes
        byIdentifier = IdentifierTable()
        orders = [:]
        uniqueIndexes = [:]
        problems = []
        heldEntities = []
        if indexingAttributes { lazyAttributeIndexes = LazyIndexes() }
    }

    /// A whole document read entity by entity (``IndexedDocumentCollector``): its snapshots
    /// come through ``take(_:of:)``.
    init(reading header: DocumentHeader, schema: Schema, history: DocumentHistory, indexingAttributes: Bool) {
        self.header = header
        self.schema = schema
        self.history = history
        self.indexingAttributes = indexingAttributes
        byIdentifier = IdentifierTable()
        orders = [:]
        uniqueIndexes = [:]
        problems = []
        if indexingAttributes { lazyAttributeIndexes = LazyIndexes() }
    }

    /// Takes all the snapshots of `entity` (in any order) into a whole document being read
    /// entity by entity; `false` when one identifier is listed twice (the reader then makes the
    /// document from a ``Document``, which names the problem).
    mutating func take(_ snapshots: [DefaultSnapshot], of entity: Schema.Entity) -> Bool {
        precondition(heldEntities == nil, "a whole document takes its entities' snapshots")
        return add(snapshots, of: entity) == snapshots.count
    }

    /// Takes the snapshots of `entity` (all the document holds, in any order) into a document
    /// that holds only some entities. A snapshot whose identifier is listed twice is kept once.
    mutating func hold(_ snapshots: [DefaultSnapshot], of entity: Schema.Entity) {
        precondition(heldEntities != nil && !heldEntities!.contains(entity.name), "an entity is held once, by a partial document")
        heldEntities!.insert(entity.name)
        if add(snapshots, of: entity) != snapshots.count {
            entitiesListingAnIdentifierTwice.insert(entity.name)
        } else if zip(snapshots, snapshots.dropFirst()).allSatisfy({ $0.persistentIdentifier < $1.persistentIdentifier }) {
            heldSnapshots[entity.name] = snapshots
        }
    }

    /// Takes where the history of the file a document holding only some entities was read
    /// from stands (`history`'s ``DocumentHistory/nextTransactionIdentifier``), so that saves
    /// can number their transactions.
    mutating func takeHistoryPosition(_ history: DocumentHistory) {
        precondition(heldEntities != nil, "a whole document has its history")
        self.history = DocumentHistory(deletedThrough: history.nextTransactionIdentifier - 1)
        holdsHistoryPosition = true
    }

    /// Whether the document holds the snapshots of `entityName` (every entity, for a whole
    /// document).
    public func holds(_ entityName: String) -> Bool { heldEntities?.contains(entityName) ?? true }


    /// Adds the snapshots of `entity` (of which the document holds none yet) and their order;
    /// returns how many identifiers they have (an identifier listed twice counts once, its
    /// last snapshot kept).
    private mutating func add(_ snapshots: [DefaultSnapshot], of entity: Schema.Entity) -> Int {
        byIdentifier.prepareRuns(for: snapshots.lazy.map(\.persistentIdentifier))
        let before = byIdentifier.count
        for snapshot in snapshots { byIdentifier.updateValue(snapshot, forKey: snapshot.persistentIdentifier) }
        if let first = snapshots.first { listOrderIfSpread(first.persistentIdentifier.entity) }
        return byIdentifier.count - before
    }

    /// Lists the order of `entity`'s identifiers in ``orders`` when the table holds them in
    /// several places; lets go of the list when it holds them in one run.
    private mutating func listOrderIfSpread(_ entity: InternedName) {
        if byIdentifier.holdsInOneRun(entity) {
            orders[entity.text] = nil
        } else if orders[entity.text] == nil {
            orders[entity.text] = Self.listedOrder(of: entity, in: byIdentifier)
        }
    }

    /// The order of `entity`'s identifiers when `table` holds them in several places, `nil`
    /// when it holds them in one run (whose order is theirs).
    private static func listedOrder(of entity: InternedName, in table: IdentifierTable<DefaultSnapshot>) -> EntityOrder? {
        table.holdsInOneRun(entity) ? nil : EntityOrder(table.identifiers(of: entity))
    }

    /// Notes that a document holding only some entities holds every snapshot of `entityName`:
    /// none (the file lists none, or the name is of no entity of the schema).
    mutating func holdNone(of entityName: String) {
        if let entity = schema.entity(named: entityName) {
            hold([], of: entity)
        } else {
            heldEntities?.insert(entityName)
        }
    }

    /// The uniqueness index of `constraint` of `entityName` (which the document holds): the one
    /// saves keep up to date, or one built over the entity's snapshots the first time a save
    /// asks for it. An identifier holding a combination of values that another listed later
    /// also holds is not in it.
    func uniqueIndex(of entityName: String, constraint: [String]) -> UniqueIndex {
        if let index = uniqueIndexes[entityName]?[constraint] { return index }
        precondition(holds(entityName), "a save reads the uniqueness indexes of entities the document holds")
        return lazyUniqueIndexes.index(of: entityName, constraint) {
            let identifiers = identifiers(of: entityName)
            var index: UniqueIndex = [:]
            index.reserveCapacity(identifiers.count)
            for identifier in identifiers {
                if let key = Self.uniqueKey(of: byIdentifier[identifier]!, constraint: constraint) { index[key] = identifier }
            }
            return index
        }
    }

    /// The attributes of `entity` that an `#Index` names alone.
    private static func indexedAttributes(of entity: Schema.Entity) -> [String] {
        var names: [String] = []
        for index in entity.indices where index.count == 1 && entity.attribute(named: index[0]) != nil {
            if !names.contains(index[0]) { names.append(index[0]) }
        }
        return names
    }

    /// An index of the values `attribute` holds in the snapshots of `identifiers`.
    private func attributeIndex(over identifiers: [PersistentIdentifier], of attribute: String) -> AttributeIndex {
        AttributeIndex(identifiers.map { (value: byIdentifier[$0]![attribute] ?? .null, identifier: $0) })
    }

    /// The index of `attribute` of `entityName`, or `nil` when it has none.
    private func attributeIndex(of entityName: String, _ attribute: String) -> AttributeIndex? {
        if let index = attributeIndexes[entityName]?[attribute] { return index }
        guard let lazyAttributeIndexes, heldEntities?.contains(entityName) ?? true,
            let entity = schema.entity(named: entityName), Self.indexedAttributes(of: entity).contains(attribute)
        else { return nil }
        return lazyAttributeIndexes.index(of: entityName, attribute) {
            attributeIndex(over: identifiers(of: entityName), of: attribute)
        }
    }

    /// The identifiers of `entityName`'s models whose `attribute` holds a value within the
    /// bounds (`nil`: unbounded), in the order of the values, models with equal values in
    /// document order; `nil` when the attribute has no index. `nil` values, values of another
    /// kind than the bounds' and NaN are never within bounds.
    public func identifiers(of entityName: String, where attribute: String, from lower: ValueBound?, to upper: ValueBound?)
        -> [PersistentIdentifier]?
    {
        attributeIndex(of: entityName, attribute)?.entries(in: lower, upper: upper).map(\.identifier)
    }

    /// The identifiers of the `count` models of `entityName` with the lowest values of
    /// `attribute` (the highest, `reversed`), and of every model tied with the last of them and
    /// of some models after it, in no order: what a sorted fetch with a limit orders and cuts;
    /// `nil` when the attribute has no index. Models with `nil` or NaN are not among them.
    public func identifiers(of entityName: String, withFirst count: Int, of attribute: String, reversed: Bool)
        -> [PersistentIdentifier]?
    {
        attributeIndex(of: entityName, attribute)?.firstEntries(count, reversed: reversed).map(\.identifier)
    }

    /// Whether a model of `entityName` holds NaN in `attribute`, which its index cannot place in
    /// an order.
    public func hasUnorderedValues(in attribute: String, of entityName: String) -> Bool {
        !(attributeIndex(of: entityName, attribute)?.unordered.isEmpty ?? true)
    }

    /// An empty document for `schema` with a new store identifier.
    public static func empty(schema: Schema, storeIdentifier: String = UUID().uuidString, indexingAttributes: Bool = false)
        -> IndexedDocument
    {
        IndexedDocument(Document.empty(schema: schema, storeIdentifier: storeIdentifier), indexingAttributes: indexingAttributes)
    }

    /// The store identifier, from the header.
    public var storeIdentifier: String { header.storeIdentifier }

    /// How many snapshots the document holds.
    public var count: Int { byIdentifier.count }

    /// The snapshot with `identifier`, or `nil` when the document holds none.
    public func snapshot(for identifier: PersistentIdentifier) -> DefaultSnapshot? {
        byIdentifier[identifier]
    }

    /// How many snapshots of `entityName` the document holds.
    public func count(of entityName: String) -> Int {
        if let order = orders[entityName] { return order.count }
        return soleRun(of: entityName)?.count ?? 0
    }

    /// The identifiers of `entityName`'s snapshots, in document order (by primary key).
    public func identifiers(of entityName: String) -> [PersistentIdentifier] {
        if let order = orders[entityName] { return order.identifiers }
        return soleRun(of: entityName)?.identifiers ?? []
    }

    /// The snapshots of `entityName`, in document order (by primary key).
    public func snapshots(of entityName: String) -> [DefaultSnapshot] {
        if let snapshots = heldSnapshots[entityName] { return snapshots }
        var snapshots: [DefaultSnapshot] = []
        snapshots.reserveCapacity(count(of: entityName))
        forEachSnapshot(of: entityName) { snapshots.append($0) }
        return snapshots
    }

    /// The run of the table holding every snapshot of `entityName`, an entity with no listed
    /// order (`nil` when it has no run, or the name is of no entity the process has met).
    private func soleRun(of entityName: String) -> IdentifierTable<DefaultSnapshot>.Run? {
        InternedName(ifKnown: entityName).flatMap { byIdentifier.soleRun(of: $0) }
    }

    /// Calls `body` with each snapshot of `entityName`, in document order: read from its run
    /// slot by slot when the table holds the entity in one, without making an identifier.
    private func forEachSnapshot(of entityName: String, _ body: (DefaultSnapshot) throws -> Void) rethrows {
        if let order = orders[entityName] {
            for identifier in order.identifiers { try body(byIdentifier[identifier]!) }
        } else if let run = soleRun(of: entityName) {
            for case let snapshot? in run.slots { try body(snapshot) }
        }
    }

    /// The whole document, its snapshots by entity name, then primary key (the order documents
    /// are written in).
    public var document: Document {
        precondition(heldEntities == nil, "a document holding only some entities is for reading them only")
        var snapshots: [DefaultSnapshot] = []
        snapshots.reserveCapacity(byIdentifier.count)
        for entityName in byIdentifier.entities.map(\.text).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            forEachSnapshot(of: entityName) { snapshots.append($0) }
        }
        return Document(header: header, schema: schema, snapshots: snapshots, history: history)
    }

    /// Writes the whole document to `writer`, as writing ``document`` would (the same calls in
    /// the same order, so the same bytes), from the snapshots where they are, without gathering
    /// them into a ``Document`` first.
    public func write(to writer: inout some DocumentStreamWriter) throws {
        precondition(heldEntities == nil, "a document holding only some entities is for reading them only")
        try writer.begin(header: header, schema: schema, history: history)
        for entity in schema.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            guard count(of: entity.name) > 0 else { continue }
            try writer.beginEntity(entity)
            try forEachSnapshot(of: entity.name) { try writer.add($0) }
            try writer.endEntity()
        }
        try writer.finish()
    }

    /// The values of `constraint`'s properties, or `nil` when one is missing or `nil` (models
    /// without a value never collide).
    static func uniqueKey(of snapshot: DefaultSnapshot, constraint: [String]) -> [SnapshotValue]? {
        var key: [SnapshotValue] = []
        key.reserveCapacity(constraint.count)
        for name in constraint {
            guard let value = snapshot[name], value != .null else { return nil }
            key.append(value)
        }
        return key
    }

    /// The fewest snapshots of a held entity's list that a save lets go of on another thread.
    static let listsReleasedInBackground = 8192

    /// Takes a save worked out against this document: snapshots, order, indexes, header and the
    /// history transaction, touching only what the save changed.
    mutating func commit(
        _ changed: ChangedSnapshots, header newHeader: DocumentHeader,
        transaction: HistoryTransactionRecord?
    ) {
        // Keys the old values held leave the indexes before the new values' keys enter them, so
        // a model taking over a key another model of the same save gave up keeps it.
        // (The constraints are copied out first: holding the entity's indexes while changing one
        // would make the change copy the whole index.)
        // The indexes saves asked for are kept up to date from here on; this document's
        // snapshots change, so later ones are built anew.
        for (entityName, indexes) in lazyUniqueIndexes.taken() {
            uniqueIndexes[entityName, default: [:]].merge(indexes) { kept, _ in kept }
        }
        lazyUniqueIndexes = LazyIndexes()
        let constraintsByEntity = uniqueIndexes.mapValues { Array($0.keys) }
        if let lazy = lazyAttributeIndexes {
            // The indexes fetches built are kept up to date from here on; this document's
            // snapshots change, so later ones are built anew.
            for (entityName, indexes) in lazy.taken() {
                attributeIndexes[entityName, default: [:]].merge(indexes) { kept, _ in kept }
            }
            lazyAttributeIndexes = LazyIndexes()
        }
        let indexedByEntity = attributeIndexes.mapValues { Array($0.keys) }
        if !indexedByEntity.isEmpty {
            changed.forEach { identifier, new in
                guard let names = indexedByEntity[identifier.entityName] else { return }
                let old = byIdentifier[identifier]
                for name in names {
                    let before = old.map { $0[name] ?? .null }
                    let after = new.map { $0[name] ?? .null }
                    if before != after || old == nil || new == nil {
                        attributeIndexes[identifier.entityName]![name]!.update(identifier, from: before, to: after)
                    }
                }
            }
            for (entityName, names) in indexedByEntity {
                for name in names { attributeIndexes[entityName]![name]!.foldIfWorthwhile() }
            }
        }
        if !constraintsByEntity.isEmpty {
            changed.forEach { identifier, _ in
                guard let old = byIdentifier[identifier], let constraints = constraintsByEntity[identifier.entityName] else { return }
                for constraint in constraints {
                    if let key = Self.uniqueKey(of: old, constraint: constraint),
                        uniqueIndexes[identifier.entityName]![constraint]![key] == identifier
                    {
                        uniqueIndexes[identifier.entityName]![constraint]![key] = nil
                    }
                }
            }
        }
        // The new values' keys in the uniqueness indexes (changes come entity by entity, so each
        // entity's constraints are looked up once a run of them).
        if !constraintsByEntity.isEmpty {
            var entity: InternedName?
            var constraints: [[String]]?
            changed.saved.forEach { identifier, new in
                if entity != identifier.entity {
                    entity = identifier.entity
                    constraints = constraintsByEntity[identifier.entityName]
                }
                for constraint in constraints ?? [] {
                    if let key = Self.uniqueKey(of: new, constraint: constraint) {
                        uniqueIndexes[identifier.entityName]![constraint]![key] = identifier
                    }
                }
            }
        }
        // The save's runs of entities the document held none of (a store's first models of an
        // entity: a bulk insert's) are taken as they are, their slots shared with the save's
        // report until either changes; the rest is set one by one, and the identifiers added to
        // entities with a listed order (see `orders`) are noted.
        let rest = byIdentifier.takeRuns(of: changed.saved)
        var added: [String: [PersistentIdentifier]] = [:]
        var entity: InternedName?
        var entityName = ""
        var isListed = false
        func note(_ identifier: PersistentIdentifier) {
            guard entity != identifier.entity else { return }
            entity = identifier.entity
            entityName = identifier.entityName
            isListed = orders[entityName] != nil
        }
        byIdentifier.prepareRuns(like: rest)
        rest.forEach { identifier, new in
            note(identifier)
            if byIdentifier.updateValue(new, forKey: identifier) == nil, isListed {
                added[entityName, default: []].append(identifier)
            }
        }
        for identifier in changed.deleted {
            note(identifier)
            if byIdentifier.removeValue(forKey: identifier) != nil, isListed {
                orders[entityName]!.remove(identifier)
            }
        }
        // An entity whose identifiers the table now holds in one run needs no list; one it held in
        // one run and no longer does is listed from the table (the save's additions with it).
        for entity in changed.entities {
            let wasListed = orders[entity.text] != nil
            listOrderIfSpread(entity)
            if !wasListed || orders[entity.text] == nil { added[entity.text] = nil }
        }
        // Added in order. New keys are minted in sequence, so a save's list (a bulk insert's) is
        // usually in order already: checked in place and then taken as it is, not copied; only a
        // list out of order is sorted, each key's number worked out once (they are of one entity).
        for (entityName, identifiers) in added {
            func keyed(_ identifier: PersistentIdentifier) -> (identifier: PersistentIdentifier, number: Int64?) {
                (identifier, PrimaryKeyOrder.canonicalNumber(identifier.primaryKey))
            }
            func precedes(
                _ lhs: (identifier: PersistentIdentifier, number: Int64?), _ rhs: (identifier: PersistentIdentifier, number: Int64?)
            ) -> Bool {
                lhs.identifier.primaryKey == rhs.identifier.primaryKey
                    ? lhs.identifier < rhs.identifier
                    : PrimaryKeyOrder.precedes(lhs.identifier.primaryKey, lhs.number, rhs.identifier.primaryKey, rhs.number)
            }
            let isInOrder = zip(identifiers, identifiers.dropFirst()).allSatisfy { precedes(keyed($0), keyed($1)) }
            let sorted = isInOrder ? identifiers : identifiers.map(keyed).sorted(by: precedes).map(\.identifier)
            orders[entityName, default: EntityOrder()].insert(contentsOf: sorted)
        }
        // The snapshots of a changed entity are listed from its order from now on.
        if !heldSnapshots.isEmpty {
            changed.forEach { identifier, _ in
                guard let dropped = heldSnapshots.removeValue(forKey: identifier.entityName) else { return }
                // A large entity's list is let go on another thread: it takes a release per
                // snapshot (4 ms for 100,000), which an app's first save after opening, usually
                // of one model, would otherwise wait for.
                if dropped.count >= Self.listsReleasedInBackground { BackgroundRelease.release(consume dropped) }
            }
        }
        header = newHeader
        if let transaction { history.transactions.append(transaction) }
    }
}
