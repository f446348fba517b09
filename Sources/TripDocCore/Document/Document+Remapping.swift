import Foundation

extension Document {
    /// The same document under another store identifier: every snapshot's identifier and every
    /// reference is rewritten consistently.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The new store's identifier.
    ///   - renumber: Give fresh primary keys `1, 2, 3, …` per entity, in document order;
    ///     otherwise each model keeps its primary key.
    /// - Returns: The new document and the old → new identifier map.
    public func remapped(
        toStore storeIdentifier: String, renumber: Bool = false
    ) -> (document: Document, identifiers: [PersistentIdentifier: PersistentIdentifier]) {
        var map: [PersistentIdentifier: PersistentIdentifier] = [:]
        map.reserveCapacity(snapshots.count)
        var nextKeys = header.nextPrimaryKeys
        if renumber { nextKeys = [:] }
        let ordered = orderedSnapshots
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
            map[old] = PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: old.entityName, primaryKey: key)
        }
        let remap: (PersistentIdentifier) -> PersistentIdentifier = { old in
            map[old]
                ?? PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: old.entityName, primaryKey: old.primaryKey)
        }
        var result = self
        result.header.storeIdentifier = storeIdentifier
        result.header.generator = TripDocVersion.generator
        result.header.nextPrimaryKeys = nextKeys
        result.snapshots = ordered.map { $0.remapped(remap) }
        return (result, map)
    }
}
