import Foundation

/// The attribute indexes of an ``IndexedDocument`` that no save has kept up to date yet, each
/// built when a fetch first asks for it: a document read for a fetch without a predicate or sort
/// on an indexed attribute, or for a save, never pays for one. Copies of the document share what
/// is built (their snapshots are the same); a save takes what was built into the document it
/// changes (``taken()``), which keeps those indexes up to date from then on.
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

    /// The indexes built so far, by entity name and attribute.
    func taken() -> [String: [String: AttributeIndex]] {
        lock.withLock { built }
    }
}
