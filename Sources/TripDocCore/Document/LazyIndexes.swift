import Foundation

/// Indexes of an ``IndexedDocument`` that no save has kept up to date yet, each built when it
/// is first asked for: a document read for a fetch without a predicate or sort on an indexed
/// attribute, or for a save that changes no value a uniqueness constraint covers, never pays
/// for one. Copies of the document share what is built (their snapshots are the same); a save
/// takes what was built into the document it changes (``taken()``), which keeps those indexes
/// up to date from then on, and starts a new set.
///
/// Attribute indexes are keyed by attribute name (`LazyIndexes<String, AttributeIndex>`),
/// uniqueness indexes by constraint.
final class LazyIndexes<Key: Hashable, Index>: @unchecked Sendable {
    private let lock = NSLock()
    private var built: [String: [Key: Index]] = [:]

    /// The index `key` of `entityName`, built by `build` the first time it is asked for.
    func index(of entityName: String, _ key: Key, build: () -> Index) -> Index {
        lock.withLock {
            if let index = built[entityName]?[key] { return index }
            let index = build()
            built[entityName, default: [:]][key] = index
            return index
        }
    }

    /// The indexes built so far, by entity name and key.
    func taken() -> [String: [Key: Index]] {
        lock.withLock { built }
    }
}
