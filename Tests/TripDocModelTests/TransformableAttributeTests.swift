import Foundation
import Testing
import TripDoc
import TripDocTestSupport

/// A colour that is not Codable: stored through value transformers, as SwiftData apps store
/// UIColor.
final class Colour: Equatable, @unchecked Sendable {
    let red: UInt8, green: UInt8, blue: UInt8
    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
    static func == (a: Colour, b: Colour) -> Bool { (a.red, a.green, a.blue) == (b.red, b.green, b.blue) }
}

/// Three bytes.
final class ColourTransformer: ValueTransformer, @unchecked Sendable {
    override class func transformedValueClass() -> AnyClass { NSData.self }
    override class func allowsReverseTransformation() -> Bool { true }
    override func transformedValue(_ value: Any?) -> Any? {
        guard let colour = value as? Colour else { return nil }
        return Data([colour.red, colour.green, colour.blue])
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 3 else { return nil }
        return Colour(red: data[data.startIndex], green: data[data.startIndex + 1], blue: data[data.startIndex + 2])
    }
}

/// The same colour as the UTF-8 of `#rrggbb`, registered by name.
final class HexColourTransformer: ValueTransformer, @unchecked Sendable {
    static let name = NSValueTransformerName("HexColourTransformer")
    override func transformedValue(_ value: Any?) -> Any? {
        guard let c = value as? Colour else { return nil }
        return Data(String(format: "#%02x%02x%02x", c.red, c.green, c.blue).utf8)
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, let text = String(data: data, encoding: .utf8), text.count == 7,
            let number = UInt32(text.dropFirst(), radix: 16)
        else { return nil }
        return Colour(red: UInt8(number >> 16), green: UInt8(number >> 8 & 0xFF), blue: UInt8(number & 0xFF))
    }
}

@Model
final class Swatch {
    var name: String
    @Attribute(.transformable(by: ColourTransformer.self)) var colour: Colour
    @Attribute(.transformable(by: "HexColourTransformer")) var accent: Colour?

    init(name: String, colour: Colour) {
        self.name = name
        self.colour = colour
    }
}

@Model
final class Palette {
    var name: String
    @Attribute(.transformable(by: "NoSuchTransformer")) var main: Colour

    init(name: String, main: Colour) {
        self.name = name
        self.main = main
    }
}

@Suite struct TransformableAttributeTests {
    static let stores = ["json", "plist", "tripbundle", "memory"]

    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder("transformable")
        ValueTransformer.setValueTransformer(HexColourTransformer(), forName: HexColourTransformer.name)
    }

    func configuration(_ kind: String) -> ModelConfiguration {
        kind == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(url: scratch.file("swatches.\(kind)"))
    }

    @Test(arguments: stores)
    func valuesGoThroughTheirTransformersBothWays(kind: String) throws {
        let container = try ModelContainer(for: Swatch.self, configurations: configuration(kind))
        let entity = try #require(container.schema.entity(named: "Swatch"))
        #expect(entity.attribute(named: "colour")?.type == .data)
        #expect(entity.attribute(named: "colour")?.options == [.transformable(by: "ColourTransformer")])
        #expect(entity.attribute(named: "accent")?.isOptional == true)

        let context = ModelContext(container)
        let swatch = Swatch(name: "Sea", colour: Colour(red: 0, green: 105, blue: 148))
        context.insert(swatch)
        context.insert(Swatch(name: "Plain", colour: Colour(red: 1, green: 2, blue: 3)))
        swatch.accent = Colour(red: 255, green: 200, blue: 0)
        try context.save()

        let reopened = kind == "memory" ? container : try ModelContainer(for: Swatch.self, configurations: configuration(kind))
        let read = try ModelContext(reopened).fetch(FetchDescriptor<Swatch>(sortBy: [SortDescriptor(\.name)]))
        #expect(read.map(\.name) == ["Plain", "Sea"])
        #expect(read.map(\.colour) == [Colour(red: 1, green: 2, blue: 3), Colour(red: 0, green: 105, blue: 148)])
        #expect(read.map(\.accent) == [nil, Colour(red: 255, green: 200, blue: 0)])
        if kind == "json" {
            // The saves are in the document's journal until it is folded in.
            try ArchiveStore(path: scratch.file("swatches.json").path, format: JSONFormat()).compact()
            let text = String(decoding: try Data(contentsOf: scratch.file("swatches.json")), as: UTF8.self)
            #expect(text.contains(#""accent":"I2ZmYzgwMA==""#), "the named transformer's bytes, #ffc800, as base64")
        }
    }

    @Test func aTransformerNameNothingIsRegisteredUnderIsAnError() throws {
        #expect(throws: ModelContextError.noValueTransformer(model: "Palette", property: "main", name: "NoSuchTransformer")) {
            try ModelContainer(for: Palette.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
    }
}
