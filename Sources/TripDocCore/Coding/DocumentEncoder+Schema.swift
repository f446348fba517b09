import Foundation

extension DocumentEncoder {
    /// Writes the schema object: `{"entities": [...], "version": "1.0.0"}`.
    public func encodeSchema<W: StructuredWriter>(_ schema: Schema, to writer: inout W) {
        writer.beginObject()
        writer.key("entities")
        writer.beginArray()
        for entity in schema.entities { encodeEntity(entity, to: &writer) }
        writer.endArray()
        writer.key("version")
        writer.writeString(schema.version.description)
        writer.endObject()
    }

    private func encodeEntity<W: StructuredWriter>(_ entity: Schema.Entity, to writer: inout W) {
        writer.beginObject()
        writer.key("attributes")
        writer.beginArray()
        for attribute in entity.attributes { encodeAttribute(attribute, to: &writer) }
        writer.endArray()
        writer.key("indices")
        encodeNameLists(entity.indices, to: &writer)
        writer.key("name")
        writer.writeString(entity.name)
        if let originalName = entity.originalName {
            writer.key("originalName")
            writer.writeString(originalName)
        }
        writer.key("relationships")
        writer.beginArray()
        for relationship in entity.relationships { encodeRelationship(relationship, to: &writer) }
        writer.endArray()
        writer.key("uniquenessConstraints")
        encodeNameLists(entity.uniquenessConstraints, to: &writer)
        writer.endObject()
    }

    private func encodeAttribute<W: StructuredWriter>(_ attribute: Schema.Attribute, to writer: inout W) {
        writer.beginObject()
        if let value = attribute.defaultValue, value != .null {
            writer.key("defaultValue")
            encodeValue(value, as: attribute.type, to: &writer)
        }
        if let modifier = attribute.hashModifier {
            writer.key("hashModifier")
            writer.writeString(modifier)
        }
        writer.key("name")
        writer.writeString(attribute.name)
        writer.key("optional")
        writer.writeBool(attribute.isOptional)
        writer.key("options")
        writer.beginArray()
        for option in attribute.options { writer.writeString(option.rawValue) }
        writer.endArray()
        if let originalName = attribute.originalName {
            writer.key("originalName")
            writer.writeString(originalName)
        }
        writer.key("type")
        encodeType(attribute.type, to: &writer)
        writer.endObject()
    }

    private func encodeType<W: StructuredWriter>(_ type: AttributeType, to writer: inout W) {
        switch type {
        case .array(let element):
            writer.beginObject()
            writer.key("array")
            encodeType(element, to: &writer)
            writer.endObject()
        case .composite(let fields):
            writer.beginObject()
            writer.key("composite")
            writer.beginArray()
            for field in fields {
                writer.beginObject()
                writer.key("name")
                writer.writeString(field.name)
                writer.key("optional")
                writer.writeBool(field.isOptional)
                writer.key("type")
                encodeType(field.type, to: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        default:
            writer.writeString(type.name)
        }
    }

    private func encodeRelationship<W: StructuredWriter>(_ relationship: Schema.Relationship, to writer: inout W) {
        writer.beginObject()
        writer.key("deleteRule")
        writer.writeString(relationship.deleteRule.rawValue)
        writer.key("destination")
        writer.writeString(relationship.destination)
        if let inverse = relationship.inverseName {
            writer.key("inverse")
            writer.writeString(inverse)
        }
        writer.key("maximumModelCount")
        writer.writeInt(Int64(relationship.maximumModelCount))
        writer.key("minimumModelCount")
        writer.writeInt(Int64(relationship.minimumModelCount))
        writer.key("name")
        writer.writeString(relationship.name)
        if let originalName = relationship.originalName {
            writer.key("originalName")
            writer.writeString(originalName)
        }
        writer.key("toMany")
        writer.writeBool(relationship.isToMany)
        writer.endObject()
    }

    private func encodeNameLists<W: StructuredWriter>(_ lists: [[String]], to writer: inout W) {
        writer.beginArray()
        for list in lists {
            writer.beginArray()
            for name in list { writer.writeString(name) }
            writer.endArray()
        }
        writer.endArray()
    }
}
