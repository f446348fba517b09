import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// The examples of the guide "Reading and converting documents in your own tool"
/// (Sources/TripDoc/TripDoc.docc), which quotes this file: TripDocKit's library API doing what
/// `tripdoc` does.
@Suite struct OwnToolGuideTests {
    let scratch: ScratchFolder
    /// A 20-trip SampleTrips document, as JSON.
    let tripsPath: String

    init() throws {
        scratch = try ScratchFolder("own-tool")
        tripsPath = scratch.file("trips.json").path
        try JSONFormat().writeDocument(SampleTrips.document(trips: 20)).write(to: URL(fileURLWithPath: tripsPath))
    }

    @Test func readsAnyDocumentWhateverItsName() throws {
        // A plist copy under a name that says nothing about its format.
        let plist = try PlistFormat().writeDocument(try DocumentFile.read(tripsPath).document)
        try plist.write(to: scratch.file("trips.data"))

        let file = try DocumentFile.read(scratch.file("trips.data").path)
        #expect(file.format.name == "plist")
        let trips = file.document.snapshots(of: "Trip")
        #expect(trips.count == 20)
        #expect(trips[0].values["name"] != nil)
    }

    @Test func choosesTheFormatToWriteByExtensionOrName() throws {
        #expect(try DocumentFormats.forWriting("copy.tripbundle", explicit: nil).name == "bundle")
        #expect(try DocumentFormats.forWriting("copy.out", explicit: "plist").name == "plist")
        #expect(DocumentFormats.named("json") is JSONFormat)
        #expect(DocumentFormats.names == ["json", "plist", "bundle"])
    }

    /// `tripdoc convert INPUT OUTPUT` as a library: one pass when it can, in memory when the
    /// source is not in document order.
    func convert(_ input: String, to output: String) throws {
        let limits = DocumentLimits.standard
        let data = try DocumentFileReader.contents(of: input, limits: limits, mapped: true)
        let sourceFormat = try DocumentFile.format(of: data, path: input)
        let format = try DocumentFormats.forWriting(output, explicit: nil)
        let destination = OutputDestination(path: output, force: true)
        try destination.check(notSameAs: input)
        do {
            try destination.write { sink in
                _ = try DocumentStreamConversion.convert(
                    data, path: input, format: sourceFormat, limits: limits, to: format,
                    storeIdentifier: UUID().uuidString, wantsRemapTable: false, sink: sink)
            }
        } catch is DocumentStreamConversion.Unavailable {
            let source = try DocumentFile.read(data, path: input, limits: limits)
            let conversion = try DocumentConversion(source: source)
            try destination.write(try format.writeDocument(conversion.document))
        }
    }

    @Test func convertsInOnePassAndTheCopyDiffersOnlyInItsStore() throws {
        let copy = scratch.file("trips.tripbundle").path
        try convert(tripsPath, to: copy)

        let (first, second) = try DocumentFile.readRecordsOfBoth(tripsPath, copy)
        let diff = try DocumentDiff(first, at: tripsPath, second, at: copy)
        #expect(diff.isIdentical)
        // The copy records where it came from, and keeps every key: matched by key.
        #expect(diff.entities.map(\.strategy) == [.key, .key, .key], "BucketListItem, LivingAccommodation, Trip")
        #expect(diff.sharedLineage == first.storeIdentifier)
        #expect(first.storeIdentifier != second.storeIdentifier)
    }

    @Test func reportsWhatChangedBetweenTwoDocuments() throws {
        var document = try DocumentFile.read(tripsPath).document
        let index = try #require(document.snapshots.firstIndex { $0.entityName == "Trip" })
        document.snapshots[index].values["destination"] = .string("Lisbon")
        let edited = scratch.file("edited.json").path
        try JSONFormat().writeDocument(document).write(to: URL(fileURLWithPath: edited))

        let (first, second) = try DocumentFile.readRecordsOfBoth(tripsPath, edited)
        let diff = try DocumentDiff(first, at: tripsPath, second, at: edited)
        #expect(!diff.isIdentical)
        #expect(diff.summary.changed == 1)
        let text = diff.text(colour: false)
        #expect(text.contains("Lisbon"))
    }

    @Test func inspectsCountsAndIntegrity() throws {
        let report = try InspectionReport.inspect(path: tripsPath)
        #expect(report.format == "json")
        #expect(report.counts["Trip"] == 20)
        #expect(report.problems.isEmpty)
        #expect(report.text.contains("Trip"))
    }

    @Test func selectsWhatShowWherePrints() throws {
        let data = try DocumentFileReader.contents(of: tripsPath)
        let format = try DocumentFile.format(of: data, path: tripsPath)
        let query = DocumentQuery(
            entityName: "Trip", condition: #"name.hasPrefix("A") || bucketList.count > 3"#, sort: "startDate",
            reversed: true, limit: 5)
        let selection = try query.select(from: data, format: format, file: tripsPath, limits: .standard)
        let table = try #require(selection.tables.first)
        #expect(table.snapshots.count <= 5)
        #expect(table.matching != nil)
    }

    @Test func refusesAConditionThatDoesNotFitTheSchema() throws {
        let data = try DocumentFileReader.contents(of: tripsPath)
        let query = DocumentQuery(entityName: "Trip", condition: "destination == 3")
        #expect(throws: QueryError.self) {
            try query.select(from: data, format: JSONFormat(), file: tripsPath, limits: .standard)
        }
    }
}
