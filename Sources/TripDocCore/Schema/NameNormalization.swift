import Foundation

/// The one rule for the Unicode spelling of names in documents (FORMATS 1.2): every name — a
/// declared name, a name that refers to one, any member name, a bundle's entry names — must be
/// in Unicode Normalization Form C *byte for byte*, and names are compared by their bytes.
///
/// Swift's `==` compares strings under canonical equivalence, a byte comparison does not; a
/// document with two spellings of one name (`"Café"` declared, `"Cafe\u{301}"` referring to it)
/// was matched one way here and the other way there, and lost the snapshots in between. Refusing
/// every name that is not in NFC makes the two comparisons agree: two NFC strings are
/// canonically equivalent exactly when their bytes are equal.
public enum NameNormalization {
    /// Whether `name`'s UTF-8 bytes are those of its Normalization Form C (Unicode's, as
    /// Foundation's `precomposedStringWithCanonicalMapping` gives it). ASCII always is.
    public static func isNFC(_ name: String) -> Bool {
        var name = name
        let isASCII = name.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
        return isASCII || name.utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8)
    }

    /// `name` as messages show it, every character outside printable ASCII written as its code
    /// point (`"Cafe\u{301}"`), so that two spellings that look alike on a terminal differ on it.
    public static func visible(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\\", scalar != "\"" {
                text.unicodeScalars.append(scalar)
            } else {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return text + "\""
    }

    /// The sentence a reader reports for a name that is not in NFC: what it is, and the
    /// spelling to write instead.
    public static func problem(with name: String, what: String = "the name") -> String {
        "\(what) \(visible(name)) is not in Unicode normalization form C (NFC); names are compared byte for "
            + "byte, so write it as \(visible(name.precomposedStringWithCanonicalMapping))"
    }
}
