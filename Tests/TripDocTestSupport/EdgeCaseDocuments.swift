import Foundation
import TripDocCore

/// Documents that exercise every attribute type at its edges, shared by the test suites.
public enum EdgeCaseDocuments {
    /// The store identifier of ``document()`` and of ``identifier(_:)``'s identifiers.
    public static let storeIdentifier = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    /// An entity with one attribute of every type (optional and not), arrays, a composite, and
    /// relationships to itself both ways.
    public static let schema = Schema(
        [
            Schema.Entity(
                name: "Everything",
                attributes: [
                    .init("string", .string),
                    .init("bool", .bool),
                    .init("int", .int), .init("int8", .int8), .init("int16", .int16), .init("int32", .int32),
                    .init("int64", .int64),
                    .init("uint", .uint), .init("uint8", .uint8), .init("uint16", .uint16), .init("uint32", .uint32),
                    .init("uint64", .uint64),
                    .init("double", .double), .init("float", .float), .init("decimal", .decimal),
                    .init("date", .date), .init("data", .data), .init("uuid", .uuid), .init("url", .url),
                    .init("optionalString", .string, isOptional: true),
                    .init("dates", .array(.date)),
                    .init("matrix", .array(.array(.double))),
                    .init(
                        "address",
                        .composite([
                            CompositeField(name: "street", type: .string),
                            CompositeField(name: "zip", type: .int32, isOptional: true),
                            CompositeField(name: "visited", type: .array(.date)),
                        ]), isOptional: true),
                    .init("withDefault", .int16, defaultValue: .int(42)),
                ],
                relationships: [
                    .init("parent", destination: "Everything", inverse: "children"),
                    .init("children", destination: "Everything", isToMany: true, inverse: "parent", deleteRule: .cascade),
                ],
                uniquenessConstraints: [["string"]])
        ], version: Schema.Version(2, 1, 0))

    /// The identifier of the `Everything` object whose primary key is `key`.
    public static func identifier(_ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: "Everything", primaryKey: key)
    }

    /// Values at the low edge of every type.
    public static let lowValues: [String: SnapshotValue] = [
        "string": .string(""), "bool": .bool(false),
        "int": .int(Int64.min), "int8": .int(Int64(Int8.min)), "int16": .int(Int64(Int16.min)),
        "int32": .int(Int64(Int32.min)), "int64": .int(Int64.min),
        "uint": .uint(0), "uint8": .uint(0), "uint16": .uint(0), "uint32": .uint(0), "uint64": .uint(0),
        "double": .double(-0.0), "float": .float(-Float.greatestFiniteMagnitude),
        "decimal": .decimal(Decimal(string: "-0.000000000000000000000000000001")!),
        "date": .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),  // 0001-01-01
        "data": .data(Data()), "uuid": .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!),
        "url": .url(URL(string: "file:///")!),
        "optionalString": .null, "dates": .array([]), "matrix": .array([]), "address": .null,
        "withDefault": .int(42), "parent": .null,
    ]

    /// Values at the high edge of every type, with Unicode, control characters, non-finite numbers.
    public static let highValues: [String: SnapshotValue] = [
        "string": .string("Zürich \u{1F5FC} \"quoted\" \\ back\nslash\ttab\u{0}nul\u{1F}\u{7F} 東京 \u{2028}"),
        "bool": .bool(true),
        "int": .int(Int64.max), "int8": .int(Int64(Int8.max)), "int16": .int(Int64(Int16.max)),
        "int32": .int(Int64(Int32.max)), "int64": .int(Int64.max),
        "uint": .uint(UInt64.max), "uint8": .uint(UInt64(UInt8.max)), "uint16": .uint(UInt64(UInt16.max)),
        "uint32": .uint(UInt64(UInt32.max)), "uint64": .uint(UInt64.max),
        "double": .double(.nan), "float": .float(.infinity),
        "decimal": .decimal(Decimal(string: "12345678901234567890.123456789")!),
        "date": .date(Date(timeIntervalSinceReferenceDate: 757_382_400.123_456_7)),
        "data": .data(Data((0...255).map { UInt8($0) })),
        "uuid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        "url": .url(URL(string: "https://example.com/a%20b?q=1&r=%C3%A9#frag")!),
        "optionalString": .string("present"),
        "dates": .array([
            .date(Date(timeIntervalSinceReferenceDate: 0.1)), .date(Date(timeIntervalSinceReferenceDate: -0.5)),
            .date(.distantFuture), .date(Date(timeIntervalSinceReferenceDate: 1e15)),
        ]),
        "matrix": .array([
            .array([.double(-.infinity), .double(.infinity), .double(.leastNonzeroMagnitude)]),
            .array([.double(.greatestFiniteMagnitude), .double(0.1), .double(-0.0)]),
        ]),
        "address": .composite([
            "street": .string("1 Infinite Loop"), "zip": .int(95014),
            "visited": .array([.date(Date(timeIntervalSinceReferenceDate: 86_400.25))]),
        ]),
        "withDefault": .int(-7), "parent": .null,
    ]

    /// A document of three snapshots: low values, high values (the parent of the first), and a
    /// third with middling values and no composite.
    public static func document() -> Document {
        var low = lowValues
        low["parent"] = .reference(identifier("2"))
        low["children"] = .references([])
        var high = highValues
        high["children"] = .references([identifier("1"), identifier("3")])
        var middle = highValues
        middle["string"] = .string("middle")
        middle["double"] = .double(0.1)
        middle["float"] = .float(-0.0)
        middle["address"] = .composite(["street": .string("no zip"), "visited": .array([])])
        middle["parent"] = .reference(identifier("2"))
        middle["children"] = .references([])
        var header = DocumentHeader(storeIdentifier: storeIdentifier, schemaVersion: schema.version)
        header.nextPrimaryKeys = ["Everything": 4]
        return Document(
            header: header, schema: schema,
            snapshots: [
                DefaultSnapshot(persistentIdentifier: identifier("1"), values: low),
                DefaultSnapshot(persistentIdentifier: identifier("2"), values: high),
                DefaultSnapshot(persistentIdentifier: identifier("3"), values: middle),
            ])
    }
}
