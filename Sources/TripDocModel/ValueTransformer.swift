import Foundation
import TripDocCore

/// The name a ``ValueTransformer`` is registered under (Foundation's `NSValueTransformerName`).
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a name, as `NSValueTransformerName("…")` does.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Converts a value to another and back (Foundation's `ValueTransformer`, which Foundation on
/// Linux does not have): `@Attribute(.transformable(by: ColorTransformer.self)) var color: Color`
/// stores what ``transformedValue(_:)`` makes of the property's value, which must be `Data`,
/// and reads it back through ``reverseTransformedValue(_:)``.
///
/// Subclass it and override ``transformedValue(_:)`` and ``reverseTransformedValue(_:)``, as on
/// Apple platforms. A transformer named by a string (`.transformable(by: "ColorTransformer")`)
/// must be registered with ``setValueTransformer(_:forName:)`` before the container is made.
open class ValueTransformer: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [NSValueTransformerName: ValueTransformer] = [:]

    /// Creates a transformer.
    public required init() {}

    /// The class of the values ``transformedValue(_:)`` makes (`NSData` for a store's transformers).
    open class func transformedValueClass() -> AnyClass { NSData.self }
    /// Whether ``reverseTransformedValue(_:)`` is available (tripdoc needs it to read values back).
    open class func allowsReverseTransformation() -> Bool { true }
    /// The transformed value (for a stored attribute, the `Data` to store).
    open func transformedValue(_ value: Any?) -> Any? { value }
    /// The original value of a transformed one.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }

    /// Registers `transformer` under `name`, replacing any other (`nil` removes it).
    public class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        lock.withLock { registered[name] = transformer }
    }

    /// The transformer registered under `name`, if any.
    public class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        lock.withLock { registered[name] }
    }

    /// The names transformers are registered under.
    public class func valueTransformerNames() -> [NSValueTransformerName] {
        lock.withLock { Array(registered.keys) }
    }

    /// The transformer for `.transformable(by: type)`: the one registered under the type's name,
    /// else a new one, registered.
    static func transformer(of type: ValueTransformer.Type) -> ValueTransformer {
        let name = NSValueTransformerName(String(describing: type))
        return lock.withLock {
            if let known = registered[name], Swift.type(of: known) == type { return known }
            let made = type.init()
            registered[name] = made
            return made
        }
    }
}

extension Schema.Attribute.Option {
    /// Values go through a transformer of this type (registered under the type's name) and are
    /// stored as the `Data` it makes (SwiftData's `.transformable(by:)`).
    public static func transformable(by transformerType: ValueTransformer.Type) -> Self {
        _ = ValueTransformer.transformer(of: transformerType)
        return .transformable(by: String(describing: transformerType))
    }

    /// The name of the transformer of a `transformable:NAME` option, or `nil`.
    var transformerName: String? {
        rawValue.hasPrefix("transformable:") ? String(rawValue.dropFirst("transformable:".count)) : nil
    }
}
