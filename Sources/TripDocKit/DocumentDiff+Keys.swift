import Foundation
import TripDoc

extension DocumentDiff.Comparison {
    /// Per entity, B's primary key → A's for the matched pairs whose keys differ and whose B
    /// object `differences` refer to (none when both documents are one store).
    func differingKeys(referencedBy differences: [DocumentDiff.EntityDifferences]) -> [String: [String: String]] {
        guard a.storeIdentifier != b.storeIdentifier else { return [:] }
        var referenced: [String: Set<String>] = [:]
        func note(_ value: SnapshotValue) {
            for target in value.referencedIdentifiers where target.storeIdentifier == b.storeIdentifier {
                referenced[target.entityName, default: []].insert(target.primaryKey)
            }
        }
        DocumentDiff.forEachReferringValue(in: differences, note)
        var result: [String: [String: String]] = [:]
        for (entity, keys) in referenced {
            let fromA = aSnapshots[entity] ?? []
            let fromB = bSnapshots[entity] ?? []
            for (i, j) in pairs[entity] ?? [] where keys.contains(fromB[j].primaryKey) && fromA[i].primaryKey != fromB[j].primaryKey {
                result[entity, default: [:]][fromB[j].primaryKey] = fromA[i].primaryKey
            }
        }
        return result
    }
}

extension DocumentDiff {
    /// Calls `body` with every value in `differences` that may refer to B's objects: the values
    /// of added objects and of removed ones in B's terms, and the old and new values of changed
    /// relationships.
    static func forEachReferringValue(in differences: [EntityDifferences], _ body: (SnapshotValue) -> Void) {
        for entity in differences {
            for snapshot in entity.added + entity.removedInTermsOfB { snapshot.forEachValue { body($1) } }
            for object in entity.changed {
                for change in object.relationships {
                    body(change.old)
                    body(change.new)
                }
            }
        }
    }

    /// Pairs the positions of equal keys of two lists in primary-key order (`countA` keys read
    /// by `keyA`, `countB` by `keyB`), walking both together.
    static func pairEqualKeys(
        _ countA: Int, _ keyA: (Int) -> String, _ countB: Int, _ keyB: (Int) -> String, _ pair: (Int, Int) -> Void
    ) {
        var i = 0
        var j = 0
        while i < countA, j < countB {
            let x = keyA(i)
            let y = keyB(j)
            if x == y {
                pair(i, j)
                i += 1
                j += 1
            } else if PrimaryKeyOrder.precedes(x, y) {
                i += 1
            } else {
                j += 1
            }
        }
    }
}
