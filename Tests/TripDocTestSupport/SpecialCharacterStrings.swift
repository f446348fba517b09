import Foundation
import TripDocCore

/// Documents of strings with a character that needs care (escaping, validation) at every place
/// in them: readers and writers scan text eight bytes at a time, and whatever falls at any place
/// in a word must come out as when it was scanned byte by byte.
public enum SpecialCharacterStrings {
    /// Every string of 1 to 20 characters made of `a`s, `special` and `b`s, `special` at each place.
    public static func strings(with special: String) -> [String] {
        (1...20).flatMap { length in
            (0..<length).map { place in
                String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place - 1)
            }
        }
    }

    /// A document of one entity `E` with a string attribute `s`, a snapshot per string.
    public static func document(of strings: [String]) -> Document {
        let schema = Schema([Schema.Entity(name: "E", attributes: [.init("s", .string)])])
        var document = Document.empty(schema: schema, storeIdentifier: "STORE")
        document.snapshots = strings.enumerated().map { index, text in
            DefaultSnapshot(
                persistentIdentifier: PersistentIdentifier(storeIdentifier: "STORE", entityName: "E", primaryKey: "\(index + 1)"),
                values: ["s": .string(text)])
        }
        return document
    }

    /// The strings of the document's snapshots, in primary key order.
    public static func strings(in document: Document) -> [String?] {
        document.orderedSnapshots.map {
            if case .string(let text) = $0["s"] { text } else { nil }
        }
    }
}
