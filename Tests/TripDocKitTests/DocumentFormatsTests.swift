import Foundation
import Testing
import TripDoc
import TripDocKit

/// `DocumentFormats.add(_:)` refuses a format users could not tell apart from another, by its
/// `--to` name or by a file's extension, and then adds none of the formats it was given. (A
/// format added for real is tested in samples/JSONLines, in a process of its own: this one's
/// tests rely on the list being tripdoc's three.)
@Suite struct DocumentFormatsTests {
    /// A format with any name and extensions, reading and writing as JSON.
    struct NamedFormat: DocumentFormat {
        var name: String
        var fileExtensions: [String]
        var signatureDescription: String { "a test document" }
        func recognizes(_ prefix: Data) -> Bool { false }
        func readDocument(from data: Data, file: String, limits: DocumentLimits) throws -> Document {
            try JSONFormat().readDocument(from: data, file: file, limits: limits)
        }
        func writeDocument(_ document: Document) throws -> Data { try JSONFormat().writeDocument(document) }
    }

    static let refused: [(NamedFormat, String)] = [
        (NamedFormat(name: "json", fileExtensions: ["js2"]), "JSONFormat has that name already"),
        (NamedFormat(name: "", fileExtensions: ["x"]), "must be lowercase and not empty"),
        (NamedFormat(name: "Lines", fileExtensions: ["x"]), "must be lowercase and not empty"),
        (NamedFormat(name: "lines", fileExtensions: ["tripbundle"]), "'bundle' is chosen by .tripbundle already"),
        (NamedFormat(name: "lines", fileExtensions: [".lines"]), "without its dot"),
        (NamedFormat(name: "lines", fileExtensions: ["LINES"]), "must be lowercase"),
    ]

    @Test(arguments: refused)
    func refusesAFormatThatClashesOrIsMisnamed(_ format: NamedFormat, _ message: String) throws {
        let error = #expect(throws: DocumentFormatRegistrationError.self) {
            try DocumentFormats.add([format])
        }
        #expect(error?.description.hasPrefix("cannot add the format '\(format.name)': ") == true)
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        #expect(DocumentFormats.names == ["json", "plist", "bundle"])
    }

    @Test func addsNoneOfABatchWhenOneIsRefused() {
        #expect(throws: DocumentFormatRegistrationError.self) {
            try DocumentFormats.add([
                NamedFormat(name: "lines", fileExtensions: ["lines"]), NamedFormat(name: "rows", fileExtensions: ["lines"]),
            ])
        }
        #expect(DocumentFormats.added.isEmpty)
        #expect(DocumentFormats.all.map(\.name) == DocumentFormats.standard.map(\.name))
    }
}
