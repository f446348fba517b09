import SwiftSyntax
import SwiftSyntaxMacros

/// `@Transient`: a stored property `@Model` does not save. Expands to nothing; `@Model`
/// leaves the property as it is (and requires it to have an initial value). On a computed
/// property, which is never saved anyway, it changes nothing and is accepted, as SwiftData
/// accepts it (apps write `@Transient var isEmpty: Bool { items.isEmpty }`).
public struct TransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(VariableDeclSyntax.self) else {
            MacroDiagnostic.transientNotOnProperty.diagnose(at: node, in: context)
            return []
        }
        return []
    }
}
