import Foundation

extension DecodingError {
    /// What went wrong and where, for a user rather than a Swift programmer: `at
    /// entries[3].size: expected Int (Expected to decode Int but found a string instead.)`,
    /// `at the top level: the member "format" is missing`. Used by the small JSON files tripdoc
    /// reads with `JSONDecoder` (a bundle's manifest, a remap table, a patch).
    public var placedDescription: String {
        func place(_ path: [any CodingKey]) -> String {
            guard !path.isEmpty else { return "the top level" }
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        switch self {
        case .typeMismatch(let type, let context):
            return "at \(place(context.codingPath)): expected \(type) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "at \(place(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "at \(place(context.codingPath)): the member \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "at \(place(context.codingPath)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(self)"
        }
    }

    /// ``placedDescription``, with the line and column of the first byte that is not JSON when
    /// `data` is not JSON at all (`JSONDecoder` on Linux says only "not valid JSON"):
    /// `at line 2, column 18: not valid JSON ("tokens": [1, 2,, 3]})`.
    public func placedDescription(in data: Data) -> String {
        guard case .dataCorrupted(let context) = self, context.codingPath.isEmpty,
            let offset = Self.syntaxErrorOffset(in: data)
        else { return placedDescription }
        let before = data.prefix(offset)
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { data.index(after: $0) } ?? data.startIndex
        let column = String(decoding: data[lineStart..<data.index(data.startIndex, offsetBy: offset)], as: UTF8.self).count + 1
        let lineEnd = data[lineStart...].firstIndex(of: 0x0A) ?? data.endIndex
        var text = String(decoding: data[lineStart..<lineEnd], as: UTF8.self)
        if text.count > 80 { text = String(text.prefix(80)) + "…" }
        return "at line \(line), column \(column): not valid JSON (\(text))"
    }

    /// Where `JSONSerialization` finds `data` stops being JSON (it says "around character N"),
    /// as a byte offset; `nil` when it reads `data` or does not say.
    private static func syntaxErrorOffset(in data: Data) -> Int? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            guard let range = text.range(of: "character "),
                let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
            else { return nil }
            return min(max(offset, 0), data.count)
        }
    }
}
