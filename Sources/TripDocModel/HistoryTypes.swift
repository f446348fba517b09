import Foundation
import TripDocCore

/// One save, as history records it (SwiftData's `HistoryTransaction`).
public protocol HistoryTransaction: Hashable, Identifiable {
    /// The token type of the store.
    associatedtype TokenType: HistoryToken
    /// The transaction's number in its store.
    var transactionIdentifier: Int64 { get }
    /// Where the transaction is in the store's history.
    var token: TokenType { get }
    /// The author of the saving context.
    var author: String? { get }
    /// When it was saved.
    var timestamp: Date { get }
    /// The store it was saved in.
    var storeIdentifier: String { get }
    /// What changed, in order.
    var changes: [HistoryChange] { get }
}

/// A position in a store's history (SwiftData's `HistoryToken`).
public protocol HistoryToken: Hashable, Comparable, Codable, Sendable {}

extension DefaultHistoryToken: HistoryToken {}

/// A transaction of tripdoc's stores (SwiftData's `DefaultHistoryTransaction`).
public struct DefaultHistoryTransaction: HistoryTransaction {
    public var transactionIdentifier: Int64
    public var token: DefaultHistoryToken
    public var author: String?
    public var timestamp: Date
    public var storeIdentifier: String
    /// The saving process's bundle identifier (the process name on Linux).
    public var bundleIdentifier: String?
    /// The saving process's identifier.
    public var processIdentifier: String?
    public var changes: [HistoryChange]

    public var id: DefaultHistoryToken { token }

    /// A transaction made by a store of your own (tripdoc's stores make theirs from the history
    /// they record; a store on the engine can use `DocumentHistory.transactions(_:storeIdentifier:schema:)`).
    public init(
        transactionIdentifier: Int64, token: DefaultHistoryToken, author: String?, timestamp: Date,
        storeIdentifier: String, bundleIdentifier: String? = nil, processIdentifier: String? = nil,
        changes: [HistoryChange]
    ) {
        self.transactionIdentifier = transactionIdentifier
        self.token = token
        self.author = author
        self.timestamp = timestamp
        self.storeIdentifier = storeIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.token == rhs.token }
    public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}

/// One change of a transaction (SwiftData's `HistoryChange`): match the payload's type to learn
/// the model type, as in `case .insert(let insert as DefaultHistoryInsert<Trip>)`.
public enum HistoryChange: Hashable {
    case insert(any HistoryInsert)
    case update(any HistoryUpdate)
    case delete(any HistoryDelete)

    /// The model the change is about.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let change): change.changedPersistentIdentifier
        case .update(let change): change.changedPersistentIdentifier
        case .delete(let change): change.changedPersistentIdentifier
        }
    }

    public static func == (lhs: HistoryChange, rhs: HistoryChange) -> Bool {
        switch (lhs, rhs) {
        case (.insert(let a), .insert(let b)): a.changeIdentifier == b.changeIdentifier
        case (.update(let a), .update(let b)): a.changeIdentifier == b.changeIdentifier
        case (.delete(let a), .delete(let b)): a.changeIdentifier == b.changeIdentifier
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .insert(let change): hasher.combine(change.changeIdentifier)
        case .update(let change): hasher.combine(change.changeIdentifier)
        case .delete(let change): hasher.combine(change.changeIdentifier)
        }
    }
}

/// What every change has.
public protocol HistoryChangeProtocol {
    /// The model the change is about.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The change's place: transaction and position in it.
    var changeIdentifier: HistoryChangeIdentifier { get }
}

/// A change's place in its store's history.
public struct HistoryChangeIdentifier: Hashable, Sendable {
    /// The transaction's token.
    public var token: DefaultHistoryToken
    /// The change's position in the transaction.
    public var index: Int

    /// The change at `index` of the transaction at `token`.
    public init(token: DefaultHistoryToken, index: Int) {
        self.token = token
        self.index = index
    }
}

/// An insert (SwiftData's `HistoryInsert`).
public protocol HistoryInsert<Model>: HistoryChangeProtocol {
    associatedtype Model: PersistentModel
}

/// An update (SwiftData's `HistoryUpdate`).
public protocol HistoryUpdate<Model>: HistoryChangeProtocol {
    associatedtype Model: PersistentModel
    /// The attributes the save changed.
    var updatedAttributes: [PartialKeyPath<Model>] { get }
}

/// A deletion (SwiftData's `HistoryDelete`).
public protocol HistoryDelete<Model>: HistoryChangeProtocol {
    associatedtype Model: PersistentModel
    /// The values of the deleted model's `.preserveValueOnDeletion` attributes.
    var tombstone: HistoryTombstone<Model> { get }
}

/// An insert of a `Model` (SwiftData's `DefaultHistoryInsert`).
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    public var changedPersistentIdentifier: PersistentIdentifier
    public var changeIdentifier: HistoryChangeIdentifier

    /// The insert of the model `changedPersistentIdentifier`, the change at `changeIdentifier`.
    public init(changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: HistoryChangeIdentifier) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
    }
}

/// An update of a `Model` (SwiftData's `DefaultHistoryUpdate`).
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate {
    public var changedPersistentIdentifier: PersistentIdentifier
    public var changeIdentifier: HistoryChangeIdentifier
    public var updatedAttributes: [PartialKeyPath<Model>]

    /// The update of the model `changedPersistentIdentifier` that changed `updatedAttributes`.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: HistoryChangeIdentifier,
        updatedAttributes: [PartialKeyPath<Model>]
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.updatedAttributes = updatedAttributes
    }
}

/// A deletion of a `Model` (SwiftData's `DefaultHistoryDelete`).
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    public var changedPersistentIdentifier: PersistentIdentifier
    public var changeIdentifier: HistoryChangeIdentifier
    public var tombstone: HistoryTombstone<Model>

    /// The deletion of the model `changedPersistentIdentifier`, with what it preserved.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: HistoryChangeIdentifier,
        tombstone: HistoryTombstone<Model>
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.tombstone = tombstone
    }
}

/// What remains of a deleted model: its `.preserveValueOnDeletion` attributes, read by key path
/// (SwiftData's `HistoryTombstone`): `tombstone[\.name]`.
public struct HistoryTombstone<Model: PersistentModel>: Sequence {
    let values: [String: SnapshotValue]

    /// A tombstone of the preserved attributes' values, by attribute name.
    public init(values: [String: SnapshotValue]) {
        self.values = values
    }

    /// The preserved value of the attribute at `keyPath`, or `nil` when it was not preserved.
    public subscript<Value>(_ keyPath: KeyPath<Model, Value>) -> Value? {
        let description = ModelDescription.of(Model.self)
        guard let property = description.property(for: keyPath), let stored = values[property.name],
            case .attribute(let coding, _) = property.kind
        else { return nil }
        return (try? coding.value(from: stored)) as? Value
    }

    /// The preserved value of the attribute at `keyPath`, typed only at run time (SwiftData's
    /// spelling for code that holds key paths of several types: `tombstone[keyPath] as? UUID`),
    /// or `nil` when it was not preserved or was `nil`. (SwiftData's gives `(any Sendable)?`; a value of
    /// `Any` cannot be proven Sendable without a cast Swift warns about, and casts out of either
    /// read the same.)
    public subscript(_ keyPath: PartialKeyPath<Model>) -> Any? {
        let description = ModelDescription.of(Model.self)
        guard let property = description.property(for: keyPath), let stored = values[property.name],
            stored != .null, case .attribute(let coding, _) = property.kind
        else { return nil }
        return try? coding.value(from: stored)
    }

    /// The preserved attributes by name, with their values.
    public func makeIterator() -> Dictionary<String, SnapshotValue>.Iterator { values.makeIterator() }
}
