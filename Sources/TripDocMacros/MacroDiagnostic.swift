import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Every error (and the two warnings) the TripDoc macros report. Each message says what is
/// wrong and what to write instead.
enum MacroDiagnostic: DiagnosticMessage {
    // @Model
    case modelNotOnClass
    case modelSubclass(name: String, superclass: String)
    case letWithConstantInitialValue(name: String)
    case multipleBindings(names: [String])
    case destructuringPattern(pattern: String)
    case lazyProperty(name: String)
    case transientWithoutInitialValue(name: String)

    // @_PersistedProperty
    case persistedPropertyOutsideClass

    // @ModelActor
    case modelActorNotOnActor

    // @Attribute, @Relationship, @Transient
    case markerNotOnProperty(marker: String)
    case markerOnComputedProperty(marker: String, name: String)
    case attributeOnComputedProperty(name: String)
    case relationshipOnLet(name: String)
    case markerOnStaticProperty(marker: String, name: String)
    case transientNotOnProperty

    // #Unique, #Index
    case missingModelType(macro: String)
    case missingKeyPathArrays(macro: String)
    case notAKeyPathArray(macro: String)
    case keyPathListOutsideType(macro: String)

    var message: String {
        switch self {
        case .modelNotOnClass:
            "@Model can only be applied to a class"
        case .modelSubclass(let name, let superclass):
            "@Model on '\(name)', a subclass of the model '\(superclass)', is not supported: tripdoc has no model "
                + "inheritance; remove @Model to store '\(name)' as a '\(superclass)', or make '\(name)' a model of its "
                + "own that does not inherit from '\(superclass)'"
        case .letWithConstantInitialValue(let name):
            "'\(name)' is a 'let' whose initial value is a constant: an optimized build may read that constant instead "
                + "of the value a fetched model was saved with; declare it 'var'"
        case .multipleBindings(let names):
            "declare \(Self.list(names)) separately"
        case .destructuringPattern(let pattern):
            "declare each property of '\(pattern)' separately: @Model persists one named property per declaration"
        case .lazyProperty(let name):
            "'\(name)' is 'lazy', which @Model does not support on persisted properties: remove 'lazy', or mark it @Transient"
        case .transientWithoutInitialValue(let name):
            "@Transient property '\(name)' needs an initial value: it is not saved, so a fetched model must get it from somewhere"
        case .persistedPropertyOutsideClass:
            "@_PersistedProperty is added by @Model; use it only on a property of a @Model class"
        case .modelActorNotOnActor:
            "@ModelActor can only be applied to an actor: write '@ModelActor actor Name { … }'"
        case .markerNotOnProperty(let marker):
            "@\(marker) can only be applied to a stored property of a @Model class"
        case .markerOnComputedProperty(let marker, let name):
            "@\(marker) can't be applied to computed property '\(name)': only stored properties are saved; make it a stored 'var' or remove @\(marker)"
        case .attributeOnComputedProperty(let name):
            "@Attribute on computed property '\(name)' has no effect: only stored properties are saved; make it a stored "
                + "'var' to save it, or remove @Attribute"
        case .relationshipOnLet(let name):
            "@Relationship can't be applied to '\(name)' because it is a 'let': the context sets a relationship when its "
                + "inverse changes; declare it 'var'"
        case .markerOnStaticProperty(let marker, let name):
            "@\(marker) can't be applied to static property '\(name)': only instance properties are saved"
        case .transientNotOnProperty:
            "@Transient can only be applied to a stored property of a @Model class"
        case .missingModelType(let macro):
            "write the model type: #\(macro)<Trip>([\\.name])"
        case .missingKeyPathArrays(let macro):
            "#\(macro) needs at least one array of key paths, like #\(macro)<Trip>([\\.name, \\.startDate])"
        case .notAKeyPathArray(let macro):
            "each argument of #\(macro) must be an array literal of key paths, like [\\.name, \\.startDate]"
        case .keyPathListOutsideType(let macro):
            "#\(macro) must be written inside the @Model class it describes"
        }
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .letWithConstantInitialValue, .attributeOnComputedProperty: .warning
        default: .error
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "TripDocMacros", id: caseName)
    }

    /// Reports this error at `node`.
    func diagnose(at node: some SyntaxProtocol, in context: some MacroExpansionContext) {
        context.diagnose(Diagnostic(node: node, message: self))
    }

    /// The case's name without its associated values, used as a stable ID.
    private var caseName: String {
        String(describing: self).prefix { $0 != "(" }.description
    }

    /// `'a' and 'b'`, `'a', 'b' and 'c'`.
    private static func list(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " and " + last
    }
}
