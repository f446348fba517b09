import Foundation
import Testing
import TripDoc
import TripDocJSONLines
import TripDocKit
import TripDocTestSupport

/// JSON Lines among tripdoc's three formats: a document goes through all four, in every order,
/// and comes back the same; added to `DocumentFormats`, the format is recognised, named and
/// chosen by extension as tripdoc's own are, by the library functions the command uses.
@Suite struct FourFormatsTests {
    static let formats: [any DocumentFormat] = DocumentFormats.standard + [JSONLinesFormat()]

    /// The document as JSON, for comparing documents whatever the format they went through.
    static func json(_ document: Document) throws -> String {
        String(decoding: try JSONFormat().writeDocument(document), as: UTF8.self)
    }

    static var documents: [Document] {
        var random = RandomDocuments(seed: 4)
        return [EdgeCaseDocuments.document()] + (0..<8).map { _ in random.document() }
    }

    @Test(arguments: formats.map(\.name), formats.map(\.name))
    func aDocumentWrittenInOneFormatAndReadBackInAnotherIsTheSame(_ from: String, _ to: String) throws {
        let source = try #require(Self.formats.first { $0.name == from })
        let target = try #require(Self.formats.first { $0.name == to })
        for document in Self.documents {
            let first = try source.readDocument(from: try source.writeDocument(document), file: "a.\(from)")
            let second = try target.readDocument(from: try target.writeDocument(first), file: "b.\(to)")
            #expect(try Self.json(second) == Self.json(document), "\(from) then \(to)")
        }
    }

    @Test func goesThroughAllFourFormatsInTurnAndBack() throws {
        for document in Self.documents {
            var current = document
            for format in Self.formats + [Self.formats[0]] {
                current = try format.readDocument(from: try format.writeDocument(current), file: "doc.\(format.name)")
            }
            #expect(try Self.json(current) == Self.json(document))
        }
    }

    /// Adds the format once for this process, as `tripdoc-jsonl` does when it starts.
    static let added: Void = {
        do {
            try DocumentFormats.add([JSONLinesFormat()])
        } catch {
            Issue.record(error)
        }
    }()

    @Test func addedToDocumentFormatsItIsReadWrittenAndListedLikeTripDocsOwn() throws {
        Self.added
        #expect(DocumentFormats.names == ["json", "plist", "bundle", "jsonl"])
        #expect(try DocumentFormats.forWriting("trips.jsonl", explicit: nil) is JSONLinesFormat)
        #expect(try DocumentFormats.forWriting("trips.out", explicit: "jsonl") is JSONLinesFormat)
        let lines = try JSONLinesFormat().writeDocument(EdgeCaseDocuments.document())
        // Recognised by its first line before JSON, whose files also start with `{`.
        #expect(DocumentFormats.recognizing(lines) is JSONLinesFormat)
        #expect(DocumentFormats.recognizing(try JSONFormat().writeDocument(EdgeCaseDocuments.document())) is JSONFormat)

        let scratch = try ScratchFolder("four-formats")
        let file = scratch.file("whatever-its-name.data")
        try lines.write(to: file)
        let read = try DocumentFile.read(file.path)
        #expect(read.format is JSONLinesFormat)
        #expect(try Self.json(read.document) == Self.json(EdgeCaseDocuments.document()))
        let unknown = TripDocError.unrecognizedFormat(path: "x", start: "\"?\"").description
        #expect(unknown.contains("a JSON Lines document"))
    }

    @Test func aSecondFormatWithTheSameNameOrExtensionIsRefusedNamingTheClash() throws {
        Self.added
        struct Impostor: DocumentFormat {
            var name: String
            var fileExtensions: [String]
            var signatureDescription: String { "anything" }
            func recognizes(_ prefix: Data) -> Bool { true }
            func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
                try JSONLinesFormat().readDocument(from: data, file: file, limits: limits)
            }
            func writeDocument(_ document: Document) throws -> Data { try JSONLinesFormat().writeDocument(document) }
        }
        let byName = #expect(throws: DocumentFormatRegistrationError.self) {
            try DocumentFormats.add([Impostor(name: "jsonl", fileExtensions: ["lines"])])
        }
        #expect(byName?.description.contains("JSONLinesFormat has that name already") == true)
        let byExtension = #expect(throws: DocumentFormatRegistrationError.self) {
            try DocumentFormats.add([Impostor(name: "lines", fileExtensions: ["lines", "jsonl"])])
        }
        #expect(byExtension?.description.contains("'jsonl' is chosen by .jsonl already") == true)
        #expect(DocumentFormats.names == ["json", "plist", "bundle", "jsonl"], "nothing was added")
    }
}
