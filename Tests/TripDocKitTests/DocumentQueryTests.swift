import Foundation
import Testing
import TripDoc
import TripDocKit
import TripDocTestSupport

/// `tripdoc show --where / --sort / --id / --follow`: the expression language, checked against the
/// schema, evaluated on every attribute type, in every format.
@Suite struct DocumentQueryTests {
    static let formats: [any DocumentFormat] = [JSONFormat(), PlistFormat(), BundleFormat()]
    static let trips = SampleTrips.document(trips: 60)

    func select(_ query: DocumentQuery, in document: Document = trips, format: any DocumentFormat = JSONFormat())
        throws -> DocumentQuery.Selection
    {
        try query.select(
            from: format.writeDocument(document), format: format, file: "doc.\(format.name)", limits: .standard)
    }

    func keys(_ selection: DocumentQuery.Selection, _ entity: String = "Trip") -> [String] {
        selection.tables.first { $0.entity.name == entity }?.snapshots.map(\.persistentIdentifier.primaryKey) ?? []
    }

    /// The keys of the trips `include` picks, in document order.
    func expectedTrips(_ include: (DefaultSnapshot) -> Bool) -> [String] {
        Self.trips.snapshots(of: "Trip").filter(include).map(\.persistentIdentifier.primaryKey)
    }

    func string(_ snapshot: DefaultSnapshot, _ name: String) -> String? {
        if case .string(let text) = snapshot.values[name] { return text }
        return nil
    }

    func date(_ snapshot: DefaultSnapshot, _ name: String) -> Date? {
        if case .date(let date) = snapshot.values[name] { return date }
        return nil
    }

    @Test(arguments: formats.map { $0.name })
    func selectsTheTripsThatMeetTheCondition(formatName: String) throws {
        let format = Self.formats.first { $0.name == formatName }!
        let cutoff = Date(timeIntervalSinceReferenceDate: 946_684_800)  // 2031-01-01
        let selection = try select(
            DocumentQuery(entityName: "Trip", condition: #"destination == "Tokyo" && startDate >= 2031-01-01"#),
            format: format)
        let expected = expectedTrips { string($0, "destination") == "Tokyo" && date($0, "startDate")! >= cutoff }
        #expect(!expected.isEmpty)
        #expect(keys(selection) == expected)
        #expect(selection.tables[0].matching == expected.count)
        #expect(selection.tables[0].total == 60)
        #expect(selection.tables[0].text.hasPrefix("Trip (\(expected.count) of \(expected.count) matching, 60 in all)\n"))
    }

    @Test func sortsAndKeepsOnlyTheLimit() throws {
        let sorted = Self.trips.snapshots(of: "Trip").sorted { date($0, "startDate")! > date($1, "startDate")! }
        let selection = try select(DocumentQuery(entityName: "Trip", sort: "startDate", reversed: true, limit: 5))
        #expect(keys(selection) == sorted.prefix(5).map(\.persistentIdentifier.primaryKey))
        let byName = try select(DocumentQuery(entityName: "Trip", sort: "destination, startDate", limit: 60))
        let expected = Self.trips.snapshots(of: "Trip").sorted {
            (string($0, "destination")!, date($0, "startDate")!) < (string($1, "destination")!, date($1, "startDate")!)
        }
        #expect(keys(byName) == expected.map(\.persistentIdentifier.primaryKey))
    }

    @Test func readsThroughToOneRelationshipsAndCountsToMany() throws {
        let stays = Dictionary(
            uniqueKeysWithValues: Self.trips.snapshots(of: "LivingAccommodation").map { ($0.persistentIdentifier, $0) })
        func stay(_ trip: DefaultSnapshot) -> DefaultSnapshot? {
            if case .reference(let identifier) = trip.values["livingAccommodation"] { return stays[identifier] }
            return nil
        }
        let ryokans = try select(
            DocumentQuery(entityName: "Trip", condition: #"livingAccommodation.placeName.hasSuffix("Ryokan")"#))
        let expectedRyokans = expectedTrips { stay($0).flatMap { string($0, "placeName") }?.hasSuffix("Ryokan") == true }
        #expect(!expectedRyokans.isEmpty)
        #expect(keys(ryokans) == expectedRyokans)
        let homeless = try select(DocumentQuery(entityName: "Trip", condition: "livingAccommodation == nil"))
        #expect(keys(homeless) == expectedTrips { stay($0) == nil })
        let busy = try select(DocumentQuery(entityName: "Trip", condition: "bucketList.count >= 6 && !(destination == \"Tokyo\")"))
        #expect(
            keys(busy) == expectedTrips {
                if case .references(let items) = $0.values["bucketList"] { return items.count >= 6 && string($0, "destination") != "Tokyo" }
                return false
            })
    }

    @Test func stringMethodsAndTheirCaseInsensitiveForms() throws {
        for (condition, include) in [
            (#"name.contains("Honeymoon")"#, { (name: String) in name.contains("Honeymoon") }),
            (#"name.lowercased().hasPrefix("tokyo")"#, { $0.lowercased().hasPrefix("tokyo") }),
            (#"name.localizedStandardContains("TOKYO")"#, { $0.lowercased().contains("tokyo") }),
            (#"name.uppercased() == "TOKYO HONEYMOON" || name.hasSuffix("Trip")"#, { $0.uppercased() == "TOKYO HONEYMOON" || $0.hasSuffix("Trip") }),
        ] {
            let selection = try select(DocumentQuery(entityName: "Trip", condition: condition))
            #expect(keys(selection) == expectedTrips { include(string($0, "name")!) }, "\(condition)")
        }
    }

    /// Each comparison on each attribute type, against the low, high and middling snapshots.
    @Test(arguments: [
        ("int64 == -9223372036854775808", ["1"]),
        ("int64 > 0", ["2", "3"]),
        ("uint64 == 18446744073709551615", ["2", "3"]),
        ("uint8 < 1", ["1"]),
        ("int8 >= -128 && int8 < 0", ["1"]),
        ("double == 0.1", ["3"]),
        ("double < 1", ["1", "3"]),  // NaN has no order
        ("float > 1e38", ["2"]),
        ("decimal > 12345678901234567890.1", ["2", "3"]),
        ("decimal < 0", ["1"]),
        ("bool == true", ["2", "3"]),
        ("bool", ["2", "3"]),
        ("!bool", ["1"]),
        ("date < 2000-01-01", ["1"]),
        ("date > 2025-01-01T00:00:00Z", ["2", "3"]),
        (#"uuid == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#, ["2", "3"]),
        (#"url == "file:///""#, ["1"]),
        ("optionalString == nil", ["1"]),
        ("optionalString != nil", ["2", "3"]),
        ("data.count == 256", ["2", "3"]),
        ("dates.count > 0", ["2", "3"]),
        ("string.count == 0", ["1"]),
        (#"string == "middle""#, ["3"]),
        ("parent == nil", ["2"]),
        ("children.count == 2", ["2"]),
        ("address == nil", ["1"]),
        (#"parent.string == "middle" || parent.int64 > 0"#, ["1", "3"]),
    ])
    func comparesEveryAttributeType(condition: String, expected: [String]) throws {
        for format in Self.formats {
            let selection = try select(
                DocumentQuery(entityName: "Everything", condition: condition), in: EdgeCaseDocuments.document(),
                format: format)
            #expect(keys(selection, "Everything") == expected, "\(format.name): \(condition)")
        }
    }

    /// Errors give the column and say what was expected.
    @Test(arguments: [
        ("destination == 3", 1, "cannot compare a String with a number"),
        (#"destinaton == "Lisbon""#, 1, "Trip has no property 'destinaton'; it has name, destination, startDate"),
        (#"name == "x" &&"#, 15, "expected a property, a value or '(', found the end of the expression"),
        (#"name = "x""#, 6, "unexpected character '='; compare with =="),
        (#"name == 'x'"#, 9, "unexpected character '''; strings are in double quotes"),
        (#"name == "x"#, 9, "this string has no closing '\"'"),
        ("startDate > 2030-13-01", 13, "'2030-13-01' is not a date"),
        ("bucketList > 2", 1, "Trip.bucketList is a to-many relationship; write bucketList.count"),
        ("name", 1, "the expression is a String, not a condition"),
        ("livingAccommodation < nil", 1, "nil has no order"),
        ("name == nil", 1, "a String is never nil here"),
        (#"startDate.contains("x")"#, 1, "contains(…) is a method of strings, and this is a Date"),
        (#"name.startsWith("x")"#, 6, "unknown method 'startsWith'; expected one of contains, hasPrefix"),
        ("(name == \"x\"", 13, "expected ')' to close the '(' at column 1"),
        ("livingAccommodation.rooms == 1", 1, "LivingAccommodation has no property 'rooms'"),
        ("name == \"a\" name", 13, "expected && or || or the end of the expression, found 'name'"),
    ])
    func refusesWithTheColumn(condition: String, column: Int, message: String) throws {
        let error = try #require(throws: QueryError.self) {
            try select(DocumentQuery(entityName: "Trip", condition: condition))
        }
        #expect(error.span.start == column, "\(condition): \(error)")
        #expect(error.message.hasPrefix(message) || error.message.contains(message), "\(condition): \(error.message)")
        #expect(error.description.hasSuffix("\n  " + condition + "\n  " + String(repeating: " ", count: column - 1) + "^"
            + String(repeating: "^", count: max(0, error.span.end - error.span.start - 1))))
    }

    @Test func refusesASortItCannotOrder() throws {
        let error = try #require(throws: QueryError.self) {
            try select(DocumentQuery(entityName: "Trip", sort: "startDate, livingAccommodation"))
        }
        #expect(error.option == "--sort")
        #expect(error.span.start == 12)
        #expect(error.message == "livingAccommodation is a reference to LivingAccommodation, which has no order")
    }

    @Test func showsOneObjectAndWhatItReferences() throws {
        let selection = try select(DocumentQuery(identifier: "Trip/3", follow: true))
        let trip = try #require(Self.trips.snapshots(of: "Trip").first { $0.persistentIdentifier.primaryKey == "3" })
        #expect(selection.tables.first?.snapshots == [trip])
        guard case .references(let items) = trip.values["bucketList"] else { Issue.record("no bucket list"); return }
        #expect(keys(selection, "BucketListItem") == items.map(\.primaryKey))
        if case .reference(let stay) = trip.values["livingAccommodation"] {
            #expect(keys(selection, "LivingAccommodation") == [stay.primaryKey])
        }
        #expect(throws: TripDocError.unknownObject(identifier: "Trip/999", path: "doc.json")) {
            try select(DocumentQuery(identifier: "Trip/999"))
        }
        #expect(throws: TripDocError.self) { try select(DocumentQuery(entityName: "BucketListItem", identifier: "Trip/3")) }
    }

    /// A document whose snapshots are out of key order (not written by tripdoc) gives the same
    /// selection, read whole.
    @Test func aDocumentOutOfOrderGivesTheSameSelection() throws {
        var object = try JSONSerialization.jsonObject(with: JSONFormat().writeDocument(Self.trips)) as! [String: Any]
        var snapshots = object["snapshots"] as! [String: [Any]]
        snapshots["Trip"]!.reverse()
        object["snapshots"] = snapshots
        let data = try JSONSerialization.data(withJSONObject: object)
        let query = DocumentQuery(entityName: "Trip", condition: #"destination.hasPrefix("T")"#, limit: 3)
        let shuffled = try query.select(from: data, format: JSONFormat(), file: "shuffled.json", limits: .standard)
        #expect(keys(shuffled) == Array(expectedTrips { string($0, "destination")!.hasPrefix("T") }.prefix(3)))
    }
}
