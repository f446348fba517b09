import Foundation
import TripDoc

/// What `tripdoc inspect` reports of a document: its format, identity, schema summary, counts
/// and integrity problems. Its `Codable` form is the `--json` output, a promise to scripts:
/// keys are only ever added.
public struct InspectionReport: Codable, Hashable, Sendable {
    /// One entity of the schema, summarised.
    public struct EntitySummary: Codable, Hashable, Sendable {
        /// The entity's name.
        public var name: String
        /// Its attributes, each as `name: Type` (`Type?` when optional).
        public var attributes: [String]
        /// Its relationships, each as `name: Destination` (`[Destination]` when to-many) and its delete rule.
        public var relationships: [String]
        /// Its uniqueness constraints, each a list of property names.
        public var uniquenessConstraints: [[String]]
        /// Its indices, each a list of property names.
        public var indices: [[String]]
    }

    /// One integrity problem.
    public struct Problem: Codable, Hashable, Sendable {
        /// The kind of problem (`danglingReference`, `inverseMismatch`, …).
        public var kind: String
        /// The model it is about, as `Entity/key`.
        public var identifier: String
        /// The property it is about, if one.
        public var property: String?
        /// What is wrong, in words.
        public var message: String
    }

    /// The file, as named on the command line.
    public var file: String
    /// Its size in bytes.
    public var size: Int
    /// The format it is in: `json`, `plist` or `bundle`.
    public var format: String
    /// The header's `formatVersion`.
    public var formatVersion: Int
    /// The program that wrote it (the header's `generator`).
    public var generator: String
    /// The store it holds.
    public var storeIdentifier: String
    /// Where the document came from (its header's `derivedFrom`, `STORE:N`), when `convert`
    /// made it; absent from the JSON otherwise.
    public var derivedFrom: String?
    /// The version of its schema.
    public var schemaVersion: String
    /// The schema's entities, summarised.
    public var entities: [EntitySummary]
    /// How many snapshots each entity has, by entity name.
    public var counts: [String: Int]
    /// How many snapshots the document holds.
    public var snapshots: Int
    /// How many history transactions it keeps.
    public var historyTransactions: Int
    /// The first and last token of the history kept, or `nil` when it has none.
    public var historyTokenSpan: TokenSpan?
    /// Transactions up to this identifier were deleted (0: none).
    public var historyDeletedThrough: Int64
    /// Its integrity problems; none for a sound document.
    public var problems: [Problem]

    /// The first and last token of a history.
    public struct TokenSpan: Codable, Hashable, Sendable {
        /// The token of the first transaction kept.
        public var first: String
        /// The token of the last transaction.
        public var last: String
    }
    /// For an archive format (the bundle), each entry with its sizes, CRC and digest status.
    public var entries: [ArchiveEntryReport]?

    /// Reads and inspects the document at `path` (standard input for `-`) under `limits`, one
    /// snapshot at a time: memory holds the integrity check's tables, not the document. The
    /// snapshots are checked on a thread of their own as they are decoded.
    public static func inspect(path: String, limits: DocumentLimits = .standard) throws -> InspectionReport {
        let data = try DocumentFile.contents(of: path, limits: limits, mapped: true)
        return try DocumentFileReader.reading(data, path: path) {
            let format = try DocumentFile.format(of: data, path: path)
            var inspection = try BackgroundSink.run(Inspection()) { decoded in
                try format.readDocument(from: data, file: path, limits: limits, into: &decoded)
            }
            var report = InspectionReport(
                path: path, size: data.count, format: format, header: inspection.header!, schema: inspection.schema!,
                counts: inspection.counts, history: inspection.history, problems: inspection.checker!.finish())
            if let archive = format as? any ArchiveInspecting {
                report.entries = try archive.entryReports(ofRead: data, file: path, limits: limits)
            }
            return report
        }
    }

    /// Inspects a document read from a file.
    public init(_ file: DocumentFile) {
        let document = file.document
        self.init(
            path: file.path, size: file.size, format: file.format, header: document.header, schema: document.schema,
            counts: document.countsByEntity, history: document.history,
            problems: IntegrityChecker().problems(in: document))
    }

    private init(
        path: String, size: Int, format: any DocumentFormat, header: DocumentHeader, schema: Schema,
        counts: [String: Int], history: DocumentHistory, problems: [IntegrityProblem]
    ) {
        file = path
        self.size = size
        self.format = format.name
        formatVersion = header.formatVersion
        generator = header.generator
        storeIdentifier = header.storeIdentifier
        derivedFrom = header.derivedFrom?.description
        schemaVersion = schema.version.description
        entities = schema.entities.map { entity in
            EntitySummary(
                name: entity.name,
                attributes: entity.attributes.map { "\($0.name): \($0.type.name)\($0.isOptional ? "?" : "")" },
                relationships: entity.relationships.map {
                    "\($0.name): \($0.isToMany ? "[\($0.destination)]" : $0.destination) (\($0.deleteRule.rawValue))"
                },
                uniquenessConstraints: entity.uniquenessConstraints, indices: entity.indices)
        }
        var allCounts = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, 0) })
        allCounts.merge(counts) { $1 }
        self.counts = allCounts
        snapshots = counts.values.reduce(0, +)
        historyTransactions = history.transactions.count
        if let first = history.transactions.first, let last = history.transactions.last {
            historyTokenSpan = TokenSpan(
                first: first.token(in: header.storeIdentifier).description,
                last: last.token(in: header.storeIdentifier).description)
        }
        historyDeletedThrough = history.deletedThrough
        self.problems = problems.map {
            Problem(kind: $0.kind.rawValue, identifier: $0.identifier.description, property: $0.property, message: $0.message)
        }
    }

    /// What inspecting keeps of a document read piece by piece.
    private struct Inspection: DocumentDecodingSink {
        var header: DocumentHeader?
        var schema: Schema?
        var history = DocumentHistory()
        var counts: [String: Int] = [:]
        var checker: IntegrityChecker.Session?

        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            self.header = header
            self.schema = schema
            self.history = history ?? DocumentHistory()
            checker = IntegrityChecker.Session(schema: schema, header: header)
        }
        mutating func beginEntity(_ entity: Schema.Entity) throws {}
        mutating func add(_ snapshot: DefaultSnapshot) throws { checker!.add(snapshot) }
        mutating func add(record: consuming SnapshotRecord) throws { checker!.add(record: record) }
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws { counts[entity.name, default: 0] += count }
        mutating func lateHistory(_ history: DocumentHistory) throws { self.history = history }
    }

    /// The report as JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The report as text for a terminal.
    public var text: String {
        var lines = [
            "File:              \(file) (\(size) bytes)",
            "Format:            \(format), version \(formatVersion)",
            "Store identifier:  \(storeIdentifier)",
        ]
        if let derivedFrom { lines.append("Derived from:      \(derivedFrom) (converted, every key kept)") }
        lines += [
            "Schema version:    \(schemaVersion)",
            "Generator:         \(generator.isEmpty ? "(unknown)" : generator)",
            "History:           \(historyTransactions) transaction\(historyTransactions == 1 ? "" : "s")"
                + (historyTokenSpan.map { ", tokens \($0.first) … \($0.last)" } ?? "")
                + (historyDeletedThrough > 0 ? ", deleted through \(historyDeletedThrough)" : ""),
            "",
            "Entities:",
        ]
        let width = entities.map(\.name.count).max() ?? 0
        for entity in entities {
            let count = counts[entity.name] ?? 0
            lines.append(
                "  \(entity.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(count) snapshot\(count == 1 ? "" : "s")")
            lines.append("    attributes:    " + entity.attributes.joined(separator: ", "))
            if !entity.relationships.isEmpty {
                lines.append("    relationships: " + entity.relationships.joined(separator: ", "))
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("    unique:        " + constraint.joined(separator: ", "))
            }
        }
        if let entries {
            lines.append("")
            lines.append("Archive entries:")
            let nameWidth = max(4, entries.map(\.name.count).max() ?? 0)
            lines.append(
                "  " + "name".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                    + "        size  compressed   ratio  crc  digest")
            for entry in entries {
                lines.append(
                    "  " + entry.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                        + String(format: "  %10d  %10d  %6.2f  %@  %@", entry.size, entry.compressedSize, entry.ratio,
                            entry.crc.padding(toLength: 3, withPad: " ", startingAt: 0), entry.digest))
            }
        }
        lines.append("")
        if problems.isEmpty {
            lines.append("Integrity:         no problems")
        } else {
            lines.append("Integrity:         \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            for problem in problems {
                lines.append("  \(problem.identifier)\(problem.property.map { "." + $0 } ?? ""): \(problem.message) [\(problem.kind)]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
