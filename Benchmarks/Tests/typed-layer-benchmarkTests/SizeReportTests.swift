import Testing

@testable import typed_layer_benchmark

@Suite("The report")
struct SizeReportTests {
    private func result(_ checksum: String, time: Double) -> StageResult {
        StageResult(values: [.fetchAll: time], checksums: [.fetchAll: checksum])
    }

    @Test("Agreeing stores: no disagreement, the checksum in the table, medians and ratios")
    func agreement() {
        var report = SizeReport(plan: WorkPlan(trips: 10, queryRuns: 1, updates: 1, deletes: 1), repetitions: 3)
        for (kind, times) in [(StoreKind.json, [30.0, 10, 20]), (.wal, [2, 1, 3]), (.tripdocMemory, [4, 4, 4]), (.grdbMemory, [2, 2, 2])] {
            for time in times { report.add(result("10:ab", time: time), from: kind) }
        }
        #expect(report.disagreements.isEmpty)
        #expect(report.value(.fetchAll, .json) == 20)
        #expect(report.ratio(.fetchAll, .json, .wal) == 10)
        #expect(report.ratio(.fetchAll, .tripdocMemory, .grdbMemory) == 2)
        #expect(report.table.contains("| 20.0 / 4.00 ms | 2.00 / 2.00 ms | 10×, 2.0× | 10:ab |"))
    }

    @Test("A store whose checksum differs, in any run, is a disagreement that names the row and the stores")
    func disagreement() {
        var report = SizeReport(plan: WorkPlan(trips: 10, queryRuns: 1, updates: 1, deletes: 1), repetitions: 2)
        report.add(result("10:ab", time: 1), from: .json)
        report.add(result("10:ab", time: 1), from: .json)
        report.add(result("10:ab", time: 1), from: .wal)
        report.add(result("9:cd", time: 1), from: .wal)
        #expect(report.disagreements == ["fetch-all at 10 trips: the checksums differ: tripdoc-json 10:ab, grdb-wal 10:ab and 9:cd"])
        #expect(report.table.contains("| DIFFER |"))
        #expect(report.json["checksumsAgree"] as? Bool == false)
    }

    @Test("Numbers with three significant digits and thousands separated; ratios with two", arguments: [
        (1234.6, "1,235"), (123.4, "123"), (12.34, "12.3"), (1.234, "1.23"), (0.1234, "0.123"), (0.01234, "0.0123"),
    ])
    func formats(value: Double, text: String) {
        #expect(SizeReport.format(value) == text)
    }

    @Test("Ratios", arguments: [(12_345.6, "12,346×"), (45.6, "46×"), (4.56, "4.6×"), (0.0456, "0.046×")])
    func ratios(value: Double, text: String) {
        #expect(SizeReport.formatRatio(value) == text)
    }
}
