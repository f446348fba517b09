import Foundation
import Testing

/// Values of Codable attributes (what a SwiftData app's Codable structs and enums become) seen
/// by the tool: converted between the three formats without loss, shown and compared field by
/// field. The fixture `journeys.json` holds nested objects, arrays, `nil` inside values, an
/// integer above Int64.max, a whole Double and the text of NaN.
@Suite struct CodableValuesCommandTests {
    let tripdoc: TripDocRunner

    init() throws { tripdoc = try TripDocRunner() }

    /// The document's text without its store identifier line (a conversion makes a new store).
    func textWithoutStore(_ name: String) throws -> String {
        String(decoding: try tripdoc.contents(name), as: UTF8.self).split(separator: "\n")
            .filter { !$0.contains("\"storeIdentifier\"") }.joined(separator: "\n")
    }

    @Test func convertKeepsEveryValueThroughEveryFormat() throws {
        #expect(try tripdoc.run("convert", "journeys.json", "a.plist").status == 0)
        #expect(try tripdoc.run("convert", "a.plist", "b.tripbundle").status == 0)
        #expect(try tripdoc.run("convert", "b.tripbundle", "c.json").status == 0)
        #expect(try tripdoc.run("convert", "journeys.json", "direct.json").status == 0)
        #expect(try textWithoutStore("c.json") == textWithoutStore("direct.json"))
        for file in ["a.plist", "b.tripbundle", "c.json"] {
            #expect(try tripdoc.run("diff", "journeys.json", file) == .init(status: 0, stdout: "", stderr: ""), "\(file)")
        }
        let plist = String(decoding: try tripdoc.contents("a.plist"), as: UTF8.self)
        #expect(plist.contains("<key>seat</key><data></data>"), "nil inside a value is an empty <data> in a property list")
        #expect(plist.contains("<key>big</key><integer>18446744073709551615</integer>"))
        #expect(plist.contains("<key>whole</key><real>3.0</real>"))
        #expect(try textWithoutStore("c.json").contains(#""nothing":null,"whole":3.0}"#))
    }

    @Test func showPrintsTheFields() throws {
        let text = try tripdoc.run("show", "journeys.json", "--entity", "Journey")
        #expect(text.status == 0)
        #expect(text.stdout.contains("{city: Lyon, street: 2 quai, tags: []}"))
        #expect(text.stdout.contains("{flight: {number: AF 12, seat: nil}}"))
        let json = try tripdoc.run("show", "journeys.json", "--json")
        #expect(json.stdout.contains(#""home":{"city":"Paris","coordinate":{"latitude":48.8606,"longitude":-0.0}"#))
    }

    @Test func diffNamesTheChangedFields() throws {
        let original = String(decoding: try tripdoc.contents("journeys.json"), as: UTF8.self)
        let edited = original.replacingOccurrences(of: #""city":"Paris""#, with: #""city":"Marseille""#)
            .replacingOccurrences(of: #""seat":null"#, with: #""seat":"12A""#)
            .replacingOccurrences(of: #""name":"Dijon""#, with: #""name":"Beaune""#)
        try Data(edited.utf8).write(to: tripdoc.folder.appendingPathComponent("edited.json"))
        let outcome = try tripdoc.run("diff", "journeys.json", "edited.json")
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"    home.city: "Paris" → "Marseille""#))
        #expect(lines.contains(#"    booking.flight.seat: nil → "12A""#))
        #expect(lines.contains(#"    stops[0].name: "Dijon" → "Beaune""#))
        #expect(lines.last == "0 added, 0 removed, 1 changed")
        let json = try tripdoc.run("diff", "journeys.json", "edited.json", "--json")
        #expect(json.stdout.contains(#""home.city":{"new":"Marseille","old":"Paris"}"#))
    }
}
