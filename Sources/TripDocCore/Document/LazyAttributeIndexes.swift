import Foundation

/// The attribute indexes of a document holding only some entities
/// (``IndexedDocument/heldEntities``), each built when a fetch first asks for it: a fetch
/// without a predicate or sort on an indexed attribute never pays for one. Copies of the
/// document share what is built; the entities' snapshots never change once held.
final class LazyAttributeIndexes: @unchecked Sendable {
    private let lock = NSLock()
    private var built: [String: [String: AttributeIndex]] = [:]

    /// The index of `attribute` of `entityName`, built by `build` the first time it is asked for.
    func index(of entityName: String, attribute: String, build: () -> AttributeIndex) -> AttributeIndex {
        lock.withLock {
            if let index = built[entityName]?[attribute] { return index }
            let index = build()
            built[entityName, default: [:]][attribute] = index
            return index
        }
    }
}
