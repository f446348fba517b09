import Foundation
import Testing
import TripDocCore
import TripDocJSON
import TripDocTestSupport

/// A stream writer takes each entity's snapshots in primary-key order (numbers by value, before
/// other keys) and refuses one that comes before the previous: the caller then converts in
/// memory. Equal keys pass (a duplicate is the integrity check's to report).
@Suite struct DocumentStreamOrderTests {
    /// Writes snapshots of `E` with `keys`, in that order, through a JSON stream writer.
    func write(_ keys: [String]) throws {
        let document = SpecialCharacterStrings.document(of: [])
        var writer = JSONFormat().makeStreamWriter { _ in }
        try writer.begin(header: document.header, schema: document.schema, history: document.history)
        try writer.beginEntity(document.schema.entities[0])
        for key in keys {
            try writer.add(
                DefaultSnapshot(
                    persistentIdentifier: PersistentIdentifier(storeIdentifier: "STORE", entityName: "E", primaryKey: key),
                    values: ["s": .string("x")]))
        }
        try writer.endEntity()
        try writer.finish()
    }

    @Test(arguments: [
        ["1", "2", "10", "99999999999999999", "999999999999999999", "1000000000000000000", "01", "a", "b"],
        ["7", "7"],
        ["a", "a", "b"],
    ])
    func keysInOrderAreWritten(keys: [String]) throws {
        try write(keys)
    }

    @Test(arguments: [
        (["10", "9"], "E/9 comes after E/10"),
        (["1000000000000000000", "999999999999999999"], "E/999999999999999999 comes after E/1000000000000000000"),
        (["a", "1"], "E/1 comes after E/a"),
        (["01", "2"], "E/2 comes after E/01"),
        (["b", "a"], "E/a comes after E/b"),
    ])
    func aKeyBeforeThePreviousIsRefused(keys: [String], message: String) {
        #expect {
            try write(keys)
        } throws: { error in
            (error as? DocumentStreamOrderError).map { $0.message.hasSuffix(message) } ?? false
        }
    }
}
