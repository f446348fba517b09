import SwiftSyntax
import SwiftSyntaxMacros

/// `@Relationship(...)`: how a property that refers to other models is saved, such as
/// `deleteRule: .cascade` and `inverse: \Other.trip`. Expands to nothing; `@Model`
/// passes its arguments verbatim to `TripDoc.Schema.RelationshipMetadata(...)`.
public struct RelationshipMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        StoredPropertyMarker.checkSavedProperty(marker: "Relationship", node: node, declaration: declaration, in: context)
        return []
    }
}
