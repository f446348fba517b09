import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// Comparing two documents as they are read (`DocumentDiff(files:_:)`, what `tripdoc diff`
/// does): the same differences, JSON and patch as comparing them read whole, in every format,
/// for one store and for two of one lineage; documents out of order read whole instead, and
/// matching by values in two readings of each (see `DocumentDiffTwoPassTests`); A's reading
/// error first, as before.
@Suite struct DocumentDiffStreamingTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("diff-stream") }

    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]

    func write(_ document: Document, as name: String, in format: any DocumentFormat) throws -> String {
        let path = scratch.file(name).path
        try format.writeDocument(document).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `before` with BucketListItem 3 removed, BucketListItem 5 moved to the first trip, the
    /// first trip's destination changed and a new item added to it.
    static func edited(_ before: Document) throws -> Document {
        var after = before
        let store = before.storeIdentifier
        after.snapshots.removeAll { $0.entityName == "BucketListItem" && $0.persistentIdentifier.primaryKey == "3" }
        let firstTrip = try #require(after.snapshots.firstIndex { $0.entityName == "Trip" })
        let tripID = after.snapshots[firstTrip].persistentIdentifier
        let item5 = try #require(
            after.snapshots.firstIndex { $0.entityName == "BucketListItem" && $0.persistentIdentifier.primaryKey == "5" })
        after.snapshots[item5]["trip"] = .reference(tripID)
        let newItem = PersistentIdentifier(storeIdentifier: store, entityName: "BucketListItem", primaryKey: "900000")
        var values = after.snapshots[item5].values
        values["title"] = .string("A new thing to do")
        values["trip"] = .reference(tripID)
        after.snapshots.append(DefaultSnapshot(persistentIdentifier: newItem, values: values))
        for index in after.snapshots.indices where after.snapshots[index].entityName == "Trip" {
            guard case .references(var items) = after.snapshots[index]["bucketList"] ?? .null else { continue }
            items.removeAll { $0.primaryKey == "3" || $0.primaryKey == "5" }
            if after.snapshots[index].persistentIdentifier == tripID { items += [after.snapshots[item5].persistentIdentifier, newItem] }
            after.snapshots[index]["bucketList"] = .references(items)
        }
        after.snapshots[firstTrip]["destination"] = .string("Elsewhere")
        #expect(IntegrityChecker().problems(in: after) == [])
        return after
    }

    /// The numbers of added, removed and changed objects.
    static func counts(_ diff: DocumentDiff) -> [Int] { [diff.summary.added, diff.summary.removed, diff.summary.changed] }

    /// Expects `streamed` to say exactly what `whole` says, in every form.
    func expectSame(_ streamed: DocumentDiff, _ whole: DocumentDiff, patch: Bool = true) throws {
        #expect(streamed.text(colour: false) == whole.text(colour: false))
        #expect(streamed.text(colour: true) == whole.text(colour: true))
        let json = try streamed.jsonData(schemaA: streamed.a.schema, schemaB: streamed.b.schema)
        #expect(String(decoding: json, as: UTF8.self) == String(decoding: try whole.jsonData(schemaA: whole.a.schema, schemaB: whole.b.schema), as: UTF8.self))
        #expect(streamed.isIdentical == whole.isIdentical)
        if patch {
            let made = try DocumentPatch(streamed, schemaVersionA: streamed.a.schema.version, schemaVersionB: streamed.b.schema.version)
            let expected = try DocumentPatch(whole, schemaVersionA: whole.a.schema.version, schemaVersionB: whole.b.schema.version)
            #expect(try made.jsonData() == expected.jsonData())
        }
    }

    /// The comparison of `a` and `b` read whole as records, what `diff` did before it streamed.
    func whole(
        _ a: String, _ b: String, match: DocumentDiff.MatchStrategy = .auto, entity: String? = nil,
        ignoring: Set<String> = [], history: Bool = false
    ) throws -> DocumentDiff {
        let (recordsA, recordsB) = try DocumentFile.readRecordsOfBoth(a, b)
        return try DocumentDiff(
            recordsA, at: a, recordsB, at: b, match: match, entity: entity, ignoring: ignoring, history: history)
    }

    @Test(arguments: formats, formats)
    func oneStoreComparedAsItIsReadGivesTheDifferencesOfBothReadWhole(
        formatA: any DocumentFormat, formatB: any DocumentFormat
    ) throws {
        let before = SampleTrips.document(trips: 60)
        let a = try write(before, as: "a.\(formatA.fileExtensions[0])", in: formatA)
        let b = try write(try Self.edited(before), as: "b.\(formatB.fileExtensions[0])", in: formatB)
        let streamed = try DocumentDiff(files: a, b)
        #expect(Self.counts(streamed) == [1, 1, 2])
        #expect(streamed.text(colour: false).contains(" → \"Elsewhere\""))
        try expectSame(streamed, try whole(a, b))
        try expectSame(try DocumentDiff(files: a, b, entity: "BucketListItem"), try whole(a, b, entity: "BucketListItem"), patch: false)
        try expectSame(
            try DocumentDiff(files: a, b, ignoring: ["destination", "BucketListItem.trip"], history: true),
            try whole(a, b, ignoring: ["destination", "BucketListItem.trip"], history: true), patch: false)
        try expectSame(try DocumentDiff(files: b, a, match: .key), try whole(b, a, match: .key))
        // Histories, each listed before or after the snapshots as its format has it.
        let withHistory = try SampleTrips.documentWithHistory(trips: 20)
        let c = try write(withHistory, as: "c.\(formatA.fileExtensions[0])", in: formatA)
        let d = try write(try Self.edited(withHistory), as: "d.\(formatB.fileExtensions[0])", in: formatB)
        try expectSame(try DocumentDiff(files: c, d, history: true), try whole(c, d, history: true), patch: false)
        try expectSame(try DocumentDiff(files: a, d, history: true), try whole(a, d, history: true), patch: false)
    }

    @Test(arguments: formats, formats)
    func twoStoresOfOneLineageCompareByKeyNamingAsObjectsInBsTerms(
        formatA: any DocumentFormat, formatB: any DocumentFormat
    ) throws {
        let before = SampleTrips.document(trips: 50)
        var after = try Self.edited(before)
        after.header.storeIdentifier = "7E1F0000-0000-4000-8000-000000000001"
        after.header.derivedFrom = DefaultHistoryToken(storeIdentifier: before.storeIdentifier, transactionIdentifier: 0)
        let a = try write(before, as: "a.\(formatA.fileExtensions[0])", in: formatA)
        let b = try write(after, as: "b.\(formatB.fileExtensions[0])", in: formatB)
        let streamed = try DocumentDiff(files: a, b)
        #expect(streamed.sharedLineage == before.storeIdentifier)
        #expect(streamed.entities.allSatisfy { $0.strategy == .key })
        #expect(Self.counts(streamed) == [1, 1, 2])
        try expectSame(streamed, try whole(a, b))
        try expectSame(try DocumentDiff(files: b, a), try whole(b, a))
        // Another entity's keys are still matched when only one is compared.
        try expectSame(try DocumentDiff(files: a, b, entity: "Trip"), try whole(a, b, entity: "Trip"), patch: false)
    }

    /// `document` with its keys spelled three ways: some canonical numbers, some with a leading
    /// zero, some text, references following.
    static func rekeyed(_ document: Document) -> Document {
        func key(_ key: String) -> String {
            guard let number = Int(key) else { return key }
            return [key, "0" + key, "k" + key][number % 3]
        }
        func moved(_ id: PersistentIdentifier) -> PersistentIdentifier {
            PersistentIdentifier(storeIdentifier: id.storeIdentifier, entityName: id.entityName, primaryKey: key(id.primaryKey))
        }
        var result = document
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
        return result
    }

    @Test func keysOfEveryKindNameMatchedObjectsOfTwoStores() throws {
        let before = SampleTrips.document(trips: 40)
        var after = Self.rekeyed(try Self.edited(before))
        after.header.storeIdentifier = "7E1F0000-0000-4000-8000-000000000004"
        after.header.derivedFrom = DefaultHistoryToken(storeIdentifier: before.storeIdentifier, transactionIdentifier: 0)
        let a = try write(Self.rekeyed(before), as: "a.json", in: JSONFormat())
        let b = try write(after, as: "b.tripbundle", in: BundleFormat())
        let streamed = try DocumentDiff(files: a, b)
        #expect(Self.counts(streamed) == [1, 1, 2])
        try expectSame(streamed, try whole(a, b))
        try expectSame(try DocumentDiff(files: b, a), try whole(b, a))
    }

    /// A reference both sides make to an object neither holds is not the same object in B's
    /// terms: found once the target's entity has been read, it makes the comparison start again
    /// with both read whole, which reports the change as before.
    @Test func aDanglingReferenceOnBothSidesOfTwoStoresIsReportedAsReadingWholeReportsIt() throws {
        var before = SampleTrips.document(trips: 20)
        let item = try #require(before.snapshots.firstIndex { $0.entityName == "BucketListItem" })
        let nowhere = PersistentIdentifier(storeIdentifier: before.storeIdentifier, entityName: "Trip", primaryKey: "999999")
        before.snapshots[item]["trip"] = .reference(nowhere)
        var after = before
        after.header.storeIdentifier = "7E1F0000-0000-4000-8000-000000000003"
        after.header.derivedFrom = DefaultHistoryToken(storeIdentifier: before.storeIdentifier, transactionIdentifier: 0)
        let a = try write(before, as: "a.json", in: JSONFormat())
        let b = try write(after, as: "b.plist", in: PlistFormat())
        let streamed = try DocumentDiff(files: a, b)
        #expect(Self.counts(streamed) == [0, 0, 1])
        #expect(streamed.text(colour: false).contains("trip: Trip/999999 (only in \(a)) → Trip/999999"))
        try expectSame(streamed, try whole(a, b), patch: false)
    }

    /// `document` written as JSON with its entities in reverse name order and each entity's
    /// snapshots in reverse key order, as another tool may write it.
    func writeOutOfOrder(_ document: Document, as name: String) throws -> String {
        let written = try JSONFormat().writeDocument(document)
        let root = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        let snapshots = try #require(root["snapshots"] as? [String: [Any]])
        var text = "{"
        for (key, value) in root where key != "snapshots" {
            let member = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            text += "\"\(key)\": " + String(decoding: member, as: UTF8.self) + ", "
        }
        text += "\"snapshots\": {"
        text += try snapshots.keys.sorted().reversed().map { entity in
            let array = try JSONSerialization.data(withJSONObject: Array(snapshots[entity]!.reversed()))
            return "\"\(entity)\": " + String(decoding: array, as: UTF8.self)
        }.joined(separator: ", ")
        text += "}}"
        let path = scratch.file(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aDocumentOutOfOrderIsComparedReadWhole() throws {
        let before = SampleTrips.document(trips: 40)
        let a = try write(before, as: "a.plist", in: PlistFormat())
        let reordered = try writeOutOfOrder(before, as: "reordered.json")
        let same = try DocumentDiff(files: a, reordered)
        #expect(same.isIdentical, "\(same.text(colour: false))")
        try expectSame(same, try whole(a, reordered))
        let changed = try writeOutOfOrder(try Self.edited(before), as: "changed.json")
        let streamed = try DocumentDiff(files: changed, a)
        #expect(Self.counts(streamed) == [1, 1, 2])
        try expectSame(streamed, try whole(changed, a))
    }

    @Test func objectsMatchedByTheirValuesGiveTheDifferencesOfBothReadWhole() throws {
        let before = SampleTrips.document(trips: 30)
        var after = try Self.edited(before)
        after.header.storeIdentifier = "7E1F0000-0000-4000-8000-000000000002"
        let a = try write(before, as: "a.json", in: JSONFormat())
        let b = try write(after, as: "b.tripbundle", in: BundleFormat())
        let streamed = try DocumentDiff(files: a, b)
        #expect(streamed.entities.map(\.strategy) == [.content, .content, .unique])
        try expectSame(streamed, try whole(a, b), patch: false)
        try expectSame(try DocumentDiff(files: a, b, match: .content), try whole(a, b, match: .content), patch: false)
    }

    @Test func aReadingErrorIsThrownAsWhenBothAreReadWholeAndAsFirstWhenBothFail() throws {
        let good = try write(SampleTrips.document(trips: 200), as: "good.json", in: JSONFormat())
        let text = try Data(contentsOf: URL(fileURLWithPath: good))
        let cut = scratch.file("cut.json").path
        try text.prefix(text.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let broken = scratch.file("broken.json").path
        try Data("{\"header\": ".utf8).write(to: URL(fileURLWithPath: broken))
        let missing = scratch.file("missing.json").path

        for (a, b, failing) in [(good, cut, cut), (cut, good, cut), (cut, broken, cut), (broken, cut, broken), (cut, missing, cut)] {
            let expected = #expect(throws: (any Error).self) { try DocumentFile.readRecords(failing) }
            let thrown = #expect(throws: (any Error).self) { try DocumentDiff(files: a, b) }
            #expect("\(thrown!)" == "\(expected!)", "\(a) \(b)")
        }
        let thrown = #expect(throws: (any Error).self) { try DocumentDiff(files: missing, cut) }
        #expect("\(thrown!)".contains("missing.json"), "\(thrown!)")
    }

    @Test func anUnknownEntityIsRefusedAfterTheDocumentsAreFoundSound() throws {
        let good = try write(SampleTrips.document(trips: 20), as: "good.json", in: JSONFormat())
        let thrown = #expect(throws: TripDocError.self) { try DocumentDiff(files: good, good, entity: "Boat") }
        #expect("\(thrown!)".contains("Boat"))
        let text = try Data(contentsOf: URL(fileURLWithPath: good))
        let cut = scratch.file("cut.json").path
        try text.prefix(text.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: DocumentReadError.self) { try DocumentDiff(files: good, cut, entity: "Boat") }
    }
}
