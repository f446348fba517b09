import Foundation

/// Where each name first appears in a list of named things (a schema's entities, an entity's
/// attributes or relationships): what ``Schema/entity(named:)``, ``Schema/Entity/attribute(named:)``
/// and ``Schema/Entity/relationship(named:)`` look names up in, so that a lookup costs the same
/// whatever the length of the list, and a pass over every property of a wide entity that looks
/// each one up, or over every entity of a large schema, stays linear.
///
/// Names are matched as Swift compares strings (canonical equivalence), as a search of the list
/// with `==` would match them, and the first of two equal names wins.
struct NamePositions: Sendable {
    private var positions: [String: Int]

    /// The positions of `names`, in order.
    init<Names: Collection<String>>(_ names: Names) {
        positions = Dictionary(minimumCapacity: names.count)
        for (position, name) in names.enumerated() where positions[name] == nil {
            positions[name] = position
        }
    }

    /// Where `name` first appears, or `nil`.
    subscript(name: String) -> Int? { positions[name] }
}
