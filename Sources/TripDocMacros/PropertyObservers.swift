import SwiftSyntax

/// The `willSet` and `didSet` observers of a persisted property, which SwiftData's `@Model`
/// keeps: the setter `@_PersistedProperty` makes runs `willSet` before the change and `didSet`
/// after it, with `newValue` and `oldValue` (or the names the observers give them) in scope, as
/// a stored property's observers run. (The compiler does not run observers written on a
/// property whose accessors a macro provides.) Each body runs in a closure called at once, so
/// that a `return` in it leaves the observer, not the setter.
struct PropertyObservers {
    /// The `willSet` body and the name it gives the new value.
    var willSetObserver: (parameter: String, body: CodeBlockItemListSyntax)?
    /// The `didSet` body and the name it gives the old value, if it names one.
    var didSetObserver: (parameter: String?, body: CodeBlockItemListSyntax)?

    init() {}

    /// The observers of `accessors`, or `nil` when they are not only observers, each once.
    init?(_ accessors: AccessorBlockSyntax) {
        guard case .accessors(let list) = accessors.accessors else { return nil }
        for accessor in list {
            guard let body = accessor.body?.statements else { return nil }
            let parameter = accessor.parameters?.name.text
            switch accessor.accessorSpecifier.tokenKind {
            case .keyword(.willSet) where willSetObserver == nil:
                willSetObserver = (parameter ?? "newValue", body)
            case .keyword(.didSet) where didSetObserver == nil:
                didSetObserver = (parameter, body)
            default:
                return nil
            }
        }
    }

    /// Whether `didSet` reads the old value, which is then read before the change.
    private var didSetReadsOldValue: Bool {
        guard let didSet = didSetObserver else { return false }
        let name = didSet.parameter ?? "oldValue"
        return didSet.body.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
    }

    /// `body`'s statements, one per line, without the indentation they had in the observer,
    /// with each bare use of the property `property` written `self.property`: the body runs in
    /// the property's setter, where the compiler warns about (and asks for an explicit `self`
    /// on) a use of the property itself, which a stored property's observer makes without a
    /// warning. A body that declares a name like the property's, or whose observer's parameter
    /// (`newValue`, `oldValue` or the name it gives) is spelled so, keeps its text.
    private static func statements(_ body: CodeBlockItemListSyntax, property: String, parameter: String) -> String {
        var body = body
        if property != parameter, !OwnPropertyUses.declare(property, in: body) {
            body = OwnPropertyUses(property: property).rewrite(body).cast(CodeBlockItemListSyntax.self)
        }
        return body.map(\.trimmedDescription).joined(separator: "\n")
    }

    /// The setter's statements: the observers around `change`, which sets the value from
    /// `newValue`; `read` reads the current value; `key` is the property's key path and
    /// `property` its name. An
    /// assignment inside the property's own observers makes the change only
    /// (`PersistedPropertyObservers`), as a stored property's does. The old value is read before
    /// `willSet` runs, as for a stored property.
    func setterBody(change: String, read: String, key: String, property: String) -> String {
        guard willSetObserver != nil || didSetObserver != nil else { return change }
        var lines = [
            "guard TripDoc.PersistedPropertyObservers.begin(self, \(key)) else {\n\(change)\nreturn\n}",
            "defer {\nTripDoc.PersistedPropertyObservers.end(self, \(key))\n}",
        ]
        if didSetReadsOldValue {
            lines.append("let \(didSetObserver?.parameter ?? "oldValue") = \(read)")
        }
        if let willSet = willSetObserver {
            let binding = willSet.parameter == "newValue" ? "" : "let \(willSet.parameter) = newValue\n"
            // `_ =`: a closure on a line of its own would be taken as a trailing closure of the
            // line before.
            let statements = Self.statements(willSet.body, property: property, parameter: willSet.parameter)
            lines.append("_ = { () -> Void in\n\(binding)\(statements)\n}()")
        }
        lines.append(change)
        if let didSet = didSetObserver {
            let statements = Self.statements(didSet.body, property: property, parameter: didSet.parameter ?? "oldValue")
            lines.append("_ = { () -> Void in\n\(statements)\n}()")
        }
        return lines.joined(separator: "\n")
    }
}

/// Writes each bare use of a property in an observer's body as `self.property` (see
/// ``PropertyObservers``): a reference that is no member of something else (`trip.name`), no
/// key path's component and no call's argument label.
private final class OwnPropertyUses: SyntaxRewriter {
    let property: String

    init(property: String) {
        self.property = property
        super.init(viewMode: .sourceAccurate)
    }

    /// Whether `body` declares a name spelled like `property` (a local, a parameter of a
    /// closure in it, a closure's capture, a bound pattern, a `catch`'s `error`), which a bare
    /// use might then mean.
    static func declare(_ property: String, in body: CodeBlockItemListSyntax) -> Bool {
        final class Declarations: SyntaxVisitor {
            let property: String
            var found = false
            init(property: String) {
                self.property = property
                super.init(viewMode: .sourceAccurate)
            }
            private func check(_ token: TokenSyntax?) {
                if let token, token.text.withoutBackticks == property { found = true }
            }
            override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
                check(node.identifier)
                return .visitChildren
            }
            override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
                check(node.name)
                return .visitChildren
            }
            override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
                check(node.secondName ?? node.firstName)
                return .visitChildren
            }
            override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
                check(node.secondName ?? node.firstName)
                return .visitChildren
            }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                check(node.name)
                return .visitChildren
            }
            override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind {
                check(node.name)
                return .visitChildren
            }
            override func visit(_ node: CatchClauseSyntax) -> SyntaxVisitorContinueKind {
                // A `catch` without a pattern binds `error`.
                if node.catchItems.isEmpty, property == "error" { found = true }
                return .visitChildren
            }
        }
        let declarations = Declarations(property: property)
        declarations.walk(body)
        return declarations.found
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
        guard node.baseName.tokenKind != .keyword(.self), node.baseName.text.withoutBackticks == property,
            node.argumentNames == nil
        else { return ExprSyntax(node) }
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            return ExprSyntax(node)
        }
        if node.parent?.is(KeyPathPropertyComponentSyntax.self) == true {
            return ExprSyntax(node)
        }
        let selfReference = DeclReferenceExprSyntax(baseName: .keyword(.self))
        let access = MemberAccessExprSyntax(
            base: ExprSyntax(selfReference), period: .periodToken(), declName: node.trimmed)
        return ExprSyntax(access.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia))
    }
}
