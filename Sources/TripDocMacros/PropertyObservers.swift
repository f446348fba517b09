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

    /// `body`'s statements, one per line, without the indentation they had in the observer.
    private static func statements(_ body: CodeBlockItemListSyntax) -> String {
        body.map(\.trimmedDescription).joined(separator: "\n")
    }

    /// The setter's statements: the observers around `change`, which sets the value from
    /// `newValue`; `read` reads the current value; `key` is the property's key path. An
    /// assignment inside the property's own observers makes the change only
    /// (`PersistedPropertyObservers`), as a stored property's does. The old value is read before
    /// `willSet` runs, as for a stored property.
    func setterBody(change: String, read: String, key: String) -> String {
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
            lines.append("_ = { () -> Void in\n\(binding)\(Self.statements(willSet.body))\n}()")
        }
        lines.append(change)
        if let didSet = didSetObserver {
            lines.append("_ = { () -> Void in\n\(Self.statements(didSet.body))\n}()")
        }
        return lines.joined(separator: "\n")
    }
}
