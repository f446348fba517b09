import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// Random edits of a SampleTrips document through the save engine, as an app makes them.
struct SampleEdits {
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { random.below(bound) }

    /// `document` with some trips renamed and re-dated, items retitled and moved between trips,
    /// trips and items deleted and (with `inserting`) trips and items added; only trips whose
    /// position passes `owns`, and their items, are touched.
    mutating func edit(
        _ document: Document, inserting: Bool = true, tag: String = "x", owns: (Int) -> Bool = { _ in true }
    ) throws -> Document {
        var result = document
        let trips = document.snapshots(of: "Trip").enumerated().filter { owns($0.offset) }.map(\.element)
        guard trips.count >= 2 else { return result }
        var request = DataStoreSaveChangesRequest<DefaultSnapshot>(editingState: EditingState(author: tag))
        var deleted: Set<PersistentIdentifier> = []
        var updated: Set<PersistentIdentifier> = []
        for trip in trips where below(6) == 0 {
            deleted.insert(trip.persistentIdentifier)
            request.deleted.append(trip)
        }
        let kept = trips.filter { !deleted.contains($0.persistentIdentifier) }
        for var trip in kept where below(4) == 0 {
            trip.values["destination"] = .string("\(tag) \(below(1000))")
            if below(2) == 0 { trip.values["endDate"] = .date(Date(timeIntervalSinceReferenceDate: Double(900_000_000 + below(1_000_000)))) }
            updated.insert(trip.persistentIdentifier)
            request.updated.append(trip)
        }
        let items = document.snapshots(of: "BucketListItem").filter { item in
            guard case .reference(let trip) = item.values["trip"] ?? .null else { return false }
            return kept.contains { $0.persistentIdentifier == trip }
        }
        for var item in items {
            switch below(8) {
            case 0:
                item.values["title"] = .string("\(tag) \(below(1000))")
                item.values["isInPlan"] = .bool(below(2) == 0)
                request.updated.append(item)
            case 1 where kept.count > 1:
                let target = kept[below(kept.count)].persistentIdentifier
                guard item.values["trip"] != .reference(target), !updated.contains(target) else { continue }
                item.values["trip"] = .reference(target)
                request.updated.append(item)
            case 2:
                request.deleted.append(item)
            default:
                continue
            }
        }
        if inserting {
            for number in 0..<(1 + below(3)) {
                let trip = PersistentIdentifier.temporary(entityName: "Trip")
                let item = PersistentIdentifier.temporary(entityName: "BucketListItem")
                request.inserted.append(
                    DefaultSnapshot(
                        persistentIdentifier: trip,
                        values: [
                            "name": .string("\(tag) trip \(number)"), "destination": .string("Nowhere"),
                            "startDate": .date(Date(timeIntervalSinceReferenceDate: 800_000_000)),
                            "endDate": .date(Date(timeIntervalSinceReferenceDate: 800_086_400)),
                            "bucketList": .references([item]),
                        ]))
                request.inserted.append(
                    DefaultSnapshot(
                        persistentIdentifier: item,
                        values: [
                            "title": .string("Pack"), "details": .string("Pack for \(tag)."), "hasReservation": .bool(false),
                            "isInPlan": .bool(true), "trip": .reference(trip),
                        ]))
            }
            if let owner = kept.first {
                request.inserted.append(
                    DefaultSnapshot(
                        persistentIdentifier: .temporary(entityName: "BucketListItem"),
                        values: [
                            "title": .string("\(tag) extra"), "details": .string(""), "hasReservation": .bool(true),
                            "isInPlan": .bool(false), "trip": .reference(owner.persistentIdentifier),
                        ]))
            }
        }
        try result.applySaveChanges(request, timestamp: Date(timeIntervalSinceReferenceDate: 0))
        return result
    }
}

/// `DocumentPatch` and `DocumentMerge` through the library: the properties of the issue, on
/// generated document pairs.
@Suite struct DocumentPatchTests {
    func diff(_ a: Document, _ b: Document, match: DocumentDiff.MatchStrategy = .auto) throws -> DocumentDiff {
        try DocumentDiff(DocumentRecords(a), at: "A", DocumentRecords(b), at: "B", match: match)
    }

    func patch(_ a: Document, _ b: Document) throws -> DocumentPatch {
        try DocumentPatch(from: DocumentRecords(a), at: "A", to: DocumentRecords(b), at: "B")
    }

    func applied(_ patch: DocumentPatch, to document: Document, reverse: Bool = false) throws -> Document {
        var result = document
        try patch.apply(to: &result, path: "doc", options: .init(reverse: reverse))
        return result
    }

    @Test(arguments: 1...6 as ClosedRange<UInt64>)
    func aPatchTurnsAIntoBAndBackOneStore(seed: UInt64) throws {
        let a = SampleTrips.document(trips: 40, seed: seed)
        var edits = SampleEdits(seed: seed)
        let b = try edits.edit(a)
        let patch = try patch(a, b)
        #expect(!patch.isEmpty)
        let patched = try applied(patch, to: a)
        #expect(try diff(patched, b).isIdentical)
        #expect(IntegrityChecker().problems(in: patched) == [])
        #expect(try diff(applied(patch, to: b, reverse: true), a).isIdentical)
        // The Codable form round-trips exactly.
        #expect(try DocumentPatch.read(patch.jsonData(), path: "p") == patch)
    }

    @Test(arguments: 1...3 as ClosedRange<UInt64>)
    func aPatchTurnsAIntoBAndBackInEveryFormatPair(seed: UInt64) throws {
        let a = SampleTrips.document(trips: 15, seed: seed)
        var edits = SampleEdits(seed: seed + 50)
        let b = try edits.edit(a)
        for first in DocumentFormats.all {
            for second in DocumentFormats.all {
                let readA = try first.readDocument(from: first.writeDocument(a), file: "a")
                let readB = try second.readDocument(from: second.writeDocument(b), file: "b")
                let patch = try DocumentPatch.read(patch(readA, readB).jsonData(), path: "p")
                let patched = try applied(patch, to: readA)
                let written = try second.readDocument(from: second.writeDocument(patched), file: "out")
                #expect(try diff(written, readB).isIdentical, "\(first.name) → \(second.name)")
                #expect(try diff(applied(patch, to: readB, reverse: true), readA).isIdentical, "\(first.name) → \(second.name)")
            }
        }
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func aPatchTurnsAIntoBAcrossStoresWithOtherKeys(seed: UInt64) throws {
        let a = SampleTrips.document(trips: 30, seed: seed)
        var edits = SampleEdits(seed: seed + 100)
        let edited = try edits.edit(a)
        let b = try DocumentConversion(
            source: DocumentFile(path: "b", format: JSONFormat(), size: 0, document: edited), storeIdentifier: "OTHER",
            renumber: true
        ).document
        let patch = try patch(a, b)
        #expect(patch.a.storeIdentifier == a.storeIdentifier && patch.b.storeIdentifier == "OTHER")
        #expect(try diff(applied(patch, to: a), b).isIdentical)
        #expect(try diff(applied(patch, to: b, reverse: true), a).isIdentical)
    }

    @Test func aPatchIsOneHistoryTransactionByItsAuthor() throws {
        let a = SampleTrips.document(trips: 20)
        var edits = SampleEdits(seed: 9)
        let b = try edits.edit(a)
        var result = a
        try patch(a, b).apply(to: &result, path: "doc", options: .init(author: "nightly"))
        #expect(result.history.transactions.count == 1)
        #expect(result.history.transactions.first?.author == "nightly")
    }

    @Test func aStalePatchNamesTheObjectAndPropertyAndChangesNothing() throws {
        let a = SampleTrips.document(trips: 20)
        var b = a
        var trip = a.snapshots(of: "Trip")[3]
        let original = try #require(trip.values["destination"])
        trip.values["destination"] = .string("Mars")
        try b.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        var stale = a
        trip.values["destination"] = .string("Venus")
        try stale.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        let before = stale
        #expect {
            try patch(a, b).apply(to: &stale, path: "stale.json")
        } throws: { error in
            guard case .stale(let conflict) = error as? PatchError else { return false }
            return conflict.object == trip.persistentIdentifier && conflict.property == "destination"
                && conflict.kind == .valueDiffers(expected: original, found: .string("Venus"))
        }
        #expect(stale == before)
    }

    @Test func partialAppliesTheRestAndReportsWhatItSkipped() throws {
        let a = SampleTrips.document(trips: 20)
        var edits = SampleEdits(seed: 4)
        let b = try edits.edit(a)
        let patch = try patch(a, b)
        let changedTrip = try #require(patch.entities["Trip"]?.changed.first)
        var stale = a
        var trip = try #require(a.snapshots(of: "Trip").first { $0.persistentIdentifier.primaryKey == changedTrip.a })
        let property = try #require(changedTrip.properties.keys.sorted().first)
        trip.values[property] = property == "destination" ? .string("Elsewhere") : .date(Date(timeIntervalSinceReferenceDate: 1))
        try stale.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        let outcome = try patch.apply(to: &stale, path: "stale", options: .init(partial: true))
        #expect(outcome.skipped.map(\.object) == [trip.persistentIdentifier])
        #expect(outcome.skipped.map(\.property) == [property])
        // Everything but the skipped property is now as in B.
        let remaining = try diff(stale, b)
        #expect(remaining.summary == (0, 0, 1))
        #expect(remaining.entities.flatMap(\.changed).flatMap(\.attributes).map(\.property) == [property])
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func mergeWithAnUnchangedSideGivesTheOther(seed: UInt64) throws {
        let base = SampleTrips.document(trips: 30, seed: seed)
        var edits = SampleEdits(seed: seed)
        let x = try edits.edit(base)
        let paths = ("base", "ours", "theirs")
        let bbx = try DocumentMerge(base: base, ours: base, theirs: x, paths: paths)
        #expect(bbx.conflicts.isEmpty)
        #expect(try diff(#require(bbx.document), x).isIdentical)
        let bxb = try DocumentMerge(base: base, ours: x, theirs: base, paths: paths)
        #expect(bxb.conflicts.isEmpty)
        #expect(try diff(#require(bxb.document), x).isIdentical)
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func mergingDisjointEditsEqualsApplyingBothPatchesInEitherOrder(seed: UInt64) throws {
        let base = SampleTrips.document(trips: 40, seed: seed)
        var edits = SampleEdits(seed: seed)
        let ours = try edits.edit(base, tag: "ours") { $0 % 2 == 0 }
        let theirs = try edits.edit(base, inserting: false, tag: "theirs") { $0 % 2 == 1 }
        let merge = try DocumentMerge(base: base, ours: ours, theirs: theirs, paths: ("base", "ours", "theirs"))
        #expect(merge.conflicts.isEmpty)
        let merged = try #require(merge.document)
        let oursThenTheirs = try applied(patch(base, theirs), to: ours)
        let theirsThenOurs = try applied(patch(base, ours), to: theirs)
        #expect(try diff(merged, oursThenTheirs).isIdentical)
        #expect(try diff(merged, theirsThenOurs).isIdentical)
        #expect(merged.history.transactions.last?.author == "tripdoc-merge")
    }

    @Test func objectsAddedOnBothSidesAllStayAndTheirsGetNewKeys() throws {
        let base = SampleTrips.document(trips: 20)
        var edits = SampleEdits(seed: 5)
        let ours = try edits.edit(base, tag: "ours") { $0 < 10 }
        let theirs = try edits.edit(base, tag: "theirs") { $0 >= 10 }
        let merge = try DocumentMerge(base: base, ours: ours, theirs: theirs, paths: ("base", "ours", "theirs"))
        #expect(merge.conflicts == [])
        let merged = try #require(merge.document)
        #expect(IntegrityChecker().problems(in: merged) == [])
        let names = Set(merged.snapshots(of: "Trip").compactMap { $0.values["name"]?.stringValue })
        #expect(names.contains("ours trip 0") && names.contains("theirs trip 0"))
        // Theirs' added trip keeps its bucket list under its new key.
        let theirTrip = try #require(merged.snapshots(of: "Trip").first { $0.values["name"] == .string("theirs trip 0") })
        let item = try #require(theirTrip.values["bucketList"]?.referencedIdentifiers.first)
        let itemSnapshot = try #require(merged.snapshots.first { $0.persistentIdentifier == item })
        #expect(itemSnapshot.values["trip"] == .reference(theirTrip.persistentIdentifier))
        #expect(itemSnapshot.values["details"] == .string("Pack for theirs."))
    }
}

extension SnapshotValue {
    /// The string of a `.string` value.
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension DocumentPatchTests {
    @Test func aValueTheirsMovedAwayFromIsFreeForAnObjectTheyAdd() throws {
        let base = SampleTrips.document(trips: 5)
        var theirs = base
        var trip = base.snapshots(of: "Trip")[0]
        let name = try #require(trip.values["name"])
        trip.values["name"] = .string("Renamed")
        let copy = DefaultSnapshot(
            persistentIdentifier: .temporary(entityName: "Trip"),
            values: trip.values.filter { $0.key != "bucketList" && $0.key != "livingAccommodation" }.merging(["name": name]) { _, new in new })
        try theirs.applySaveChanges(DataStoreSaveChangesRequest(updated: [trip]))
        try theirs.applySaveChanges(DataStoreSaveChangesRequest(inserted: [copy]))
        #expect(theirs.snapshots(of: "Trip").count == 6)
        let merge = try DocumentMerge(base: base, ours: base, theirs: theirs, paths: ("base", "ours", "theirs"))
        #expect(merge.conflicts == [])
        #expect(try diff(#require(merge.document), theirs).isIdentical)
    }
}

extension DocumentPatchTests {
    @Test func theHistoryOfBothSidesIsKeptWithTheirObjectsUnderTheirNewKeys() throws {
        var base = SampleTrips.document(trips: 20)
        var edits = SampleEdits(seed: 12)
        base = try edits.edit(base, tag: "base")
        let ours = try edits.edit(base, tag: "ours") { $0 < 10 }
        let theirs = try edits.edit(base, tag: "theirs") { $0 >= 10 }
        let merged = try #require(try DocumentMerge(base: base, ours: ours, theirs: theirs, paths: ("base", "ours", "theirs")).document)
        let transactions = merged.history.transactions
        #expect(transactions.map(\.author) == ["base", "ours", "theirs", "tripdoc-merge"])
        #expect(transactions.map(\.transactionIdentifier) == [1, 2, 3, 4])
        // Theirs' transaction names its inserted trips by the keys they have in the merge.
        let held = Set(merged.snapshots.map(\.persistentIdentifier))
        let theirInserts = transactions[2].changes.compactMap { change -> PersistentIdentifier? in
            if case .insert(let id) = change, id.entityName == "Trip" { return id }
            return nil
        }
        #expect(!theirInserts.isEmpty)
        for id in theirInserts {
            let trip = try #require(merged.snapshots.first { $0.persistentIdentifier == id }, "\(id)")
            #expect(held.contains(id))
            #expect(trip.values["name"]?.stringValue?.hasPrefix("theirs trip") == true, "\(id)")
        }
    }
}

extension DocumentPatchTests {
    @Test func anObjectTheirsAddedAndDeletedAgainKeepsAKeyOfItsOwnInTheirHistory() throws {
        let base = SampleTrips.document(trips: 5)
        func newTrip(_ name: String) -> DefaultSnapshot {
            var values = base.snapshots(of: "Trip")[0].values.filter { $0.key != "bucketList" && $0.key != "livingAccommodation" }
            values["name"] = .string(name)
            return DefaultSnapshot(persistentIdentifier: .temporary(entityName: "Trip"), values: values)
        }
        var ours = base
        try ours.applySaveChanges(DataStoreSaveChangesRequest(inserted: [newTrip("ours")]))
        var theirs = base
        try theirs.applySaveChanges(DataStoreSaveChangesRequest(inserted: [newTrip("passing")]))
        let passing = try #require(theirs.snapshots(of: "Trip").first { $0.values["name"] == .string("passing") })
        try theirs.applySaveChanges(DataStoreSaveChangesRequest(deleted: [passing]))
        let oursTrip = try #require(ours.snapshots(of: "Trip").first { $0.values["name"] == .string("ours") })
        // Both sides gave their new trip the same key.
        #expect(passing.persistentIdentifier == oursTrip.persistentIdentifier)

        let merged = try #require(try DocumentMerge(base: base, ours: ours, theirs: theirs, paths: ("base", "ours", "theirs")).document)
        // Theirs' two transactions come after ours' and name the passing trip by a key of its own,
        // which the merged document does not hold and will not give out.
        let transactions = merged.history.transactions
        #expect(transactions.count == base.history.transactions.count + 3)
        let named = transactions.suffix(2).flatMap(\.changes).map(\.changedPersistentIdentifier)
        let key = try #require(named.first)
        #expect(named == [key, key])
        #expect(key != oursTrip.persistentIdentifier)
        #expect(!merged.snapshots.contains { $0.persistentIdentifier == key })
        #expect(!transactions.dropLast(2).flatMap(\.changes).contains { $0.changedPersistentIdentifier == key })
        let number = try #require(Int64(key.primaryKey))
        #expect(try #require(merged.header.nextPrimaryKeys["Trip"]) > number)
    }
}
