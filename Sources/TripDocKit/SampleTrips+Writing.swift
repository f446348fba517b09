import Foundation
import TripDoc

extension SampleTrips {
    /// Writes the sample of `trips` trips to `writer` snapshot by snapshot, without holding it:
    /// the bytes of ``document(trips:seed:)`` (or, with `history`, of
    /// ``documentWithHistory(trips:seed:)``) written by the format, whatever the number of trips.
    ///
    /// The trips are drawn again for each entity (about a tenth of a second per million trips
    /// each time), so that the snapshots come in document order: entities by name, each entity's
    /// snapshots by primary key. Memory holds the generator (about 2 MB) and the few snapshots
    /// the history's story changes; the history's first transaction, which inserts every
    /// snapshot, has its changes handed to the writer as they are written
    /// (`HistoryChangeStream`).
    ///
    /// - Precondition: `trips` is from 0 to ``maximumTrips``.
    /// - Throws: What `writer` throws.
    public static func write(
        trips: Int, seed: UInt64 = 1, history: Bool = false, to writer: inout any DocumentStreamWriter
    ) throws {
        precondition((0...maximumTrips).contains(trips), "trips must be from 0 to \(maximumTrips)")
        // A first pass counts the trips' items and places to stay, which the header gives
        // before any snapshot, and finds the trips the history's story is about.
        var generator = SampleTripGenerator(seed: seed)
        var first: SampleTrip?
        var last: SampleTrip?
        for index in 0..<trips {
            let trip = generator.next()
            if index == 0 { first = trip }
            if index == trips - 1 { last = trip }
        }
        guard history else {
            try writer.begin(header: header(of: generator), schema: schema, history: DocumentHistory())
            try writeSnapshots(trips: trips, seed: seed, to: &writer)
            try writer.finish()
            return
        }
        guard let first, let last else {
            try writer.write(Document.empty(schema: schema, storeIdentifier: generator.storeIdentifier))
            return
        }
        let story = try story(first: first, last: last, of: generator)
        // The first save inserts every snapshot but the last trip's place to stay, which has
        // the greatest key of its entity: the store gives each entity the keys 1, 2, 3, … in
        // the order of the document, which are the keys the snapshots have. Its changes are
        // handed over as they are written, never held.
        let insertedStays = generator.stays - (last.stay == nil ? 0 : 1)
        let inserted = [("BucketListItem", generator.items), ("LivingAccommodation", insertedStays), ("Trip", Int64(trips))]
        try writer.begin(header: story.document.header, schema: schema, history: story.document.history) { transaction, add in
            guard transaction == 0 else { return }
            for (entity, count) in inserted {
                let prototype = story.document.identifier(entityName: entity, primaryKey: "1")
                for key in stride(from: 1, through: count, by: 1) {
                    try add(.insert(prototype.withPrimaryKey(String(key))))
                }
            }
        }
        try writeSnapshots(
            trips: trips, seed: seed, replacing: story.covered,
            with: Dictionary(grouping: story.document.snapshots, by: \.entityName), to: &writer)
        try writer.finish()
    }

    /// The history's story told on the trips it is about: a document holding the first and last
    /// trips with their bucket lists and places to stay, as the app's first save left them, to
    /// which ``tellTheStory(in:trips:)`` applies the other saves through the store engine. Its
    /// snapshots replace those of `covered` in the sample; its history is the sample's, but
    /// for the first transaction's changes (one insert per snapshot but the last trip's place
    /// to stay), which ``write(trips:seed:history:to:)`` hands over as it writes them.
    private static func story(first: SampleTrip, last: SampleTrip, of generator: SampleTripGenerator) throws
        -> (document: Document, covered: [String: Set<String>])
    {
        let store = generator.identifiers
        // The last trip starts without a place to stay, so that the widget can add one.
        var lastWithoutStay = last
        lastWithoutStay.stay = nil
        var snapshots: [DefaultSnapshot] = []
        var covered: [String: Set<String>] = [:]
        for trip in first.key == last.key ? [lastWithoutStay] : [first, lastWithoutStay] {
            snapshots += [trip.tripSnapshot(in: store)] + trip.itemSnapshots(in: store)
            if let stay = trip.staySnapshot(in: store) { snapshots.append(stay) }
        }
        for trip in [first, last] {
            for entity in ["Trip", "BucketListItem", "LivingAccommodation"] {
                for snapshot in trip.snapshots(of: entity, in: store) {
                    covered[entity, default: []].insert(snapshot.persistentIdentifier.primaryKey)
                }
            }
        }
        // The first save inserts every snapshot but the last trip's place to stay.
        let insertedStays = generator.stays - (last.stay == nil ? 0 : 1)
        var header = DocumentHeader(storeIdentifier: generator.storeIdentifier, schemaVersion: schema.version)
        header.nextPrimaryKeys = ["Trip": Int64(generator.trips + 1), "BucketListItem": generator.items + 1]
        if insertedStays > 0 { header.nextPrimaryKeys["LivingAccommodation"] = insertedStays + 1 }
        let firstSave = HistoryTransactionRecord(transactionIdentifier: 1, author: "app", timestamp: historyStart, changes: [])
        var document = Document(
            header: header, schema: schema, snapshots: snapshots, history: DocumentHistory(transactions: [firstSave]))
        try tellTheStory(in: &document, trips: generator.trips)
        return (document, covered)
    }

    /// Writes the sample's snapshots in document order, one entity after another, drawing the
    /// trips again for each; the snapshots of `covered` are left out and those of `replacements`
    /// (each entity's, with keys that are canonical numbers) are put in their place in key
    /// order.
    private static func writeSnapshots(
        trips: Int, seed: UInt64, replacing covered: [String: Set<String>] = [:],
        with replacements: [String: [DefaultSnapshot]] = [:], to writer: inout any DocumentStreamWriter
    ) throws {
        let entities = schema.entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for entity in entities {
            let left = covered[entity.name] ?? []
            let others = (replacements[entity.name] ?? []).map { (key: Int64($0.persistentIdentifier.primaryKey)!, snapshot: $0) }
                .sorted { $0.key < $1.key }
            var next = 0
            var begun = false
            func add(_ snapshot: DefaultSnapshot) throws {
                if !begun {
                    try writer.beginEntity(entity)
                    begun = true
                }
                try writer.add(snapshot)
            }
            var generator = SampleTripGenerator(seed: seed)
            for _ in 0..<trips {
                for snapshot in generator.next().snapshots(of: entity.name, in: generator.identifiers) {
                    let key = snapshot.persistentIdentifier.primaryKey
                    if !others.isEmpty {
                        let number = Int64(key)!
                        while next < others.count, others[next].key < number {
                            try add(others[next].snapshot)
                            next += 1
                        }
                    }
                    if left.isEmpty || !left.contains(key) { try add(snapshot) }
                }
            }
            for other in others[next...] { try add(other.snapshot) }
            if begun { try writer.endEntity() }
        }
    }
}
