import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_PersistedProperty`: added by `@Model` to each persisted property.
///
/// - accessor: an `init` accessor (so the property can still have an initial value and be
///   assigned in the class's initializers), a getter and a setter, all reading and writing
///   the model's backing data by key path.
/// - peer: a zero-size `private var _name: TripDoc.PersistedPropertyStorage` that the `init`
///   accessor initializes. Without it the compiler would insist that `init(backingData:)` assign
///   every persisted property; with it, `init(backingData:)` initializes `_name` instead. It is
///   not `Void`, which a stored property starts out with: storage that starts uninitialized
///   makes an initial value and a first assignment in an initializer go through the `init`
///   accessor, as a stored property's do, so `willSet`/`didSet` (which the setter runs: see
///   `PropertyObservers`) run for later changes only, as SwiftData's do.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let property = persistedProperty(declaration, node: node, in: context),
            let typeName = enclosingTypeName(in: context.lexicalContext)
        else {
            return []
        }
        let keyPath = "\\\(typeName).\(property.identifier)"
        return [
            """
            @storageRestrictions(initializes: \(raw: property.storageName), accesses: _$backingData)
            init(initialValue) {
                _$backingData.setValue(forKey: \(raw: keyPath), to: initialValue)
                \(raw: property.storageName) = TripDoc.PersistedPropertyStorage()
            }
            """,
            """
            get {
                _$backingData.getValue(forKey: \(raw: keyPath))
            }
            """,
            """
            set {
                \(raw: property.observers.setterBody(
                    change: "_$backingData.setValue(forKey: \(keyPath), to: newValue)",
                    read: "_$backingData.getValue(forKey: \(keyPath))", key: keyPath, property: property.name))
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // Diagnostics come from the accessor role; report them once.
        guard let variable = declaration.as(VariableDeclSyntax.self),
            let property = ModelPropertyRole(variable).persisted,
            enclosingTypeName(in: context.lexicalContext) != nil
        else {
            return []
        }
        return ["private var \(raw: property.storageName): TripDoc.PersistedPropertyStorage"]
    }

    /// The property this macro is attached to, when `@Model` would persist it; otherwise
    /// reports why it can't be and returns `nil`.
    private static func persistedProperty(
        _ declaration: some DeclSyntaxProtocol,
        node: AttributeSyntax,
        in context: some MacroExpansionContext
    ) -> PersistedProperty? {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            enclosingTypeName(in: context.lexicalContext) != nil
        else {
            MacroDiagnostic.persistedPropertyOutsideClass.diagnose(at: node, in: context)
            return nil
        }
        switch ModelPropertyRole(variable) {
        case .persisted(let property):
            return property
        case .invalid(let problems):
            for problem in problems {
                problem.message.diagnose(at: problem.node, in: context)
            }
            return nil
        case .untouched:
            MacroDiagnostic.persistedPropertyOutsideClass.diagnose(at: node, in: context)
            return nil
        }
    }
}
