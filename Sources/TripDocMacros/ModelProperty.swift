import SwiftSyntax

/// A property that `@Model` saves: a single stored instance `var` or `let` that is not
/// `@Transient`. Its type may be written out or left to the compiler to infer from the
/// initial value (`var name = ""`, `var sights = [Sight]()`): nothing `@Model` writes names
/// the type.
struct PersistedProperty {
    /// The name as written, backticks included, for key paths: `` \Trip.`default` ``.
    let identifier: String
    /// The name the store knows the property by, without backticks.
    let name: String
    let defaultValue: ExprSyntax?
    /// `TripDoc.Schema.AttributeMetadata(...)` or `TripDoc.Schema.RelationshipMetadata(...)`.
    let metadata: String?
    /// A `let`: its value stays in the object (a `let` cannot have the accessors that route a
    /// `var` through the backing data); the backing data reads it from there when the model is
    /// saved, and a fetched model gets it in `init(backingData:)` (or, for a `let` with an
    /// initial value, from its context right after).
    let isLet: Bool
    /// The property's `willSet` and `didSet` observers as written, if any, which the setter
    /// `@_PersistedProperty` makes runs around each change.
    var observers = PropertyObservers()

    /// The zero-size stored property that `@_PersistedProperty` adds next to this one,
    /// so that `init(backingData:)` can tell the compiler the property is initialized.
    var storageName: String { "_" + name }
}

/// What `@Model` makes of one `var` or `let` declaration in its class.
enum ModelPropertyRole {
    /// Saved through the backing data.
    case persisted(PersistedProperty)
    /// Left as it is: static, computed, `@Transient`, or reported by its own marker macro.
    case untouched
    /// Cannot be saved as written; the problems say why.
    case invalid([Problem])

    /// An error to report, at the node it is about.
    struct Problem {
        let node: Syntax
        let message: MacroDiagnostic
    }

    init(_ variable: VariableDeclSyntax) {
        if variable.isStatic || variable.isComputed {
            self = .untouched
        } else if variable.attribute(named: "Transient") != nil {
            self = Self.transient(variable)
        } else {
            self = Self.stored(variable)
        }
    }

    /// A single problem, reported at `node`.
    private static func invalid(at node: some SyntaxProtocol, _ message: MacroDiagnostic) -> Self {
        .invalid([Problem(node: Syntax(node), message: message)])
    }

    var persisted: PersistedProperty? {
        if case .persisted(let property) = self { return property }
        return nil
    }

    /// A `@Transient` stored property must start out with a value of its own.
    private static func transient(_ variable: VariableDeclSyntax) -> Self {
        // `compactMap`, not `filter`: `SyntaxCollection.filter` returns detached nodes,
        // which would lose the location the error is reported at.
        let problems = variable.bindings.compactMap { binding -> Problem? in
            guard !hasInitialValue(binding, in: variable) else { return nil }
            let name = binding.pattern.trimmedDescription.withoutBackticks
            return Problem(node: Syntax(binding.pattern), message: .transientWithoutInitialValue(name: name))
        }
        return problems.isEmpty ? .untouched : .invalid(problems)
    }

    private static func hasInitialValue(_ binding: PatternBindingSyntax, in variable: VariableDeclSyntax) -> Bool {
        if binding.initializer != nil { return true }
        // `var x: T?` starts out nil; `let x: T?` does not.
        return !variable.isLet && (binding.typeAnnotation?.type.isOptional ?? false)
    }

    /// A stored `var` or `let`. `@Relationship` reports its own error on a `let` (the context
    /// must be able to set a relationship when its inverse changes), so it is not reported twice.
    private static func stored(_ variable: VariableDeclSyntax) -> Self {
        if variable.isLet, variable.attribute(named: "Relationship") != nil {
            return .untouched
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first else {
            return .invalid(at: variable.bindings, .multipleBindings(names: variable.bindingNames))
        }
        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
            return .invalid(at: binding.pattern, .destructuringPattern(pattern: binding.pattern.trimmedDescription))
        }
        let name = pattern.identifier.text.withoutBackticks
        if let lazy = variable.lazyModifier {
            return .invalid(at: lazy, .lazyProperty(name: name))
        }
        // `willSet`/`didSet` (a computed property never gets here): run by the setter.
        var observers = PropertyObservers()
        if let accessors = binding.accessorBlock {
            guard let found = PropertyObservers(accessors) else { return .untouched }
            observers = found
        }
        return .persisted(
            PersistedProperty(
                identifier: pattern.identifier.text,
                name: name,
                defaultValue: binding.initializer?.value,
                metadata: metadata(of: variable),
                isLet: variable.isLet,
                observers: observers))
    }

    /// The schema metadata an `@Attribute(...)` or `@Relationship(...)` marker asks for,
    /// with the marker's arguments passed on verbatim.
    private static func metadata(of variable: VariableDeclSyntax) -> String? {
        if let attribute = variable.attribute(named: "Attribute") {
            return "TripDoc.Schema.AttributeMetadata(\(attribute.argumentText))"
        }
        if let relationship = variable.attribute(named: "Relationship") {
            return "TripDoc.Schema.RelationshipMetadata(\(relationship.argumentText))"
        }
        return nil
    }
}
