import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: makes an actor a model actor.
///
/// - member: adds `modelExecutor` and `modelContainer` (nonisolated constants) and
///   `init(modelContainer:)`, which makes the actor's context over the container and a
///   `DefaultSerialModelExecutor` that owns it. They have the actor's access level when it is
///   `public` or `package`.
/// - extension: adds the `TripDoc.ModelActor` conformance, which gives `modelContext`, the
///   actor's executor and `self[id, as: Trip.self]`.
public struct ModelActorMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let actor = declaration.as(ActorDeclSyntax.self) else {
            MacroDiagnostic.modelActorNotOnActor.diagnose(at: node, in: context)
            return []
        }
        let access = accessModifier(of: actor)
        return [
            "\(raw: access)nonisolated let modelExecutor: any TripDoc.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: TripDoc.ModelContainer",
            """
            \(raw: access)init(modelContainer: TripDoc.ModelContainer) {
                let modelContext = TripDoc.ModelContext(modelContainer)
                self.modelExecutor = TripDoc.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): TripDoc.ModelActor {}")]
    }

    /// `public ` or `package ` for an actor declared so; otherwise nothing (the members are as
    /// visible as the actor).
    private static func accessModifier(of actor: ActorDeclSyntax) -> String {
        for modifier in actor.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}
