import Foundation

/// The caps a reader enforces so that a hostile or damaged document fails fast, with a message
/// that names the cap, instead of exhausting memory or the stack.
///
/// Every format reads under one set of limits. The defaults admit any document tripdoc itself
/// writes on a 64-bit machine with memory to hold it; lower them for untrusted input, raise them
/// for documents larger than the defaults. On the command line each cap is `--max NAME=VALUE`
/// (the ``Cap`` raw values), in the API the matching property.
public struct DocumentLimits: Hashable, Sendable {
    /// The most bytes a document file may have; for a bundle also the most its entries may
    /// inflate to together (`document-size`).
    public var maximumDocumentSize: Int
    /// The most entries a bundle's zip archive may hold (`entry-count`).
    public var maximumEntryCount: Int
    /// The most snapshots a document may hold, all entities together (`snapshot-count`).
    public var maximumSnapshotCount: Int
    /// How deep objects and arrays may nest, the root object being level 1 (`nesting-depth`).
    public var maximumNestingDepth: Int
    /// The most bytes one string or data value may take in the file, as written (`string-length`).
    public var maximumStringLength: Int
    /// The most history transactions a document may hold (`history-length`).
    public var maximumHistoryLength: Int
    /// The highest ratio of inflated to compressed size a bundle entry larger than 1 MiB may
    /// have: a guard against zip bombs (`compression-ratio`).
    public var maximumCompressionRatio: Int

    /// Creates limits; each one left out has its ``standard`` value.
    public init(
        maximumDocumentSize: Int = 8 << 30, maximumEntryCount: Int = 100_000, maximumSnapshotCount: Int = 100_000_000,
        maximumNestingDepth: Int = 512, maximumStringLength: Int = 256 << 20, maximumHistoryLength: Int = 10_000_000,
        maximumCompressionRatio: Int = 200
    ) {
        self.maximumDocumentSize = maximumDocumentSize
        self.maximumEntryCount = maximumEntryCount
        self.maximumSnapshotCount = maximumSnapshotCount
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumStringLength = maximumStringLength
        self.maximumHistoryLength = maximumHistoryLength
        self.maximumCompressionRatio = maximumCompressionRatio
    }

    /// The limits tripdoc reads with unless told otherwise.
    public static let standard = DocumentLimits()

    /// One of the caps, named as users type it.
    public enum Cap: String, CaseIterable, Sendable {
        case documentSize = "document-size"
        case entryCount = "entry-count"
        case snapshotCount = "snapshot-count"
        case nestingDepth = "nesting-depth"
        case stringLength = "string-length"
        case historyLength = "history-length"
        case compressionRatio = "compression-ratio"

        /// The ``DocumentLimits`` property that holds this cap.
        public var propertyName: String {
            switch self {
            case .documentSize: "maximumDocumentSize"
            case .entryCount: "maximumEntryCount"
            case .snapshotCount: "maximumSnapshotCount"
            case .nestingDepth: "maximumNestingDepth"
            case .stringLength: "maximumStringLength"
            case .historyLength: "maximumHistoryLength"
            case .compressionRatio: "maximumCompressionRatio"
            }
        }

        /// What the cap counts, for help texts: "bytes of the document file".
        public var meaning: String {
            switch self {
            case .documentSize: "bytes of a document file, or of a bundle's entries inflated"
            case .entryCount: "entries of a bundle's zip archive"
            case .snapshotCount: "snapshots of a document"
            case .nestingDepth: "levels of nested objects and arrays"
            case .stringLength: "bytes of one string or data value"
            case .historyLength: "history transactions of a document"
            case .compressionRatio: "inflated-to-compressed ratio of a bundle entry over 1 MiB"
            }
        }

        /// Whether values of this cap are sizes in bytes (which accept `K`, `M` and `G`).
        public var isSize: Bool { self == .documentSize || self == .stringLength }

        /// What to do about a document over this cap.
        public var hint: String {
            "If the file is trusted, raise the limit: add --max \(rawValue)=N after the command's name "
                + "(tripdoc show --max \(rawValue)=N FILE), or DocumentLimits.\(propertyName) in the API"
        }
    }

    /// The value of `cap`.
    public subscript(cap: Cap) -> Int {
        get {
            switch cap {
            case .documentSize: maximumDocumentSize
            case .entryCount: maximumEntryCount
            case .snapshotCount: maximumSnapshotCount
            case .nestingDepth: maximumNestingDepth
            case .stringLength: maximumStringLength
            case .historyLength: maximumHistoryLength
            case .compressionRatio: maximumCompressionRatio
            }
        }
        set {
            switch cap {
            case .documentSize: maximumDocumentSize = newValue
            case .entryCount: maximumEntryCount = newValue
            case .snapshotCount: maximumSnapshotCount = newValue
            case .nestingDepth: maximumNestingDepth = newValue
            case .stringLength: maximumStringLength = newValue
            case .historyLength: maximumHistoryLength = newValue
            case .compressionRatio: maximumCompressionRatio = newValue
            }
        }
    }

    /// The sentence that says a document went over `cap`, with `subject` in place of the
    /// usual one: "objects and arrays nest deeper than the nesting-depth limit of 512 levels".
    public func exceededMessage(_ cap: Cap, subject: String? = nil) -> String {
        let limit = Self.format(self[cap], isSize: cap.isSize)
        return switch cap {
        case .documentSize: "\(subject ?? "the document") is larger than the document-size limit of \(limit) bytes"
        case .entryCount: "\(subject ?? "the archive") holds more than the entry-count limit of \(limit) entries"
        case .snapshotCount: "\(subject ?? "the document") holds more than the snapshot-count limit of \(limit) snapshots"
        case .nestingDepth: "\(subject ?? "objects and arrays") nest deeper than the nesting-depth limit of \(limit) levels"
        case .stringLength: "\(subject ?? "a string or data value") is longer than the string-length limit of \(limit) bytes"
        case .historyLength: "\(subject ?? "the history") holds more than the history-length limit of \(limit) transactions"
        case .compressionRatio:
            "\(subject ?? "the entry") inflates to more than the compression-ratio limit of \(limit) times its compressed size"
        }
    }

    /// The error a reader throws at `location` when a document goes over `cap`.
    public func exceeded(_ cap: Cap, at location: SourceLocation, subject: String? = nil) -> StructuredReadError {
        StructuredReadError(location: location, message: exceededMessage(cap, subject: subject), hint: cap.hint)
    }

    /// Throws when `size` bytes are more than the `document-size` limit allows.
    ///
    /// - Throws: ``DocumentReadError`` naming `file`.
    public func checkDocumentSize(_ size: Int, file: String) throws {
        guard size > maximumDocumentSize else { return }
        throw DocumentReadError(
            file: file, message: exceededMessage(.documentSize, subject: "the file (\(size) bytes)"),
            hint: Cap.documentSize.hint)
    }

    /// `value` as users write it: `8G`, `256M`, `1K` for whole binary units of sizes, else digits.
    public static func format(_ value: Int, isSize: Bool) -> String {
        guard isSize, value > 0 else { return String(value) }
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where value % (1 << shift) == 0 {
            return "\(value >> shift)\(suffix)"
        }
        return String(value)
    }

    /// Parses `NAME=VALUE` (as `--max` takes it) and sets that cap; sizes take a `K`, `M` or
    /// `G` suffix (powers of 1024).
    ///
    /// - Throws: ``DocumentLimitsError`` saying what was expected.
    public mutating func set(_ assignment: String) throws {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw DocumentLimitsError(message: "'\(assignment)' is not NAME=VALUE")
        }
        let name = String(assignment[..<equals])
        let text = String(assignment[assignment.index(after: equals)...])
        guard let cap = Cap(rawValue: name) else {
            throw DocumentLimitsError(
                message: "there is no limit called '\(name)'; the limits are "
                    + Cap.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var digits = Substring(text)
        var shift = 0
        if cap.isSize, let last = digits.last, let unit = ["K": 10, "M": 20, "G": 30, "T": 40][last.uppercased()] {
            shift = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
            number <= Int.max >> shift
        else {
            throw DocumentLimitsError(
                message: "the \(name) limit must be a positive whole number"
                    + (cap.isSize ? " of bytes, optionally with K, M, G or T" : "") + ", not '\(text)'")
        }
        self[cap] = number << shift
    }
}

/// A `--max` setting that could not be understood.
public struct DocumentLimitsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
