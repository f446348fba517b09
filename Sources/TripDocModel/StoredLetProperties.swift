@_spi(Reflection) import Swift
import Foundation
import TripDocCore

/// The persisted `let` properties of a model type, whose values live in the model object: a
/// `let` cannot have the accessors that route a `var` through the backing data.
///
/// The backing data reads a `let` from the object when it makes a snapshot. A fetched model gets
/// its saved values in `init(backingData:)`, except a `let` with an initial value
/// (`let id = UUID()`), which Swift initializes before any initializer's body and lets no
/// initializer assign again: its saved value is written into the object's field right after
/// `init(backingData:)`, found by name through the runtime's field reflection and written only
/// when the field's type is the value's.
struct StoredLetProperties: @unchecked Sendable {
    /// A `let`'s field in the object.
    struct Field {
        let keyPath: AnyKeyPath
        let offset: Int
        let type: Any.Type
    }

    /// The fields of the `let`s, where the runtime found them.
    let fields: [Field]
    /// The key paths of the persisted `let`s.
    let keyPaths: Set<AnyKeyPath>

    /// Whether `keyPath` leads to one of the persisted `let`s (quick when there are none).
    func contains(_ keyPath: AnyKeyPath) -> Bool {
        !keyPaths.isEmpty && keyPaths.contains(keyPath)
    }

    /// Whether a persisted property's key path leads to a `let`: `@Model` gives every persisted
    /// `var` a setter, so only a `let`'s key path is not writable.
    static func isLet(_ keyPath: AnyKeyPath) -> Bool {
        !(keyPath is any WritableThroughReference)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: StoredLetProperties] = [:]

    /// The persisted `let`s of `type`, worked out on first use.
    static func of(_ type: any PersistentModel.Type) -> StoredLetProperties {
        let key = ObjectIdentifier(type)
        if let known = lock.withLock({ cache[key] }) { return known }
        let found = StoredLetProperties(type)
        lock.withLock { cache[key] = found }
        return found
    }

    private init(_ type: any PersistentModel.Type) {
        let lets = type.schemaMetadata.filter { Self.isLet($0.keypath) }
        keyPaths = Set(lets.map(\.keypath))
        guard !lets.isEmpty else {
            fields = []
            return
        }
        var layout: [String: (offset: Int, type: Any.Type)] = [:]
        let options = _EachFieldOptions(rawValue: 1 << 0)  // `.classType`, a `static var` Swift 6 will not read
        _ = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            layout[String(cString: name)] = (offset, fieldType)
            return true
        }
        fields = lets.compactMap { metadata in
            layout[metadata.name].map { Field(keyPath: metadata.keypath, offset: $0.offset, type: $0.type) }
        }
    }

    /// Writes the values `values` holds for the `let`s into `model`'s fields.
    func restore(in model: AnyObject, from values: ModelValues) {
        guard !fields.isEmpty else { return }
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(model).toOpaque())
        for field in fields {
            guard let value = values[field.keyPath] else { continue }
            Self.assign(value, to: base + field.offset, ofType: field.type)
        }
    }

    private static func assign<Value>(_ value: Value, to address: UnsafeMutableRawPointer, ofType type: Any.Type) {
        guard type == Value.self else { return }
        address.assumingMemoryBound(to: Value.self).pointee = value
    }
}

/// The key paths a property can be set through: those of `var`s.
private protocol WritableThroughReference {}

extension ReferenceWritableKeyPath: WritableThroughReference {}
