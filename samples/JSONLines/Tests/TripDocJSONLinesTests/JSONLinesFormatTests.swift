import Foundation
import Testing
import TripDoc
import TripDocJSONLines
import TripDocTestSupport

/// The JSON Lines format of the guide "Writing a document format": a format written outside
/// tripdoc's modules, from the public API only, round-trips every document, refuses hostile
/// input with the file and the line, and works under `ArchiveStore` and `@Model` code.
@Suite struct JSONLinesFormatTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("jsonl")
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    // MARK: Round trip

    /// Documents as JSON, for comparing documents whatever the order their snapshots were made in.
    static func json(_ document: Document) throws -> String {
        String(decoding: try JSONFormat().writeDocument(document), as: UTF8.self)
    }

    static var documents: [Document] {
        var random = RandomDocuments(seed: 23)
        return [EdgeCaseDocuments.document()] + (0..<20).map { _ in random.document() }
    }

    @Test func roundTripsEveryAttributeTypeAndRandomDocuments() throws {
        let format = JSONLinesFormat()
        for document in Self.documents {
            let lines = try format.writeDocument(document)
            let read = try format.readDocument(from: lines, file: "doc.jsonl")
            #expect(try Self.json(read) == Self.json(document))
            #expect(try format.writeDocument(read) == lines, "same document, same bytes")
        }
    }

    @Test func writesTheHeaderSchemaAndHistoryThenOneSnapshotPerLine() throws {
        let document = EdgeCaseDocuments.document()
        let text = String(decoding: try JSONLinesFormat().writeDocument(document), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 + document.snapshots.count + 1, "each line ends with a newline")
        #expect(lines[0].hasPrefix(#"{"format":"tripdoc","formatVersion":1,"#))
        #expect(lines[3].hasPrefix(#"{"Everything":[{"$id":"1","#))
        #expect(lines.last == "")
        #expect(JSONLinesFormat().recognizes(Data(text.utf8.prefix(512))))
        #expect(!JSONLinesFormat().recognizes(try JSONFormat().writeDocument(document)))
    }

    /// A converted document's header line starts with `derivedFrom`, not `format`: it is still
    /// recognised, and still told from tripdoc's JSON.
    @Test func aHeaderLineIsRecognisedWhicheverMemberComesFirst() throws {
        var document = EdgeCaseDocuments.document()
        document.header.derivedFrom = DefaultHistoryToken(storeIdentifier: "SOURCE", transactionIdentifier: 4)
        let lines = try JSONLinesFormat().writeDocument(document)
        #expect(String(decoding: lines.prefix(16), as: UTF8.self) == #"{"derivedFrom":""#)
        #expect(JSONLinesFormat().recognizes(lines.prefix(512)))
        #expect(!JSONLinesFormat().recognizes(try JSONFormat().writeDocument(document).prefix(512)))
        #expect(try JSONLinesFormat().readDocument(from: lines, file: "copy.jsonl", limits: .standard).header.derivedFrom
            == document.header.derivedFrom)
    }

    /// A sink that takes the first snapshot of each entity only, and records the calls it gets.
    struct FirstSnapshotSink: DocumentDecodingSink {
        var calls: [String] = []
        var taken = 0

        mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
            calls.append("begin")
        }
        mutating func beginEntity(_ entity: Schema.Entity) throws {
            calls.append("beginEntity \(entity.name)")
            taken = 0
        }
        mutating func add(_ snapshot: DefaultSnapshot) throws {
            calls.append("add \(snapshot.persistentIdentifier.primaryKey)")
            taken += 1
        }
        mutating func endEntity(_ entity: Schema.Entity, count: Int) throws {
            calls.append("endEntity \(entity.name) \(count)")
        }
        mutating func lateHistory(_ history: DocumentHistory) throws {}
        var wantsMoreSnapshots: Bool { taken == 0 }
    }

    @Test func streamsToASinkThatStopsEarlyAndCountsTheRest() throws {
        let data = try JSONLinesFormat().writeDocument(EdgeCaseDocuments.document())
        var sink = FirstSnapshotSink()
        try JSONLinesFormat().readDocument(from: data, file: "doc.jsonl", limits: .standard, into: &sink)
        #expect(sink.calls == ["begin", "beginEntity Everything", "add 1", "endEntity Everything 3"])
    }

    @Test func convertsAsItReadsThroughTheStreamWriter() throws {
        // What `tripdoc convert` does: the reader's records go straight to the other format's
        // stream writer.
        struct Forward: DocumentDecodingSink {
            var writer: any DocumentStreamWriter
            mutating func begin(header: DocumentHeader, schema: Schema, history: DocumentHistory?) throws {
                try writer.begin(header: header, schema: schema, history: history ?? DocumentHistory())
            }
            mutating func beginEntity(_ entity: Schema.Entity) throws { try writer.beginEntity(entity) }
            mutating func add(_ snapshot: DefaultSnapshot) throws { try writer.add(snapshot) }
            mutating func add(record: consuming SnapshotRecord) throws { try writer.add(record: record) }
            mutating func endEntity(_ entity: Schema.Entity, count: Int) throws { try writer.endEntity() }
            mutating func lateHistory(_ history: DocumentHistory) throws {}
        }
        for document in Self.documents {
            let json = try JSONFormat().writeDocument(document)
            var output = Data()
            var forward = Forward(writer: JSONLinesFormat().makeStreamWriter { output.append(contentsOf: $0) })
            try JSONFormat().readDocument(from: json, file: "doc.json", limits: .standard, into: &forward)
            try forward.writer.finish()
            #expect(output == (try JSONLinesFormat().writeDocument(document)))
        }
    }

    // MARK: Hostile input

    /// The three lines before the snapshots, and the snapshot lines, of the edge-case document.
    static func lines() throws -> [String] {
        let text = String(decoding: try JSONLinesFormat().writeDocument(EdgeCaseDocuments.document()), as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }

    /// The error reading `text` gives.
    static func readError(_ text: String, limits: DocumentLimits = .standard) -> DocumentReadError? {
        do {
            _ = try JSONLinesFormat().readDocument(from: Data(text.utf8), file: "hostile.jsonl", limits: limits)
            return nil
        } catch {
            return error as? DocumentReadError
        }
    }

    struct Hostile: CustomStringConvertible, Sendable {
        var description: String
        var damage: @Sendable ([String]) -> [String]
        var limits = DocumentLimits.standard
        var line: Int
        var message: String
    }

    static let hostile: [Hostile] = [
        Hostile(description: "an empty file", damage: { _ in [] }, line: 1, message: "ends before the header"),
        Hostile(description: "cut after the header", damage: { Array($0.prefix(1)) }, line: 2, message: "ends before the schema"),
        Hostile(
            description: "a line cut short", damage: { $0.prefix(4) + [String($0[4].prefix(20))] }, line: 5,
            message: "not closed before the end of the file"),
        Hostile(
            description: "a date that is not one",
            damage: { $0.map { $0.replacingOccurrences(of: #""date":"0001-01-01T00:00:00Z""#, with: #""date":"tomorrow""#) } },
            line: 4, message: "at Everything[0].date: expected a date"),
        Hostile(
            description: "an entity the schema lacks",
            damage: { $0.prefix(3) + $0.dropFirst(3).map { $0.replacingOccurrences(of: #"{"Everything":"#, with: #"{"Nothing":"#) } },
            line: 4,
            message: "'Nothing' is not an entity of the schema"),
        Hostile(
            description: "two members on a snapshot line",
            damage: { $0.prefix(3) + [String($0[3].dropLast()) + #","Everything":[]}"#] + $0.dropFirst(4) }, line: 4,
            message: "found another member"),
        Hostile(
            description: "a schema that disagrees with the header",
            damage: { [$0[0].replacingOccurrences(of: #""schemaVersion":"2.1.0""#, with: #""schemaVersion":"9.0.0""#)] + $0.dropFirst() },
            line: 1, message: "differs from the schema's version"),
        Hostile(
            description: "more snapshots than the limit", damage: { $0 }, limits: DocumentLimits(maximumSnapshotCount: 2),
            line: 6, message: "snapshot-count"),
        Hostile(
            description: "nesting deeper than the limit", damage: { $0 }, limits: DocumentLimits(maximumNestingDepth: 4),
            line: 2, message: "nesting-depth"),
        Hostile(
            description: "a string longer than the limit", damage: { $0 }, limits: DocumentLimits(maximumStringLength: 30),
            line: 1, message: "string-length"),
        Hostile(
            description: "a file larger than the limit", damage: { $0 }, limits: DocumentLimits(maximumDocumentSize: 100),
            line: 0, message: "document-size"),
    ]

    @Test(arguments: hostile)
    func refusesHostileInputNamingTheFileAndTheLine(_ hostile: Hostile) throws {
        let text = hostile.damage(try Self.lines()).map { $0 + "\n" }.joined()
        let error = try #require(Self.readError(text, limits: hostile.limits))
        #expect(error.file == "hostile.jsonl")
        #expect(error.location?.line == (hostile.line == 0 ? nil : hostile.line), "\(error)")
        #expect(error.description.contains(hostile.message), "\(error)")
        #expect(error.hint != nil)
    }

    // MARK: Under the store engine

    static let schema = Schema([
        Schema.Entity(
            name: "Trip",
            attributes: [.init("name", .string), .init("startDate", .date)],
            uniquenessConstraints: [["name", "startDate"]])
    ])

    @Test func savesFetchesAndKeepsHistoryThroughArchiveStore() throws {
        let path = scratch.file("trips.jsonl").path
        let store = try ArchiveStore(path: path, format: JSONLinesFormat(), schema: Self.schema)
        let tokyo = PersistentIdentifier.temporary(entityName: "Trip")
        let result = try store.save(
            DataStoreSaveChangesRequest(inserted: [
                DefaultSnapshot(
                    persistentIdentifier: tokyo, values: ["name": .string("Tokyo"), "startDate": .date(Self.start)])
            ]))
        let permanent = try #require(result.remappedIdentifiers[tokyo])
        #expect(permanent.primaryKey == "1")

        let reopened = try ArchiveStore(path: path, format: JSONLinesFormat())
        #expect(try reopened.fetchSnapshots(entityName: "Trip").map { $0.values["name"] } == [.string("Tokyo")])
        #expect(try reopened.fetchHistory().count == 1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").last == #"{"Trip":[{"$id":"1","name":"Tokyo","startDate":"2033-05-18T03:33:20Z"}]}"#)
    }

    @Test func holdsModelsThroughFormatStoreConfiguration() throws {
        let url = scratch.file("trips.jsonl")
        let configuration = FormatStoreConfiguration<JSONLinesFormat>(url: url)
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
        let tokyo = Trip(name: "Tokyo", destination: "Japan", startDate: Self.start, endDate: Self.start + 86_400)
        context.insert(tokyo)
        tokyo.bucketList.append(BucketListItem(title: "Tea", details: "Uji", hasReservation: false, isInPlan: true))
        try context.save()

        let reread = ModelContext(try ModelContainer(for: Trip.self, configurations: configuration))
        let trips = try reread.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Japan" }))
        #expect(trips.map(\.name) == ["Tokyo"])
        #expect(trips.first?.bucketList.map(\.title) == ["Tea"])
        let changes = try reread.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).flatMap(\.changes)
        let inserted = changes.compactMap { change -> String? in
            if case .insert(let insert as DefaultHistoryInsert<Trip>) = change {
                return insert.changedPersistentIdentifier.entityName
            }
            return nil
        }
        #expect(inserted == ["Trip"])
        // The saves are in the document's journal until it is folded in, at the latest when the
        // containers are released.
        try ArchiveStore(path: url.path, format: JSONLinesFormat()).compact()
        #expect(try JSONLinesFormat().readDocument(from: Data(contentsOf: url), file: url.path).snapshots.count == 2)
    }
}
