import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The expansion shared by `#Unique` and `#Index`: a static property listing arrays of
/// key paths into the model, each array copied verbatim from one argument.
///
///     #Unique<Trip>([\.name, \.startDate], [\.x])
///
/// becomes
///
///     public static var _$uniquenessConstraints: [[AnyKeyPath]] {
///         let keyPaths: [[PartialKeyPath<Trip>]] = [[\.name, \.startDate], [\.x]]
///         return keyPaths
///     }
///
/// The key paths are checked against the model type where they are written; the property's
/// type does not name the model, so that a class that is not `final` can declare it.
enum KeyPathListExpansion {
    static func expand(
        _ node: some FreestandingMacroExpansionSyntax,
        macroName: String,
        propertyName: String,
        in context: some MacroExpansionContext
    ) -> [DeclSyntax] {
        guard let modelType = modelType(of: node, macroName: macroName, in: context),
            let arrays = keyPathArrays(of: node, macroName: macroName, in: context)
        else {
            return []
        }
        guard enclosingTypeName(in: context.lexicalContext) != nil else {
            MacroDiagnostic.keyPathListOutsideType(macro: macroName).diagnose(at: node, in: context)
            return []
        }
        // An empty array (`#Unique<Movement>([\.id], [])`, which SwiftData accepts) constrains
        // nothing and is left out: a constraint on no property would make every two models equal.
        let list = "[" + arrays.filter { !$0.elements.isEmpty }.map(\.trimmedDescription).joined(separator: ", ") + "]"
        return [
            """
            public static var \(raw: propertyName): [[AnyKeyPath]] {
                let keyPaths: [[PartialKeyPath<\(raw: modelType)>]] = \(raw: list)
                return keyPaths
            }
            """
        ]
    }

    /// The single generic argument: `Trip` in `#Unique<Trip>(...)`.
    private static func modelType(
        of node: some FreestandingMacroExpansionSyntax,
        macroName: String,
        in context: some MacroExpansionContext
    ) -> String? {
        guard let arguments = node.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first
        else {
            MacroDiagnostic.missingModelType(macro: macroName).diagnose(at: node, in: context)
            return nil
        }
        return argument.argument.trimmedDescription
    }

    /// The arguments, each of which must be an array literal of key paths (possibly empty).
    private static func keyPathArrays(
        of node: some FreestandingMacroExpansionSyntax,
        macroName: String,
        in context: some MacroExpansionContext
    ) -> [ArrayExprSyntax]? {
        guard !node.arguments.isEmpty else {
            MacroDiagnostic.missingKeyPathArrays(macro: macroName).diagnose(at: node, in: context)
            return nil
        }
        var arrays: [ArrayExprSyntax] = []
        for argument in node.arguments {
            guard let array = argument.expression.as(ArrayExprSyntax.self), isKeyPathList(array) else {
                MacroDiagnostic.notAKeyPathArray(macro: macroName).diagnose(at: argument, in: context)
                continue
            }
            arrays.append(array)
        }
        return arrays.count == node.arguments.count ? arrays : nil
    }

    private static func isKeyPathList(_ array: ArrayExprSyntax) -> Bool {
        array.elements.allSatisfy { $0.expression.is(KeyPathExprSyntax.self) }
    }
}
