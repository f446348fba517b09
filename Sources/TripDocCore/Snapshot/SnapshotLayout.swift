import Synchronization

/// The property names a ``DefaultSnapshot`` holds values for, in one order shared by every
/// snapshot with the same names: so that a snapshot keeps only its values, in an array, and
/// finds a value by position where its maker and its reader agree on the layout.
///
/// The order is the names' UTF-8 order, the order a document lists a snapshot's keys in
/// (``EntityCodingPlan``'s key order), so a record read from a document becomes a snapshot
/// without copying its values. Layouts are interned: two layouts of the same names are one
/// object (up to ``internedLimit`` distinct name lists), which makes the common comparison an
/// identity check.
package final class SnapshotLayout: Sendable {
    /// The names, in UTF-8 order, without duplicates.
    package let names: [String]
    /// Each name's position in ``names``.
    package let positions: [String: Int]

    private init(names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        positions.reserveCapacity(names.count)
        for (position, name) in names.enumerated() { positions[name] = position }
        precondition(positions.count == names.count, "a snapshot layout names each property once")
        self.positions = positions
    }

    /// The layout of no names.
    package static let empty = SnapshotLayout.of(namesInOrder: [])

    /// The most distinct name lists kept: past it, a layout is made for each request (equal
    /// layouts are then compared by their names), so that a process reading documents of
    /// endlessly varied schemas does not grow without bound. An entity's layout, which its
    /// coding plan and its models' description ask for once each, is kept up to four times as
    /// many: the layouts of snapshots built a value at a time do not crowd out the ones reads
    /// and models share.
    static let internedLimit = 4096

    private static let interned = Mutex<[[String]: SnapshotLayout]>([:])

    /// The layouts ``of(keysOf:)`` made or found last, most recent first: snapshots are built
    /// from dictionaries an entity at a time, so the layout a dictionary needs is nearly always
    /// one of a few, found without sorting its keys.
    private static let recent = Mutex<[SnapshotLayout]>([])

    /// How many layouts ``recent`` keeps.
    private static let recentLimit = 8

    /// The layout of `names`, which must be in UTF-8 order without duplicates; `isAnEntitys`
    /// for every property of an entity (kept past ``internedLimit``, up to four times it).
    package static func of(namesInOrder names: [String], isAnEntitys: Bool = false) -> SnapshotLayout {
        interned.withLock { table in
            if let layout = table[names] { return layout }
            let layout = SnapshotLayout(names: names)
            if table.count < (isAnEntitys ? 4 * internedLimit : internedLimit) { table[names] = layout }
            return layout
        }
    }

    /// The layout of `names`, in any order, without duplicates; `isAnEntitys` as for
    /// ``of(namesInOrder:isAnEntitys:)``.
    package static func of<Names: Sequence<String>>(names: Names, isAnEntitys: Bool = false) -> SnapshotLayout {
        of(namesInOrder: names.sorted(by: precedes), isAnEntitys: isAnEntitys)
    }

    /// The layout of `dictionary`'s keys and its values in that layout's order: what a snapshot
    /// built from a dictionary holds. A layout used recently is recognised by looking its names
    /// up in `dictionary`, which fetches the values at the same time; only a dictionary of other
    /// keys has its keys sorted and interned.
    package static func of<Value>(keysOf dictionary: [String: Value]) -> (layout: SnapshotLayout, values: [Value]) {
        let candidates = recent.withLock { $0 }
        for layout in candidates where layout.names.count == dictionary.count {
            if let values = layout.values(in: dictionary) { return (layout, values) }
        }
        let layout = of(names: dictionary.keys)
        recent.withLock { recent in
            if !recent.contains(where: { $0 === layout }) {
                recent.insert(layout, at: 0)
                if recent.count > recentLimit { recent.removeLast() }
            }
        }
        return (layout, layout.names.map { dictionary[$0]! })
    }

    /// `dictionary`'s value for each of ``names``, in order, or `nil` when one has none (with
    /// as many keys as names, `dictionary` then holds exactly these names).
    private func values<Value>(in dictionary: [String: Value]) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(names.count)
        for name in names {
            guard let value = dictionary[name] else { return nil }
            values.append(value)
        }
        return values
    }

    /// Whether `a` comes before `b` in a layout (UTF-8 order).
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Whether the two layouts hold the same names (the same object, when both are interned).
    package func isSame(as other: SnapshotLayout) -> Bool {
        self === other || names == other.names
    }

    /// This layout with `name` added; `position` is where its value goes.
    func adding(_ name: String) -> (layout: SnapshotLayout, position: Int) {
        let position = names.firstIndex { Self.precedes(name, $0) } ?? names.count
        var names = self.names
        names.insert(name, at: position)
        return (Self.of(namesInOrder: names), position)
    }

    /// This layout without the name at `position`.
    func removing(at position: Int) -> SnapshotLayout {
        var names = self.names
        names.remove(at: position)
        return Self.of(namesInOrder: names)
    }
}
