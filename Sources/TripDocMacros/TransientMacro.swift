import SwiftSyntax
import SwiftSyntaxMacros

/// `@Transient`: a stored property `@Model` does not save. Expands to nothing; `@Model`
/// leaves the property as it is (and requires it to have an initial value).
public struct TransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            MacroDiagnostic.transientNotOnProperty.diagnose(at: node, in: context)
            return []
        }
        if variable.isComputed {
            let name = variable.bindingNames.joined(separator: ", ")
            MacroDiagnostic.transientOnComputedProperty(name: name).diagnose(at: node, in: context)
        }
        return []
    }
}
