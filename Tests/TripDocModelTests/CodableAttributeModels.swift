import Foundation
import TripDoc

// Models with Codable attributes, written as SwiftData apps write them: enums and structs that
// are only `Codable`, nothing tripdoc-specific.

enum TravelMode: String, Codable, Sendable {
    case plane, train, car
}

enum Priority: Int, Codable, Comparable, Sendable {
    case low = 1, normal = 2, high = 3

    static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}

struct Coordinate: Codable, Hashable, Sendable {
    var latitude: Double
    var longitude: Double
}

struct Address: Codable, Hashable, Sendable {
    var street: String
    var city: String
    var coordinate: Coordinate?
    var tags: [String]
}

enum Booking: Codable, Hashable, Sendable {
    case none
    case flight(number: String, seat: String?)
    case hotel(name: String, nights: Int)
}

struct Stop: Codable, Hashable, Sendable {
    var name: String
    var arrival: Date
    var mode: TravelMode
    var cost: Decimal
    var ticket: Data?
    var link: URL?
}

@Model
final class Journey {
    #Unique<Journey>([\.name])

    var name: String
    var mode: TravelMode
    var priority: Priority
    var previousMode: TravelMode?
    var home: Address
    var destination: Address?
    var booking: Booking
    var stops: [Stop] = []
    var modes: [TravelMode] = []
    var ratings: [String: Int] = [:]
    var notesByDay: [Int: [String]] = [:]
    var legs: [Booking]? = nil
    var sparse: [Int?] = []

    init(name: String, mode: TravelMode, priority: Priority, home: Address, booking: Booking) {
        self.name = name
        self.mode = mode
        self.priority = priority
        self.home = home
        self.booking = booking
    }
}

/// A struct that is not Codable: tripdoc cannot store it.
struct Shape: Hashable {
    var corners: Int
}

@Model
final class Drawing {
    var title: String
    var shape: Shape

    init(title: String, shape: Shape) {
        self.title = title
        self.shape = shape
    }
}

/// A Codable class hierarchy whose subclass encodes its superclass through `superEncoder()`.
class Layer: Codable, @unchecked Sendable {
    var opacity: Double
    init(opacity: Double) { self.opacity = opacity }
}

final class TextLayer: Layer, @unchecked Sendable {
    var text: String
    private enum CodingKeys: String, CodingKey { case text }

    init(text: String, opacity: Double) {
        self.text = text
        super.init(opacity: opacity)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try super.encode(to: container.superEncoder())
    }
}

@Model
final class Sketch {
    var name: String
    var title: TextLayer

    init(name: String, title: TextLayer) {
        self.name = name
        self.title = title
    }
}

/// A uniqueness constraint on a property that is not persisted.
@Model
final class Badge {
    #Unique<Badge>([\.label])

    var name: String
    @Transient var label: String = ""

    init(name: String) { self.name = name }
}
