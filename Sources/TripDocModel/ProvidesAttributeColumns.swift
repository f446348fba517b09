import Foundation
import TripDocCore

/// A store that can give a context an entity's snapshots in document order with the values one
/// attribute holds in them, side by side (tripdoc's in-memory store): a fetch whose predicate
/// bounds an attribute that no `#Index` serves reads that column, in one pass over an array,
/// and looks at the snapshots of the values within the bounds only.
protocol ProvidesAttributeColumns: AnyObject {
    /// `entityName`'s snapshots in document order and, at the same positions, the value each
    /// holds for `attribute` (``SnapshotValue/null`` when it holds none); `nil` when the store
    /// keeps no columns.
    func attributeColumn(of entityName: String, attribute: String) -> AttributeColumn?
}

/// An entity's snapshots in document order and one attribute's values in them (see
/// ``ProvidesAttributeColumns``).
struct AttributeColumn {
    /// The snapshots, in document order.
    var snapshots: [DefaultSnapshot]
    /// The attribute's value in each snapshot, at the same positions.
    var values: [SnapshotValue]

    /// The snapshots whose value is within `range`, in document order: every snapshot a
    /// predicate that requires the range can match (see ``AttributeRange/contains(_:)``).
    func snapshots(within range: AttributeRange) -> [DefaultSnapshot] {
        var selected: [DefaultSnapshot] = []
        for index in values.indices where range.contains(values[index]) { selected.append(snapshots[index]) }
        return selected
    }
}
