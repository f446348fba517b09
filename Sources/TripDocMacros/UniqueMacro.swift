import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique<Trip>([\.name, \.startDate], ...)`: inside a `@Model` class, declares
/// combinations of properties whose values no two models may share. Expands to
/// `public static var _$uniquenessConstraints: [[PartialKeyPath<Trip>]]`.
public struct UniqueMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        KeyPathListExpansion.expand(node, macroName: "Unique", propertyName: "_$uniquenessConstraints", in: context)
    }
}
