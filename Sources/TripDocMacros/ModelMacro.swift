import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// - member: adds the backing data (`_$backingData`, `persistentBackingData`), the
///   `schemaMetadata` listing every persisted property, and `init(backingData:)`.
///   Reports every property that can't be persisted as written, and a class that inherits
///   `PersistentModel` from a `@Model` superclass (model inheritance is not supported).
/// - memberAttribute: puts `@_PersistedProperty` on every persisted `var`, which routes its
///   storage through the backing data (a `let` keeps its value in the object).
/// - extension: adds the `TripDoc.PersistentModel` conformance when the class lacks it.
///
/// Nothing generated names `Self` or depends on the class being `final`: `@Model` works on
/// `final`, non-final, `open` and `public` classes alike. The generated members are `public`,
/// which the conformance needs for a `public` class and which is harmless on an internal one.
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
        if protocols.isEmpty, classDecl.inheritanceClause != nil, !declaresPersistentModel(classDecl) {
            // The compiler names the protocols the class does not conform to yet; an empty list
            // for a class with a superclass that does not declare the conformance itself means
            // the superclass has it. (A class without an inheritance clause may have its
            // conformance written in an extension.)
            MacroDiagnostic.modelSubclass(name: classDecl.name.text, superclass: superclassName(of: classDecl))
                .diagnose(at: node, in: context)
            // Something for the accessors `@_PersistedProperty` has put on its properties to
            // compile against, so that the error above is the only one.
            return ["private var _$backingData = TripDoc._RefusedModelBackingData()"]
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

    /// The first type of the inheritance clause: the superclass, when the class has one.
    private static func superclassName(of classDecl: ClassDeclSyntax) -> String {
        classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription ?? "its superclass"
    }

    private static func propertyRoles(of classDecl: ClassDeclSyntax) -> [ModelPropertyRole] {
        classDecl.memberBlock.members.compactMap { member in
            member.decl.as(VariableDeclSyntax.self).map(ModelPropertyRole.init)
        }
    }

    private static func report(_ roles: [ModelPropertyRole], in context: some MacroExpansionContext) {
        for role in roles {
            switch role {
            case .invalid(let problems):
                for problem in problems {
                    problem.message.diagnose(at: problem.node, in: context)
                }
            case .persisted(let property):
                // A fetched model's `let` gets its saved value written into its field after
                // `init(backingData:)`; an optimized build may fold reads of a `let` whose
                // initial value is a literal into the literal.
                if property.isLet, let initialValue = property.defaultValue, initialValue.isConstantDefault {
                    MacroDiagnostic.letWithConstantInitialValue(name: property.name).diagnose(at: initialValue, in: context)
                }
            case .untouched:
                continue
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
        // Only a constant initial value is the schema's default (see `isConstantDefault`).
        let defaultValue = property.defaultValue.flatMap { $0.isConstantDefault ? $0.trimmedDescription : nil } ?? "nil"
        let metadata = property.metadata ?? "nil"
        return "TripDoc.Schema.PropertyMetadata(name: \"\(property.name)\", keypath: \\\(typeName).\(property.identifier), "
            + "defaultValue: \(defaultValue), metadata: \(metadata))"
    }

    /// Marks each persisted `var` initialized (through the storage that `@_PersistedProperty`
    /// adds), gives each `let` without an initial value its value from the backing data, and
    /// adopts the given backing data. A `let` with an initial value gets it and cannot be
    /// assigned again here; the context that fetched the model gives it the saved value.
    private static func backingDataInit(_ typeName: String, _ properties: [PersistedProperty]) -> DeclSyntax {
        let storage = properties.map { property in
            if !property.isLet {
                return "\(property.storageName) = TripDoc.PersistedPropertyStorage()\n"
            }
            if property.defaultValue == nil {
                return "self.\(property.identifier) = backingData.getValue(forKey: \\\(typeName).\(property.identifier))\n"
            }
            return ""
        }.joined()
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
            let property = ModelPropertyRole(variable).persisted, !property.isLet,
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
    static func declaresPersistentModel(_ declaration: some DeclGroupSyntax) -> Bool {
        declaration.inheritanceClause?.inheritedTypes.contains {
            let name = $0.type.trimmedDescription
            return name == "PersistentModel" || name == "TripDoc.PersistentModel"
        } ?? false
    }
}
