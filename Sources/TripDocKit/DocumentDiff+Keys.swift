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
        for entity in differences {
            for snapshot in entity.added + entity.removedInTermsOfB { snapshot.values.values.forEach(note) }
            for object in entity.changed {
                for change in object.relationships {
                    note(change.old)
                    note(change.new)
                }
            }
        }
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
