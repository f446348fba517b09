import Foundation
import Testing

@testable import typed_layer_benchmark

@Suite("Both sides doing the same work")
struct StageTests {
    @Test("tripdoc's and GRDB's in-memory stores give the same checksums on every row")
    func inMemoryStoresAgree() throws {
        let plan = WorkPlan(trips: 200, queryRuns: 1, updates: 3, deletes: 2)
        let tripdoc = try Stage.inMemory.run(on: .tripdocMemory, path: "", plan: plan)
        let grdb = try Stage.inMemory.run(on: .grdbMemory, path: "", plan: plan)
        #expect(Set(tripdoc.checksums.keys) == [.insert, .fetchAll, .equalityFetch, .rangeFetch, .sortedLimit, .update, .delete])
        #expect(tripdoc.checksums == grdb.checksums)
        #expect(Set(tripdoc.values.keys) == Set(Row.allCases).subtracting([.open]))
    }

    @Test("The file stores agree across processes' stages: insert, open, fetch all, then the work", arguments: [StoreKind.json, .bundle, .wal, .delete])
    func fileStoresAgreeWithMemory(kind: StoreKind) throws {
        let plan = WorkPlan(trips: 50, queryRuns: 1, updates: 3, deletes: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typed-layer-benchmark-tests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(kind.fileName).path
        var result = StageResult()
        for stage in [Stage.insert, .open, .fetchAll, .work] {
            result.merge(try stage.run(on: kind, path: path, plan: plan))
        }
        let reference = try Stage.inMemory.run(on: .grdbMemory, path: "", plan: plan)
        #expect(result.checksums == reference.checksums)
        #expect(result.values[.open] != nil)
    }

    @Test("Deleting a trip takes its five items and its accommodation with it, on both sides", arguments: [StoreKind.tripdocMemory, .grdbMemory])
    func deletesCascade(kind: StoreKind) throws {
        let store: any BenchmarkedStore =
            kind.isTripDoc ? try TripDocBenchmarkStore(kind: kind, path: "") : try GRDBBenchmarkStore(kind: kind, path: "")
        try store.insertTrips(count: 4)
        _ = try store.deleteTrip(named: "Trip 1")
        var expected = Checksum()
        expected.add(3)
        expected.add(15)
        expected.add(3)
        #expect(try store.entityCounts() == expected)
    }
}
