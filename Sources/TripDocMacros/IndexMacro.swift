import SwiftSyntax
import SwiftSyntaxMacros

/// `#Index<Trip>([\.name], [\.startDate, \.endDate], ...)`: inside a `@Model` class,
/// declares the properties (alone or combined) the store should index. Expands to
/// `public static var _$indices: [[PartialKeyPath<Trip>]]`.
public struct IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        KeyPathListExpansion.expand(node, macroName: "Index", propertyName: "_$indices", in: context)
    }
}
