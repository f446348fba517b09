import Foundation

/// The results at one size: every row's median per store over the repetitions, and the checksums
/// every store's runs gave for it, which must all be one.
struct SizeReport {
    let plan: WorkPlan
    let repetitions: Int
    private(set) var samples: [Row: [StoreKind: [Double]]] = [:]
    private(set) var checksums: [Row: [StoreKind: Set<String>]] = [:]

    init(plan: WorkPlan, repetitions: Int) {
        self.plan = plan
        self.repetitions = repetitions
    }

    /// Adds one run's result on `kind`.
    mutating func add(_ result: StageResult, from kind: StoreKind) {
        for (row, value) in result.values { samples[row, default: [:]][kind, default: []].append(value) }
        for (row, checksum) in result.checksums { checksums[row, default: [:]][kind, default: []].insert(checksum) }
    }

    /// The median of a row's runs on a store, if it ran there.
    func value(_ row: Row, _ kind: StoreKind) -> Double? {
        samples[row]?[kind].map(median)
    }

    /// tripdoc's number over GRDB's.
    func ratio(_ row: Row, _ tripdoc: StoreKind, _ grdb: StoreKind) -> Double? {
        guard let numerator = value(row, tripdoc), let denominator = value(row, grdb), denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// The row's one checksum, or nil when the row has none.
    func agreedChecksum(_ row: Row) -> String? {
        let all = checksums[row]?.values.reduce(into: Set<String>()) { $0.formUnion($1) } ?? []
        return all.count == 1 ? all.first : nil
    }

    /// Where the stores disagree: a line per row whose checksums differ, naming each store's.
    var disagreements: [String] {
        Row.allCases.compactMap { row in
            guard let perStore = checksums[row] else { return nil }
            let all = perStore.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            guard all.count > 1 else { return nil }
            let stores = StoreKind.allCases.compactMap { kind in
                perStore[kind].map { "\(kind.rawValue) \($0.sorted().joined(separator: " and "))" }
            }
            return "\(row.rawValue) at \(plan.trips) trips: the checksums differ: \(stores.joined(separator: ", "))"
        }
    }

    /// The table, in Markdown.
    var table: String {
        var lines = [
            "\(plan.trips) trips (\(plan.trips * 7) objects), median of \(repetitions) run\(repetitions == 1 ? "" : "s"); "
                + "\(min(plan.updates, plan.trips)) updates, \(min(plan.deletes, plan.trips)) deletes, "
                + "\(plan.queryRuns) runs per query per run",
            "",
            "| work | tripdoc JSON / bundle / memory | GRDB WAL / DELETE / memory | ratio (JSON/WAL, memory/memory) | checksum |",
            "|---|---|---|---|---|",
        ]
        for row in Row.allCases {
            let tripdoc = [StoreKind.json, .bundle, .tripdocMemory].compactMap { value(row, $0) }.map(Self.format)
            let grdb = [StoreKind.wal, .delete, .grdbMemory].compactMap { value(row, $0) }.map(Self.format)
            let ratios = [ratio(row, .json, .wal), ratio(row, .tripdocMemory, .grdbMemory)].compactMap { $0 }.map(Self.formatRatio)
            let checksum = checksums[row] == nil ? "" : agreedChecksum(row) ?? "DIFFER"
            lines.append(
                "| \(row.work) | \(tripdoc.joined(separator: " / ")) \(row.unit) | \(grdb.joined(separator: " / ")) \(row.unit) "
                    + "| \(ratios.joined(separator: ", ")) | \(checksum) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Three significant digits, with thousands separated by commas.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let decimals = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : value >= 0.1 ? 3 : 4
        let text = String(format: "%.\(decimals)f", value)
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        return whole + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// A ratio: two significant digits below 100, whole above.
    static func formatRatio(_ value: Double) -> String {
        let text =
            value >= 100 ? format(value.rounded()) : String(format: value >= 10 ? "%.0f" : value >= 1 ? "%.1f" : "%.2g", value)
        return text + "×"
    }

    /// The results as JSON-ready values.
    var json: [String: Any] {
        var rows: [[String: Any]] = []
        for row in Row.allCases {
            var entry: [String: Any] = ["row": row.rawValue, "work": row.work, "unit": row.unit]
            var medians: [String: Any] = [:]
            for kind in StoreKind.allCases { if let value = value(row, kind) { medians[kind.rawValue] = value } }
            entry["medians"] = medians
            var ratios: [String: Any] = [:]
            if let value = ratio(row, .json, .wal) { ratios["json/wal"] = value }
            if let value = ratio(row, .tripdocMemory, .grdbMemory) { ratios["memory/memory"] = value }
            entry["ratios"] = ratios
            if checksums[row] != nil { entry["checksum"] = agreedChecksum(row) ?? NSNull() }
            rows.append(entry)
        }
        return [
            "trips": plan.trips, "objects": plan.trips * 7, "repetitions": repetitions,
            "updates": min(plan.updates, plan.trips),
            "deletes": min(plan.deletes, plan.trips), "queryRuns": plan.queryRuns, "checksumsAgree": disagreements.isEmpty, "rows": rows,
        ]
    }
}
