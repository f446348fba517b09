import Foundation

extension Schema {
    /// Property names no entity may use: documents use them for the identifier.
    public static let reservedPropertyNames: Set<String> = ["$id", "persistentIdentifier"]

    /// Checks that the schema is consistent: unique names, relationships whose destination and
    /// inverse exist and point back, constraints and indexes naming real properties, default
    /// values that fit their attribute, known options.
    ///
    /// - Throws: ``SchemaError`` listing every problem found.
    public func validate() throws {
        var problems: [String] = []
        var seenEntities: Set<String> = []
        let byName = entitiesByName
        for entity in entities {
            if entity.name.isEmpty || entity.name.contains("/") || entity.name.contains("\\") {
                problems.append("entity name '\(entity.name)' must be non-empty and without '/' or '\\'")
            }
            if !seenEntities.insert(entity.name).inserted {
                problems.append("entity '\(entity.name)' is declared twice")
            }
            if !Self.isNFC(entity.name) {
                problems.append(
                    "entity name '\(entity.name)' must be in Unicode normalization form C, without control characters")
            }
            var seenProperties: Set<String> = []
            for name in entity.propertyNames {
                if name.isEmpty { problems.append("entity '\(entity.name)' has a property with an empty name") }
                if !Self.isNFC(name) {
                    problems.append(
                        "\(entity.name).\(name): names must be in Unicode normalization form C, without control characters")
                }
                if Self.reservedPropertyNames.contains(name) {
                    problems.append("\(entity.name).\(name): the name '\(name)' is reserved")
                }
                if !seenProperties.insert(name).inserted {
                    problems.append("\(entity.name).\(name) is declared twice")
                }
            }
            for attribute in entity.attributes {
                problems += Self.compositeProblems(in: attribute.type, place: "\(entity.name).\(attribute.name)")
                for option in attribute.options where !option.isKnown {
                    problems.append("\(entity.name).\(attribute.name): unknown option '\(option.rawValue)'")
                }
                if let value = attribute.defaultValue, value != .null, !value.fits(attribute.type) {
                    problems.append(
                        "\(entity.name).\(attribute.name): default value is \(value.kindDescription), "
                            + "expected \(attribute.type.name)")
                }
            }
            for relationship in entity.relationships {
                let place = "\(entity.name).\(relationship.name)"
                for name in [relationship.destination] + (relationship.inverseName.map { [$0] } ?? [])
                where !NameNormalization.isNFC(name) {
                    problems.append("\(place): " + NameNormalization.problem(with: name))
                }
                guard let destination = byName[relationship.destination] else {
                    problems.append("\(place): destination entity '\(relationship.destination)' does not exist")
                    continue
                }
                if relationship.minimumModelCount < 0 || relationship.maximumModelCount < 0
                    || (relationship.maximumModelCount > 0
                        && relationship.minimumModelCount > relationship.maximumModelCount)
                {
                    problems.append("\(place): minimum and maximum model counts are inconsistent")
                }
                guard let inverseName = relationship.inverseName else { continue }
                guard let inverse = destination.relationship(named: inverseName) else {
                    problems.append("\(place): inverse '\(destination.name).\(inverseName)' does not exist")
                    continue
                }
                // Several relationships of one entity may name the same inverse (SwiftData accepts
                // it): the inverse then names one of them back, and holds what they all hold.
                let namesASharer = inverse.inverseName.map { name in
                    entity.relationship(named: name).map {
                        $0.inverseName == inverseName && $0.destination == relationship.destination
                    } ?? false
                } ?? false
                if inverse.destination != entity.name
                    || (inverse.inverseName.map { $0 != relationship.name } ?? false) && !namesASharer
                {
                    problems.append(
                        "\(place): inverse '\(destination.name).\(inverseName)' does not point back to \(place)")
                }
            }
            for constraint in entity.uniquenessConstraints {
                if constraint.isEmpty { problems.append("\(entity.name): an empty uniqueness constraint") }
                for name in constraint where !NameNormalization.isNFC(name) {
                    problems.append("\(entity.name): uniqueness constraint: " + NameNormalization.problem(with: name))
                }
                // An attribute or a to-one relationship (whose destination is part of the
                // values compared), as in SwiftData; a to-many relationship is not.
                for name in constraint where entity.attribute(named: name) == nil {
                    if let relationship = entity.relationship(named: name) {
                        if relationship.isToMany {
                            problems.append(
                                "\(entity.name): uniqueness constraint names '\(name)', a to-many relationship; "
                                    + "a constraint takes attributes and to-one relationships")
                        }
                    } else {
                        problems.append(
                            "\(entity.name): uniqueness constraint names '\(name)', which is neither an attribute nor a "
                                + "to-one relationship")
                    }
                }
            }
            for index in entity.indices {
                for name in index where !NameNormalization.isNFC(name) {
                    problems.append("\(entity.name): index: " + NameNormalization.problem(with: name))
                }
                for name in index where !seenProperties.contains(name) {
                    problems.append("\(entity.name): index names '\(name)', which is not a property")
                }
            }
        }
        if !problems.isEmpty { throw SchemaError(problems: problems) }
    }
}

extension Schema {
    /// Whether `name` is in Unicode normalization form C, byte for byte (Swift's `==` would
    /// call `é` and `e\u{301}` equal, which documents compare by bytes cannot).
    static func isNFC(_ name: String) -> Bool {
        NameNormalization.isNFC(name)
            && !name.unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0.properties.isNoncharacterCodePoint
            }
    }

    /// Problems with the fields of composite types inside `type`: empty, duplicate or non-NFC
    /// names; and `Codable` anywhere but at the top (it holds arrays and objects itself).
    static func compositeProblems(in type: AttributeType, place: String, nested: Bool = false) -> [String] {
        switch type {
        case .codable where nested:
            return ["\(place): Codable may only be an attribute's own type, not an array's element or a field's"]
        case .array(let element):
            return compositeProblems(in: element, place: place, nested: true)
        case .composite(let fields):
            var problems: [String] = []
            var seen: Set<String> = []
            for field in fields {
                if field.name.isEmpty { problems.append("\(place): a composite field has an empty name") }
                if !isNFC(field.name) {
                    problems.append(
                        "\(place).\(field.name): names must be in Unicode normalization form C, without control characters")
                }
                if !seen.insert(field.name).inserted { problems.append("\(place).\(field.name) is declared twice") }
                problems += compositeProblems(in: field.type, place: "\(place).\(field.name)", nested: true)
            }
            return problems
        default:
            return []
        }
    }
}

/// A schema that is not consistent.
public struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Each problem, as a sentence naming the entity and property.
    public var problems: [String]

    /// An error of these problems (a format that cannot write a schema says why with one).
    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "the schema is not consistent: " + problems.joined(separator: "; ")
    }
}
