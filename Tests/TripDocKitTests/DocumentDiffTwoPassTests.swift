import Foundation
import Testing
import TripDoc
@testable import TripDocKit
import TripDocTestSupport

/// Comparing two documents whose objects are matched by their values (`unique`, `content`) or
/// by a remap table (`map`) in two readings of each (`DocumentDiff(files:_:)`, what `tripdoc
/// diff` does): the same differences, JSON and patch as comparing them read whole, for every
/// match, entity filter, ignored property and history, over renamed keys, keys in another
/// order, duplicated unique values, objects equal in content and references to matched and
/// unmatched objects; a fingerprint that collides gives the answer of reading whole.
@Suite struct DocumentDiffTwoPassTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("diff-two-pass") }

    func write(_ document: Document, as name: String, in format: any DocumentFormat = JSONFormat()) throws -> String {
        let path = scratch.file(name).path
        try format.writeDocument(document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `document` as another store whose primary keys `key` gives (entity, old key → new key),
    /// references following, with the remap table from the old keys to the new.
    static func rekeyed(
        _ document: Document, store: String, key: (String, String) -> String
    ) -> (document: Document, table: RemapTable) {
        var identifiers: [String: [String: String]] = [:]
        func moved(_ id: PersistentIdentifier) -> PersistentIdentifier {
            let new = key(id.entityName, id.primaryKey)
            identifiers[id.entityName, default: [:]][id.primaryKey] = new
            return PersistentIdentifier(storeIdentifier: store, entityName: id.entityName, primaryKey: new)
        }
        var result = document
        result.header.storeIdentifier = store
        result.header.derivedFrom = nil
        result.snapshots = document.snapshots.map { snapshot in
            DefaultSnapshot(
                persistentIdentifier: moved(snapshot.persistentIdentifier),
                values: snapshot.values.mapValues { value in
                    switch value {
                    case .reference(let target): .reference(moved(target))
                    case .references(let targets): .references(targets.map(moved))
                    default: value
                    }
                })
        }
        let table = RemapTable(
            fromStore: document.storeIdentifier, toStore: store, identifiers: identifiers, tokens: nil)
        return (result, table)
    }

    /// The comparison of `a` and `b` read whole as records, what `diff` did before.
    func whole(
        _ a: String, _ b: String, match: DocumentDiff.MatchStrategy, table: RemapTable?, entity: String?,
        ignoring: Set<String>, history: Bool
    ) throws -> DocumentDiff {
        let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(a, b)
        return try DocumentDiff(
            recordsA, at: a, recordsB, at: b, match: match, remapTable: table, entity: entity, ignoring: ignoring,
            history: history)
    }

    /// Expects `streamed` to say exactly what `whole` says, in every form, patch included (or
    /// the same refusal to make one).
    func expectSame(_ streamed: DocumentDiff, _ whole: DocumentDiff, _ context: String) throws {
        #expect(streamed.text(colour: false) == whole.text(colour: false), "\(context)")
        #expect(streamed.text(colour: true) == whole.text(colour: true), "\(context)")
        let json = try streamed.jsonData(schemaA: streamed.a.schema, schemaB: streamed.b.schema)
        let expected = try whole.jsonData(schemaA: whole.a.schema, schemaB: whole.b.schema)
        #expect(String(decoding: json, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(context)")
        #expect(streamed.isIdentical == whole.isIdentical, "\(context)")
        func patch(_ diff: DocumentDiff) -> String {
            do {
                let made = try DocumentPatch(diff, schemaVersionA: diff.a.schema.version, schemaVersionB: diff.b.schema.version)
                return String(decoding: try made.jsonData(), as: UTF8.self)
            } catch {
                return "refused: \(error)"
            }
        }
        #expect(patch(streamed) == patch(whole), "\(context)")
    }

    /// Compares `a` with `b` both ways (streamed, and read whole) for every match that applies,
    /// each entity alone and all, with and without `ignoring`, with and without history, and
    /// expects the same, the streamed comparisons reading each document twice.
    func expectSameEverywhere(
        _ a: String, _ b: String, table: RemapTable? = nil, entities: [String?], ignoring: Set<String>
    ) throws {
        let matches: [DocumentDiff.MatchStrategy] = table == nil ? [.auto, .unique, .content] : [.auto, .map, .unique, .content]
        for match in matches {
            for entity in entities {
                for ignored in [[], ignoring] {
                    for history in [false, true] {
                        let context = "\(match) \(entity ?? "all") \(ignored) \(history)"
                        let streamed = try DocumentDiff(
                            files: a, b, match: match, remapTable: table, entity: entity, ignoring: ignored, history: history)
                        #expect(streamed.reading == .twoPasses, "\(context)")
                        try expectSame(
                            streamed,
                            try whole(a, b, match: match, table: table, entity: entity, ignoring: ignored, history: history),
                            context)
                    }
                }
            }
        }
    }

    static let tripEntities: [String?] = [nil, "Trip", "BucketListItem", "LivingAccommodation"]

    @Test(arguments: [JSONFormat(), PlistFormat(), BundleFormat()] as [any DocumentFormat])
    func anotherStoreWithRenamedKeysComparesInTwoReadings(format: any DocumentFormat) throws {
        let before = try SampleTrips.documentWithHistory(trips: 40)
        let edited = try DocumentDiffStreamingTests.edited(before)
        // B's keys are A's times 3 plus 1000: another spelling, the same order.
        let (after, table) = Self.rekeyed(edited, store: "7E1F0000-0000-4000-8000-0000000000A1") { _, key in
            Int(key).map { String($0 * 3 + 1000) } ?? key
        }
        let a = try write(before, as: "a.json")
        let b = try write(after, as: "b.\(format.fileExtensions[0])", in: format)
        let streamed = try DocumentDiff(files: a, b)
        #expect(streamed.reading == .twoPasses)
        #expect(streamed.entities.map(\.strategy) == [.content, .content, .unique])
        #expect(DocumentDiffStreamingTests.counts(streamed).reduce(0, +) > 0)
        let mapped = try DocumentDiff(files: a, b, remapTable: table)
        #expect(mapped.reading == .twoPasses)
        #expect(mapped.entities.map(\.strategy) == [.map, .map, .map])
        // The table names the same pairs as the keys of B before they were spelled anew.
        let byKey = try DocumentDiff(files: a, try write(edited, as: "same-keys.json"))
        #expect(byKey.reading == .merged)
        #expect(DocumentDiffStreamingTests.counts(mapped) == DocumentDiffStreamingTests.counts(byKey))
        #expect(DocumentDiffStreamingTests.counts(mapped).reduce(0, +) > 0)
        try expectSameEverywhere(a, b, table: table, entities: Self.tripEntities, ignoring: ["destination", "BucketListItem.trip"])
    }

    @Test func keysInTheReverseOrderMakeThePairsWaitAndCompareTheSame() throws {
        let before = SampleTrips.document(trips: 30)
        let (after, table) = Self.rekeyed(
            try DocumentDiffStreamingTests.edited(before), store: "7E1F0000-0000-4000-8000-0000000000A2"
        ) { _, key in Int(key).map { String(1_000_000 - $0) } ?? key }
        let a = try write(before, as: "a.plist", in: PlistFormat())
        let b = try write(after, as: "b.json")
        try expectSameEverywhere(a, b, table: table, entities: [nil, "BucketListItem"], ignoring: ["title"])
        try expectSameEverywhere(b, a, entities: [nil, "Trip"], ignoring: ["Trip.bucketList"])
    }

    /// Trips sharing their unique values (name and dates), bucket-list items equal in everything
    /// (some more times in one document than in the other), items pointing to a trip only one
    /// side has, and a trip whose items moved to another.
    static func awkward(_ document: Document, dropping: Bool) -> Document {
        var result = document
        let trips = result.snapshots.indices.filter { result.snapshots[$0].entityName == "Trip" }
        let items = result.snapshots.indices.filter { result.snapshots[$0].entityName == "BucketListItem" }
        // Trips 2 and 4 take trip 1's unique values.
        for index in [trips[1], trips[3]] {
            for name in ["name", "startDate", "endDate"] { result.snapshots[index][name] = result.snapshots[trips[0]][name] }
        }
        // Items 2, 3 and 5 become copies of item 1 (same title, same trip).
        for index in [items[1], items[2], items[4]] {
            for (name, value) in result.snapshots[items[0]].values where name != "trip" { result.snapshots[index][name] = value }
        }
        if dropping {
            // B drops one copy and trip 6 (its items then point to a trip B lacks).
            result.snapshots.remove(at: items[2])
            let sixth = trips[5] - (trips[5] > items[2] ? 1 : 0)
            result.snapshots.remove(at: sixth)
        }
        return result
    }

    @Test func duplicatedUniqueValuesAndObjectsEqualInContentPairFirstComeFirstServed() throws {
        let base = SampleTrips.document(trips: 25)
        let before = Self.awkward(base, dropping: false)
        let (after, table) = Self.rekeyed(
            Self.awkward(try DocumentDiffStreamingTests.edited(base), dropping: true),
            store: "7E1F0000-0000-4000-8000-0000000000A3"
        ) { entity, key in entity == "Trip" ? "trip-\(key)" : key }
        let a = try write(before, as: "a.json")
        let b = try write(after, as: "b.tripbundle", in: BundleFormat())
        try expectSameEverywhere(a, b, table: table, entities: Self.tripEntities, ignoring: ["notes", "Trip.livingAccommodation"])
        try expectSameEverywhere(b, a, entities: [nil], ignoring: ["title"])
    }

    /// Random schemas: every attribute type, composites, self-references and cycles.
    @Test(arguments: [3, 11, 29, 47] as [UInt64])
    func randomDocumentsCompareAsWhenReadWhole(seed: UInt64) throws {
        var generator = RandomDocuments(seed: seed)
        let before = generator.document()
        var edited = before
        // Values swapped between neighbours of one entity: changes, and matches out of order.
        for index in stride(from: 0, to: edited.snapshots.count - 1, by: 3)
        where edited.snapshots[index].entityName == edited.snapshots[index + 1].entityName {
            let values = edited.snapshots[index].values
            edited.snapshots[index].values = edited.snapshots[index + 1].values
            edited.snapshots[index + 1].values = values
        }
        let (after, table) = Self.rekeyed(edited, store: "7E1F0000-0000-4000-8000-0000000000A4") { _, key in "r" + key }
        let a = try write(before, as: "a.json")
        let b = try write(after, as: "b.plist", in: PlistFormat())
        let entities = [nil] + before.schema.entities.prefix(2).map(\.name)
        let ignoring = Set(before.schema.entities.compactMap { $0.attributes.first.map(\.name) })
        try expectSameEverywhere(a, b, table: table, entities: entities, ignoring: ignoring)
    }

    @Test func aRemapTableThatMapsTwoObjectsToOneIsComparedReadWhole() throws {
        let before = SampleTrips.document(trips: 10)
        var (after, table) = Self.rekeyed(before, store: "7E1F0000-0000-4000-8000-0000000000A5") { _, key in key }
        table.identifiers["Trip"]?["2"] = "1"
        after.snapshots.removeAll { $0.entityName == "Trip" && $0.persistentIdentifier.primaryKey == "2" }
        let a = try write(before, as: "a.json")
        let b = try write(after, as: "b.json")
        for match in [DocumentDiff.MatchStrategy.auto, .map] {
            let streamed = try DocumentDiff(files: a, b, match: match, remapTable: table)
            #expect(streamed.reading == .whole)
            try expectSame(
                streamed, try whole(a, b, match: match, table: table, entity: nil, ignoring: [], history: false), "\(match)")
        }
    }

    /// Every fingerprint made equal: the first reading pairs objects whose values differ, which
    /// the second finds; the comparison then reads both whole, so the answer is still right.
    @Test func fingerprintsThatCollideAreFoundOutOnTheSecondReading() throws {
        let before = SampleTrips.document(trips: 12)
        let (after, _) = Self.rekeyed(
            try DocumentDiffStreamingTests.edited(before), store: "7E1F0000-0000-4000-8000-0000000000A6"
        ) { _, key in key }
        let a = try write(before, as: "a.json")
        let b = try write(after, as: "b.json")
        let dataA = try DocumentFile.contents(of: a, limits: .standard, mapped: true)
        let dataB = try DocumentFile.contents(of: b, limits: .standard, mapped: true)
        for match in [DocumentDiff.MatchStrategy.unique, .content] {
            var passes = DocumentDiff.TwoPassComparison(
                pathA: a, pathB: b, requested: match, remapTable: nil, onlyEntity: nil, ignoring: [], compareHistory: false)
            passes.fingerprintMask = 0
            #expect(throws: DocumentDiff.StreamUnavailable.self) {
                try passes.run { isA in DocumentDiff.stream(isA ? dataA : dataB, path: isA ? a : b, limits: .standard) }
            }
            var honest = DocumentDiff.TwoPassComparison(
                pathA: a, pathB: b, requested: match, remapTable: nil, onlyEntity: nil, ignoring: [], compareHistory: false)
            let made = try honest.run { isA in DocumentDiff.stream(isA ? dataA : dataB, path: isA ? a : b, limits: .standard) }
            try expectSame(
                made, try whole(a, b, match: match, table: nil, entity: nil, ignoring: [], history: false), "\(match)")
        }
    }

    /// `--where` keeps the differences of the objects that meet a condition on either side,
    /// read twice whatever the match (the objects the condition reads through a to-one
    /// relationship first), as the comparison read whole and then restricted keeps them.
    @Test func aConditionKeepsTheDifferencesOfTheObjectsThatMeetItAsWhenReadWhole() throws {
        let before = SampleTrips.document(trips: 40)
        let edited = try DocumentDiffStreamingTests.edited(before)
        var lineage = edited
        lineage.header.storeIdentifier = "7E1F0000-0000-4000-8000-0000000000B1"
        lineage.header.derivedFrom = DefaultHistoryToken(storeIdentifier: before.storeIdentifier, transactionIdentifier: 0)
        let (other, table) = Self.rekeyed(edited, store: "7E1F0000-0000-4000-8000-0000000000B2") { _, key in "k" + key }
        let a = try write(before, as: "a.json")
        let sameStore = try write(edited, as: "same.plist", in: PlistFormat())
        let sameLineage = try write(lineage, as: "lineage.json")
        let otherStore = try write(other, as: "other.tripbundle", in: BundleFormat())
        let conditions = [
            ("BucketListItem", "trip.destination == \"Elsewhere\" || title == \"A new thing to do\""),
            ("BucketListItem", "hasReservation == false"),
            ("Trip", "livingAccommodation.placeName != \"\" && name != \"\""),
            ("LivingAccommodation", "trip.name != \"\""),
        ]
        for (b, matches, map) in [
            (sameStore, [DocumentDiff.MatchStrategy.auto, .key, .content], nil as RemapTable?),
            (sameLineage, [.auto, .unique], nil), (otherStore, [.auto, .map, .unique, .content], table),
        ] {
            for match in matches {
                for (entity, condition) in conditions {
                    let context = "\(b) \(match) \(entity) \(condition)"
                    let streamed = try DocumentDiff(
                        files: a, b, match: match, remapTable: map, entity: entity, condition: condition)
                    #expect(streamed.reading == .twoPasses, "\(context)")
                    var expected = try whole(a, b, match: match, table: map, entity: entity, ignoring: [], history: false)
                    let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(a, b)
                    try expected.restrict(to: condition, entity: entity, a: recordsA, b: recordsB)
                    try expectSame(streamed, expected, context)
                }
            }
        }
        // Edits that all fall outside the condition leave nothing.
        let none = try DocumentDiff(files: a, sameStore, entity: "Trip", condition: "name == \"no such trip\"")
        #expect(none.isIdentical)
        // A condition that does not fit is refused as the restriction refuses it.
        let refused = #expect(throws: QueryError.self) {
            try DocumentDiff(files: a, otherStore, entity: "Trip", condition: "destination > 3")
        }
        let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(a, otherStore)
        var restricted = try whole(a, otherStore, match: .auto, table: nil, entity: "Trip", ignoring: [], history: false)
        let expected = #expect(throws: QueryError.self) {
            try restricted.restrict(to: "destination > 3", entity: "Trip", a: recordsA, b: recordsB)
        }
        #expect("\(String(describing: refused))" == "\(String(describing: expected))")
        #expect(throws: TripDocError.self) { try DocumentDiff(files: a, otherStore, condition: "true") }
    }
}
