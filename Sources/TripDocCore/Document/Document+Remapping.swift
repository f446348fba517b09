import Foundation

extension Document {
    /// The same document under another store identifier: every snapshot's identifier and every
    /// reference is rewritten consistently.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The new store's identifier.
    ///   - renumber: Give fresh primary keys `1, 2, 3, …` per entity, in document order;
    ///     otherwise each model keeps its primary key, and the new document records where it
    ///     came from (``DocumentHeader/derivedFrom``, from ``DocumentHeader/derivation(copyingTo:history:)``).
    /// - Returns: The new document and the old → new identifier map.
    public func remapped(
        toStore storeIdentifier: String, renumber: Bool = false
    ) -> (document: Document, identifiers: [PersistentIdentifier: PersistentIdentifier]) {
        var map: [PersistentIdentifier: PersistentIdentifier] = [:]
        map.reserveCapacity(snapshots.count)
        var nextKeys = header.nextPrimaryKeys
        if renumber { nextKeys = [:] }
        let ordered = orderedSnapshots
        // Models that are gone but named in history need identifiers too; with renumbering they
        // get keys after the live ones, so no two models ever share one.
        let live = Set(ordered.map(\.persistentIdentifier))
        var historyOnly: [PersistentIdentifier] = []
        var seenInHistory: Set<PersistentIdentifier> = []
        for transaction in history.transactions {
            for change in transaction.changes {
                let id = change.changedPersistentIdentifier
                if !live.contains(id), seenInHistory.insert(id).inserted { historyOnly.append(id) }
            }
        }
        let store = InternedName(storeIdentifier)
        for snapshot in ordered {
            let old = snapshot.persistentIdentifier
            let key: String
            if renumber {
                let next = nextKeys[old.entityName, default: 1]
                nextKeys[old.entityName] = next + 1
                key = String(next)
            } else {
                key = old.primaryKey
            }
            map[old] = old.moved(to: store, primaryKey: key)
        }
        for old in historyOnly.sorted() {
            var key = old.primaryKey
            if renumber {
                let next = nextKeys[old.entityName, default: 1]
                nextKeys[old.entityName] = next + 1
                key = String(next)
            }
            map[old] = old.moved(to: store, primaryKey: key)
        }
        let remap: (PersistentIdentifier) -> PersistentIdentifier = { old in
            map[old]
                ?? old.moved(to: store, primaryKey: old.primaryKey)
        }
        var result = self
        result.header.storeIdentifier = storeIdentifier
        result.header.generator = TripDocVersion.generator
        result.header.nextPrimaryKeys = nextKeys
        result.header.derivedFrom = renumber ? nil : header.derivation(copyingTo: storeIdentifier, history: history)
        result.snapshots = ordered.map { $0.remapped(remap) }
        result.history = history.remapped(remap)
        return (result, map)
    }
}
