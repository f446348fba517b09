import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// - member: adds the backing data (`_$backingData`, `persistentBackingData`), the
///   `schemaMetadata` listing every persisted property, and `init(backingData:)`.
///   Reports every property that can't be persisted as written.
/// - memberAttribute: puts `@_PersistedProperty` on every persisted property, which
///   routes its storage through the backing data.
/// - extension: adds the `TripDoc.PersistentModel` conformance when the class lacks it.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    // MARK: member

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            MacroDiagnostic.modelNotOnClass.diagnose(at: node, in: context)
            return []
        }
        let roles = propertyRoles(of: classDecl)
        report(roles, in: context)
        let properties = roles.compactMap(\.persisted)
        let typeName = classDecl.name.trimmedDescription
        return [
            backingDataStorage(typeName),
            backingDataAccessor(typeName),
            schemaMetadata(typeName, properties),
            backingDataInit(typeName, properties),
        ]
    }

    private static func propertyRoles(of classDecl: ClassDeclSyntax) -> [ModelPropertyRole] {
        classDecl.memberBlock.members.compactMap { member in
            member.decl.as(VariableDeclSyntax.self).map(ModelPropertyRole.init)
        }
    }

    private static func report(_ roles: [ModelPropertyRole], in context: some MacroExpansionContext) {
        for case .invalid(let problems) in roles {
            for problem in problems {
                problem.message.diagnose(at: problem.node, in: context)
            }
        }
    }

    private static func backingDataStorage(_ typeName: String) -> DeclSyntax {
        """
        @Transient
        private var _$backingData: any TripDoc.BackingData<\(raw: typeName)> = \(raw: typeName).createBackingData()
        """
    }

    private static func backingDataAccessor(_ typeName: String) -> DeclSyntax {
        """
        public var persistentBackingData: any TripDoc.BackingData<\(raw: typeName)> {
            get {
                _$backingData
            }
            set {
                _$backingData = newValue
            }
        }
        """
    }

    private static func schemaMetadata(_ typeName: String, _ properties: [PersistedProperty]) -> DeclSyntax {
        let entries = properties.map { propertyMetadata(typeName, $0) }
        let list = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n]"
        return """
            public static var schemaMetadata: [TripDoc.Schema.PropertyMetadata] {
            \(raw: list)
            }
            """
    }

    private static func propertyMetadata(_ typeName: String, _ property: PersistedProperty) -> String {
        let defaultValue = property.defaultValue?.trimmedDescription ?? "nil"
        let metadata = property.metadata ?? "nil"
        return "TripDoc.Schema.PropertyMetadata(name: \"\(property.name)\", keypath: \\\(typeName).\(property.identifier), "
            + "defaultValue: \(defaultValue), metadata: \(metadata))"
    }

    /// Marks each persisted property initialized (through the storage that
    /// `@_PersistedProperty` adds) and adopts the given backing data.
    private static func backingDataInit(_ typeName: String, _ properties: [PersistedProperty]) -> DeclSyntax {
        let storage = properties.map { "\($0.storageName) = ()\n" }.joined()
        return """
            public required init(backingData: any TripDoc.BackingData<\(raw: typeName)>) {
            \(raw: storage)_$backingData = backingData
            }
            """
    }

    // MARK: memberAttribute

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
            let variable = member.as(VariableDeclSyntax.self),
            ModelPropertyRole(variable).persisted != nil,
            variable.attribute(named: "_PersistedProperty") == nil
        else {
            return []
        }
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("_PersistedProperty")))]
    }

    // MARK: extension

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self), !protocols.isEmpty, !declaresPersistentModel(declaration) else {
            return []
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): TripDoc.PersistentModel {}")]
    }

    /// Whether the class's own inheritance clause already names `PersistentModel`.
    private static func declaresPersistentModel(_ declaration: some DeclGroupSyntax) -> Bool {
        declaration.inheritanceClause?.inheritedTypes.contains {
            let name = $0.type.trimmedDescription
            return name == "PersistentModel" || name == "TripDoc.PersistentModel"
        } ?? false
    }
}
