import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind TripDoc's model macros: `@Model`, `@Attribute`,
/// `@Relationship`, `@Transient`, `#Unique`, `#Index`, `@ModelActor`, and the `@_PersistedProperty`
/// accessor macro that `@Model` puts on each persisted property.
@main
struct TripDocMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ModelMacro.self,
        PersistedPropertyMacro.self,
        AttributeMacro.self,
        RelationshipMacro.self,
        TransientMacro.self,
        UniqueMacro.self,
        IndexMacro.self,
        ModelActorMacro.self,
    ]
}
