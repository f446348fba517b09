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

extension ExprSyntax {
    /// Whether the expression gives the same value every time it is evaluated, as far as its
    /// syntax shows: literals (strings without interpolation, numbers, booleans, `nil`), arrays
    /// and dictionaries of them, empty collections (`[Sight]()`, `[String: Int]()`), and static
    /// members (`.active`, `Date.distantPast`) other than `now`.
    ///
    /// `@Model` gives only these to the schema as a property's default value: an initial value
    /// such as `Date()`, `Date.now` or `UUID()` is each new model's own, and a schema holding the
    /// one it had when the program started would differ from the document's on the next run.
    var isConstantDefault: Bool {
        switch self.as(ExprSyntaxEnum.self) {
        case .stringLiteralExpr(let string):
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        case .integerLiteralExpr, .floatLiteralExpr, .booleanLiteralExpr, .nilLiteralExpr:
            return true
        case .prefixOperatorExpr(let prefix):
            return prefix.operator.text == "-" && prefix.expression.isConstantDefault
        case .arrayExpr(let array):
            return array.elements.allSatisfy { $0.expression.isConstantDefault }
        case .dictionaryExpr(let dictionary):
            guard case .elements(let elements) = dictionary.content else { return true }
            return elements.allSatisfy { $0.key.isConstantDefault && $0.value.isConstantDefault }
        case .memberAccessExpr(let member):
            guard member.declName.baseName.text != "now" else { return false }
            return member.base.map { $0.isTypeName } ?? true
        case .functionCallExpr(let call):
            // `[Sight]()`, `[String: Int]()`: an empty collection.
            return call.arguments.isEmpty && call.trailingClosure == nil
                && (call.calledExpression.is(ArrayExprSyntax.self) || call.calledExpression.is(DictionaryExprSyntax.self))
        case .tupleExpr(let tuple):
            return tuple.elements.count == 1 && tuple.elements.first!.expression.isConstantDefault
        default:
            return false
        }
    }

    /// `Date`, `Trip.Status`, `Swift.Int`: a type name, as the base of a static member.
    private var isTypeName: Bool {
        if let reference = self.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text.first?.isUppercase ?? false
        }
        if let member = self.as(MemberAccessExprSyntax.self), let base = member.base {
            return base.isTypeName || (member.declName.baseName.text.first?.isUppercase ?? false)
        }
        return false
    }
}
