/// Each insert's permanent identifier in a save, and whether the save minted it (so that no
/// model held it before), in the order of the request's inserts — without copying the
/// identifiers the request already holds.
///
/// An insert that keeps the identifier minted ahead for it (``SaveChangesWorkspace/mintAhead(for:)``)
/// has that identifier, minted, and is noted by a flag: a bulk insert's list costs a byte per
/// model, not an identifier and a flag (40 bytes, 28 MB for 700,000 models). Read the list
/// with the request's identifiers of the inserts, in their order (``resolved(_:)``, ``Cursor``).
struct PendingInserts {
    /// For each insert, whether it keeps the identifier the request gave it, minted ahead.
    private var keepsRequestIdentifier: [Bool] = []
    /// The other inserts' permanent identifiers, in order, and whether the save minted them.
    private var listed: [(PersistentIdentifier, isMinted: Bool)] = []

    /// A list with room for `count` inserts.
    init(reservingCapacity count: Int) {
        keepsRequestIdentifier.reserveCapacity(count)
    }

    /// How many inserts the list holds.
    var count: Int { keepsRequestIdentifier.count }

    /// Notes the next insert, which keeps the identifier minted ahead for it.
    mutating func appendKeepingRequestIdentifier() {
        keepsRequestIdentifier.append(true)
    }

    /// Notes the next insert's permanent identifier, and whether the save minted it.
    mutating func append(_ identifier: PersistentIdentifier, isMinted: Bool) {
        keepsRequestIdentifier.append(false)
        listed.append((identifier, isMinted))
    }

    /// A place in the list, for reading it insert by insert beside the request's inserts
    /// (while they change, which a sequence over them would copy them for).
    struct Cursor {
        private var position = 0
        private var listedPosition = 0

        /// The permanent identifier of the next insert, which the request gave `requested`, and
        /// whether the save minted it.
        mutating func next(in inserts: PendingInserts, requested: PersistentIdentifier) -> (PersistentIdentifier, isMinted: Bool) {
            defer { position += 1 }
            if inserts.keepsRequestIdentifier[position] { return (requested, true) }
            defer { listedPosition += 1 }
            return inserts.listed[listedPosition]
        }
    }

    /// The inserts' permanent identifiers and whether the save minted each, given the identifiers
    /// the request gave them (`requested`, in order).
    func resolved<Requested: Sequence<PersistentIdentifier>>(_ requested: Requested) -> Resolved<Requested> {
        Resolved(inserts: self, requested: requested)
    }

    /// The list read beside the request's identifiers (see ``resolved(_:)``).
    struct Resolved<Requested: Sequence<PersistentIdentifier>>: Sequence {
        let inserts: PendingInserts
        let requested: Requested

        func makeIterator() -> Iterator { Iterator(inserts: inserts, requested: requested.makeIterator()) }

        struct Iterator: IteratorProtocol {
            let inserts: PendingInserts
            var requested: Requested.Iterator
            var cursor = Cursor()

            mutating func next() -> (PersistentIdentifier, isMinted: Bool)? {
                guard let identifier = requested.next() else { return nil }
                return cursor.next(in: inserts, requested: identifier)
            }
        }
    }
}
