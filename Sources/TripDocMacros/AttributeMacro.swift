import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute(...)`: options for how a persisted property is saved, such as
/// `.preserveValueOnDeletion` or `originalName:`. Expands to nothing; `@Model` passes
/// its arguments verbatim to `TripDoc.Schema.AttributeMetadata(...)`.
public struct AttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        StoredPropertyMarker.checkSavedProperty(marker: "Attribute", node: node, declaration: declaration, in: context)
        return []
    }
}
