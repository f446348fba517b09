import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import TripDocMacros

/// Every TripDoc macro, by the name user code spells it.
let tripDocMacros: [String: Macro.Type] = [
    "Model": ModelMacro.self,
    "_PersistedProperty": PersistedPropertyMacro.self,
    "Attribute": AttributeMacro.self,
    "Relationship": RelationshipMacro.self,
    "Transient": TransientMacro.self,
    "Unique": UniqueMacro.self,
    "Index": IndexMacro.self,
    "ModelActor": ModelActorMacro.self,
]

/// `tripDocMacros` as the compiler sees them for a class that does not yet conform to
/// `PersistentModel`: the compiler passes the missing conformance to `@Model`'s
/// extension role.
let tripDocMacroSpecs: [String: MacroSpec] = tripDocMacros.mapValues { type in
    switch type {
    case is ModelMacro.Type: MacroSpec(type: type, conformances: ["PersistentModel"])
    case is ModelActorMacro.Type: MacroSpec(type: type, conformances: ["ModelActor"])
    default: MacroSpec(type: type)
    }
}

/// `tripDocMacroSpecs` as the compiler sees them for a class that already conforms to
/// `PersistentModel` through its superclass: no conformance is missing.
let tripDocMacroSpecsForModelSubclass: [String: MacroSpec] = tripDocMacros.mapValues { MacroSpec(type: $0) }

/// The members `@Model` adds to a class named `type`, indented for the class body, for
/// tests about something else (diagnostics, mostly). `storage` names the `_name` storage
/// of each persisted property and `schema` its `PropertyMetadata(...)` entry; both are
/// empty for a class with nothing to persist. `ModelMacroTests` spells these members
/// out in full.
func modelMembers(_ type: String, schema: [String] = [], storage: [String] = []) -> String {
    let schemaList =
        schema.isEmpty
        ? "        []"
        : "        [\n" + schema.map { "            " + $0 }.joined(separator: ",\n") + "\n        ]"
    let storageLines = storage.map { "        \($0) = TripDoc.PersistedPropertyStorage()\n" }.joined()
    return """
            private var _$backingData: any TripDoc.BackingData<\(type)> = \(type).createBackingData()

            public var persistentBackingData: any TripDoc.BackingData<\(type)> {
                get {
                    _$backingData
                }
                set {
                    _$backingData = newValue
                }
            }

            public static var schemaMetadata: [TripDoc.Schema.PropertyMetadata] {
        \(schemaList)
            }

            public required init(backingData: any TripDoc.BackingData<\(type)>) {
        \(storageLines)        _$backingData = backingData
            }
        """
}
