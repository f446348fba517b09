import SwiftSyntax

extension AttributeSyntax {
    /// The attribute's name without any module qualifier: `Attribute` for both
    /// `@Attribute` and `@TripDoc.Attribute`.
    var simpleName: String {
        if let member = attributeName.as(MemberTypeSyntax.self) {
            return member.name.text
        }
        return attributeName.trimmedDescription
    }

    /// The argument list as written between the parentheses, or `""` when there is none.
    var argumentText: String {
        guard case .argumentList(let arguments) = arguments else { return "" }
        return arguments.trimmedDescription
    }
}

extension AttributeListSyntax {
    /// The first attribute spelled `@name` or `@Module.name`.
    func first(named name: String) -> AttributeSyntax? {
        for element in self {
            if case .attribute(let attribute) = element, attribute.simpleName == name {
                return attribute
            }
        }
        return nil
    }
}

extension VariableDeclSyntax {
    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    var lazyModifier: DeclModifierSyntax? {
        modifiers.first { $0.name.tokenKind == .keyword(.lazy) }
    }

    var isLet: Bool {
        bindingSpecifier.tokenKind == .keyword(.let)
    }

    /// Whether any binding has a getter, setter or other accessor that makes it computed.
    /// `willSet`/`didSet` observers alone keep a property stored.
    var isComputed: Bool {
        bindings.contains { $0.accessorBlock?.isComputed ?? false }
    }

    func attribute(named name: String) -> AttributeSyntax? {
        attributes.first(named: name)
    }

    /// The names of the bindings, as they would be read by a user: `a`, `b` for `var a, b: Int`.
    var bindingNames: [String] {
        bindings.map { $0.pattern.trimmedDescription.withoutBackticks }
    }
}

extension AccessorBlockSyntax {
    /// `true` for `{ ... }` getters and accessor lists with anything besides
    /// `willSet`/`didSet`.
    var isComputed: Bool {
        switch accessors {
        case .getter:
            return true
        case .accessors(let list):
            return list.contains { !$0.isObserver }
        }
    }
}

extension AccessorDeclSyntax {
    var isObserver: Bool {
        accessorSpecifier.tokenKind == .keyword(.willSet) || accessorSpecifier.tokenKind == .keyword(.didSet)
    }
}

extension TypeSyntax {
    /// `T?`, `T!` or `Optional<T>`: a `var` of this type starts out `nil` without an initializer.
    var isOptional: Bool {
        if self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return true
        }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        return false
    }
}

extension String {
    /// `default` for `` `default` ``: the name a property is known by at run time.
    var withoutBackticks: String {
        filter { $0 != "`" }
    }
}

/// The innermost type declaration around a macro expansion, read from
/// `MacroExpansionContext.lexicalContext` (innermost first).
func enclosingTypeName(in lexicalContext: [Syntax]) -> String? {
    for node in lexicalContext {
        switch node.as(SyntaxEnum.self) {
        case .classDecl(let decl): return decl.name.trimmedDescription
        case .structDecl(let decl): return decl.name.trimmedDescription
        case .enumDecl(let decl): return decl.name.trimmedDescription
        case .actorDecl(let decl): return decl.name.trimmedDescription
        case .extensionDecl(let decl): return decl.extendedType.trimmedDescription
        default: continue
        }
    }
    return nil
}
