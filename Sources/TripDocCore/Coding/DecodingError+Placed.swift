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
}
