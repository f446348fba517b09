import SwiftData

// A packing list's models, as apps write them: Codable enums and structs as attributes, with
// nothing tripdoc-specific in them.

enum Bag: String, Codable, CaseIterable {
    case carryOn, checked, backpack
}

enum Weather: Codable, Hashable {
    case sunny
    case rainy(millimetres: Int)
    case snowy(centimetres: Double, roadsClosed: Bool)
}

struct Dimensions: Codable, Hashable {
    var width = 0.0
    var height = 0.0
    var depth: Double?
}

@Model
class PackingItem {
    var name = ""
    var bag = Bag.carryOn
    var forWeather: [Weather] = []
    var size: Dimensions?
    var countsByDay = [String: Int]()

    init(name: String, bag: Bag) {
        self.name = name
        self.bag = bag
    }
}
