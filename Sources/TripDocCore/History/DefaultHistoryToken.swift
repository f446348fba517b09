import Foundation

/// A position in a store's history (SwiftData's `DefaultHistoryToken`): the store and the
/// identifier of a transaction. Tokens of one store are ordered; apps persist them and fetch
/// "what happened after my last token".
///
/// Its text form, `STORE:N`, can be pasted on a command line; it is also its `Codable` form.
public struct DefaultHistoryToken: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The store the token is valid for.
    public var storeIdentifier: String
    /// The transaction the token marks.
    public var transactionIdentifier: Int64

    /// Creates a token.
    public init(storeIdentifier: String, transactionIdentifier: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionIdentifier = transactionIdentifier
    }

    /// Parses `STORE:N`; `nil` for anything else.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let number = Int64(text[text.index(after: colon)...]),
            number >= 0, colon != text.startIndex
        else { return nil }
        self.init(storeIdentifier: String(text[..<colon]), transactionIdentifier: number)
    }

    /// `STORE:N`.
    public var description: String { "\(storeIdentifier):\(transactionIdentifier)" }

    /// Orders tokens of one store by transaction; tokens of different stores by store first
    /// (such a comparison means little, and fetching refuses foreign tokens).
    public static func < (lhs: DefaultHistoryToken, rhs: DefaultHistoryToken) -> Bool {
        if let recorder = comparisonRecorder {
            recorder.add(lhs)
            recorder.add(rhs)
        }
        if lhs.storeIdentifier != rhs.storeIdentifier { return lhs.storeIdentifier < rhs.storeIdentifier }
        return lhs.transactionIdentifier < rhs.transactionIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let token = DefaultHistoryToken(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a history token STORE:N, found '\(text)'")
        }
        self = token
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension DefaultHistoryToken {
    /// The tokens compared (with `<`, `>`, `<=`, `>=`) while a body runs.
    public final class ComparisonRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var tokens: [DefaultHistoryToken] = []

        func add(_ token: DefaultHistoryToken) { lock.withLock { tokens.append(token) } }

        /// The tokens compared so far, in order, each as often as it was compared.
        public var compared: [DefaultHistoryToken] { lock.withLock { tokens } }
    }

    @TaskLocal static var comparisonRecorder: ComparisonRecorder?

    /// Runs `body` and returns what it returns with every token compared on the way: how a
    /// store learns which token a history predicate (`#Predicate { $0.token > token }`) is
    /// after, so that it can refuse an expired one.
    public static func recordingComparisons<Result>(_ body: () throws -> Result) rethrows
        -> (result: Result, compared: [DefaultHistoryToken])
    {
        let recorder = ComparisonRecorder()
        let result = try $comparisonRecorder.withValue(recorder) { try body() }
        return (result, recorder.compared)
    }
}
