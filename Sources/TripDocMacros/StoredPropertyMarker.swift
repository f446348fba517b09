import SwiftSyntax
import SwiftSyntaxMacros

/// The checks shared by the marker macros `@Attribute`, `@Relationship` and `@Transient`,
/// which expand to nothing: `@Model` reads them from the source.
enum StoredPropertyMarker {
    /// `@Attribute` and `@Relationship` describe how a property is saved, so they belong
    /// on a stored instance property (`@Relationship` on a `var`); `@Attribute` on a computed
    /// property, which SwiftData compiles, is a warning.
    static func checkSavedProperty(
        marker: String,
        node: AttributeSyntax,
        declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            MacroDiagnostic.markerNotOnProperty(marker: marker).diagnose(at: node, in: context)
            return
        }
        let name = variable.bindingNames.joined(separator: ", ")
        if variable.isComputed, marker == "Attribute" {
            // SwiftData compiles it (`@Attribute(.ephemeral) var summary: String { … }` in
            // public apps), and a computed property is never saved: a warning, not an error.
            MacroDiagnostic.attributeOnComputedProperty(name: name).diagnose(at: node, in: context)
        } else if variable.isComputed {
            MacroDiagnostic.markerOnComputedProperty(marker: marker, name: name).diagnose(at: node, in: context)
        } else if variable.isLet, marker == "Relationship" {
            MacroDiagnostic.relationshipOnLet(name: name).diagnose(at: variable.bindingSpecifier, in: context)
        } else if variable.isStatic {
            MacroDiagnostic.markerOnStaticProperty(marker: marker, name: name).diagnose(at: node, in: context)
        }
    }
}
