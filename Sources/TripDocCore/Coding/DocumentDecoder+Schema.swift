import Foundation

extension DocumentDecoder {
    /// Reads and validates the schema object.
    func decodeSchema<R: StructuredReader>(from reader: inout R) throws -> Schema {
        let start = reader.bookmark
        var entities: [Schema.Entity]?
        var version: Schema.Version?
        try decodeObject(from: &reader, allowedKeys: ["entities", "version"]) { key, reader in
            if key == "version" {
                version = try decodeVersion(from: &reader)
            } else {
                entities = try decodeArray(from: &reader) { reader in try decodeEntity(from: &reader) }
            }
        }
        guard let entities, let version else {
            throw failure(at: start, in: reader, "the schema needs 'entities' and 'version'")
        }
        let schema = Schema(entities, version: version)
        do {
            try schema.validate()
        } catch let error as SchemaError {
            throw failure(at: start, in: reader, error.description)
        }
        return schema
    }

    func decodeVersion<R: StructuredReader>(from reader: inout R) throws -> Schema.Version {
        let start = reader.bookmark
        let text = try reader.readString()
        guard let version = Schema.Version(text) else {
            throw failure(at: start, in: reader, "expected a version such as 1.0.0, found '\(text)'")
        }
        return version
    }

    private func decodeEntity<R: StructuredReader>(from reader: inout R) throws -> Schema.Entity {
        let start = reader.bookmark
        var name: String?
        var attributes: [Schema.Attribute] = []
        var relationships: [Schema.Relationship] = []
        var uniquenessConstraints: [[String]] = []
        var indices: [[String]] = []
        var originalName: String?
        try decodeObject(
            from: &reader,
            allowedKeys: ["attributes", "indices", "name", "originalName", "relationships", "uniquenessConstraints"]
        ) { key, reader in
            switch key {
            case "name": name = try reader.readString()
            case "originalName": originalName = try reader.readString()
            case "attributes":
                attributes = try decodeArray(from: &reader) { reader in try decodeAttribute(from: &reader) }
            case "relationships":
                relationships = try decodeArray(from: &reader) { reader in try decodeRelationship(from: &reader) }
            case "uniquenessConstraints": uniquenessConstraints = try decodeNameLists(from: &reader)
            default: indices = try decodeNameLists(from: &reader)
            }
        }
        guard let name else { throw failure(at: start, in: reader, "the entity has no 'name'") }
        return Schema.Entity(
            name: name, attributes: attributes, relationships: relationships,
            uniquenessConstraints: uniquenessConstraints, indices: indices, originalName: originalName)
    }

    private func decodeAttribute<R: StructuredReader>(from reader: inout R) throws -> Schema.Attribute {
        let start = reader.bookmark
        var name: String?
        var type: AttributeType?
        var isOptional = false
        var options: [Schema.Attribute.Option] = []
        var originalName: String?
        var hashModifier: String?
        var defaultValueStart: R.Bookmark?
        try decodeObject(
            from: &reader,
            allowedKeys: ["defaultValue", "hashModifier", "name", "optional", "options", "originalName", "type"]
        ) { key, reader in
            switch key {
            case "name": name = try reader.readString()
            case "type": type = try decodeType(from: &reader)
            case "optional": isOptional = try reader.readBool()
            case "options":
                options = try decodeArray(from: &reader) { reader in
                    Schema.Attribute.Option(rawValue: try reader.readString())
                }
            case "originalName": originalName = try reader.readString()
            case "hashModifier": hashModifier = try reader.readString()
            default:
                // The default value's coding depends on the type, which may come later.
                defaultValueStart = reader.bookmark
                try reader.skipValue()
            }
        }
        guard let name, let type else { throw failure(at: start, in: reader, "the attribute needs 'name' and 'type'") }
        var defaultValue: SnapshotValue?
        if let defaultValueStart {
            let end = reader.bookmark
            reader.resume(at: defaultValueStart)
            defaultValue = try within("defaultValue") { try decodeValue(type, from: &reader) }
            reader.resume(at: end)
        }
        return Schema.Attribute(
            name, type, isOptional: isOptional, options: options, originalName: originalName,
            defaultValue: defaultValue, hashModifier: hashModifier)
    }

    private func decodeType<R: StructuredReader>(from reader: inout R) throws -> AttributeType {
        let start = reader.bookmark
        if try reader.peekKind() == .string {
            let name = try reader.readString()
            guard let type = AttributeType.scalarsByName[name] else {
                throw failure(
                    at: start, in: reader,
                    "unknown attribute type '\(name)'; expected one of "
                        + AttributeType.scalarsByName.keys.sorted().joined(separator: ", ")
                        + ", {\"array\": type} or {\"composite\": [fields]}")
            }
            return type
        }
        var result: AttributeType?
        try decodeObject(from: &reader, allowedKeys: ["array", "composite"]) { key, reader in
            guard result == nil else {
                throw failure(at: reader.bookmark, in: reader, "a type has either 'array' or 'composite', not both")
            }
            if key == "array" {
                result = .array(try decodeType(from: &reader))
            } else {
                result = .composite(try decodeArray(from: &reader) { reader in try decodeField(from: &reader) })
            }
        }
        guard let result else { throw failure(at: start, in: reader, "the type object is empty") }
        return result
    }

    private func decodeField<R: StructuredReader>(from reader: inout R) throws -> CompositeField {
        let start = reader.bookmark
        var name: String?
        var type: AttributeType?
        var isOptional = false
        try decodeObject(from: &reader, allowedKeys: ["name", "optional", "type"]) { key, reader in
            switch key {
            case "name": name = try reader.readString()
            case "optional": isOptional = try reader.readBool()
            default: type = try decodeType(from: &reader)
            }
        }
        guard let name, let type else { throw failure(at: start, in: reader, "the field needs 'name' and 'type'") }
        return CompositeField(name: name, type: type, isOptional: isOptional)
    }

    private func decodeRelationship<R: StructuredReader>(from reader: inout R) throws -> Schema.Relationship {
        let start = reader.bookmark
        var name: String?
        var destination: String?
        var isToMany = false
        var inverse: String?
        var deleteRule = Schema.Relationship.DeleteRule.nullify
        var minimum = 0
        var maximum = 0
        var originalName: String?
        try decodeObject(
            from: &reader,
            allowedKeys: [
                "deleteRule", "destination", "inverse", "maximumModelCount", "minimumModelCount", "name",
                "originalName", "toMany",
            ]
        ) { key, reader in
            let valueStart = reader.bookmark
            switch key {
            case "name": name = try reader.readString()
            case "destination": destination = try readName(from: &reader)
            case "toMany": isToMany = try reader.readBool()
            case "inverse": inverse = try readName(from: &reader)
            case "originalName": originalName = try reader.readString()
            case "deleteRule":
                let text = try reader.readString()
                guard let rule = Schema.Relationship.DeleteRule(rawValue: text) else {
                    throw failure(
                        at: valueStart, in: reader,
                        "unknown delete rule '\(text)'; expected nullify, cascade, deny or noAction")
                }
                deleteRule = rule
            case "minimumModelCount": minimum = try decodeCount(from: &reader)
            default: maximum = try decodeCount(from: &reader)
            }
        }
        guard let name, let destination else {
            throw failure(at: start, in: reader, "the relationship needs 'name' and 'destination'")
        }
        return Schema.Relationship(
            name, destination: destination, isToMany: isToMany, inverse: inverse, deleteRule: deleteRule,
            minimumModelCount: minimum, maximumModelCount: maximum, originalName: originalName)
    }

    private func decodeCount<R: StructuredReader>(from reader: inout R) throws -> Int {
        let start = reader.bookmark
        let value = try reader.readInt64()
        guard value >= 0, value <= Int64(Int32.max) else {
            throw failure(at: start, in: reader, "expected a count of 0 or more, found \(value)")
        }
        return Int(value)
    }

    private func decodeNameLists<R: StructuredReader>(from reader: inout R) throws -> [[String]] {
        try decodeArray(from: &reader) { reader in
            try decodeArray(from: &reader) { reader in try readName(from: &reader) }
        }
    }

    /// Reads an array, each element with `element`, adding `[index]` to failures' key paths.
    func decodeArray<R: StructuredReader, T>(
        from reader: inout R, cappedBy cap: DocumentLimits.Cap? = nil, element: (inout R) throws -> T
    ) throws -> [T] {
        try expect(.array, in: &reader)
        try reader.beginArray()
        var result: [T] = []
        while try reader.nextElement() {
            if let cap, result.count >= limits[cap] {
                throw limits.exceeded(cap, at: reader.location(of: reader.bookmark))
            }
            let value = try within("[\(result.count)]") { try element(&reader) }
            result.append(value)
        }
        return result
    }
}
