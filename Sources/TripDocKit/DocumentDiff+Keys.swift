import Foundation
import TripDoc

extension DocumentDiff.Comparison {
    /// Per entity, B's primary key → A's for every matched pair whose keys differ (none when
    /// both documents are one store matched by key).
    func differingKeys() -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for (entity, matches) in pairs {
            let fromA = aSnapshots[entity] ?? []
            let fromB = bSnapshots[entity] ?? []
            for (i, j) in matches where fromA[i].primaryKey != fromB[j].primaryKey {
                result[entity, default: [:]][fromB[j].primaryKey] = fromA[i].primaryKey
            }
        }
        return result
    }
}
