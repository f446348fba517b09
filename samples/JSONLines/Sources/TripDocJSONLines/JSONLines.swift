import Foundation
import TripDoc

/// The lines of a JSON Lines document, each decoded by a `JSONReader` of its own, with errors
/// placed on the line in the file.
struct JSONLines {
    let bytes: UnsafeRawBufferPointer
    let file: String
    let limits: DocumentLimits
    /// Where the next line starts.
    private var offset = 0
    /// The 1-based number of the line last returned.
    private(set) var number = 0

    init(bytes: UnsafeRawBufferPointer, file: String, limits: DocumentLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    /// The next line's bytes (without its newline), or `nil` at the end of the file.
    mutating func next() -> UnsafeRawBufferPointer? {
        guard offset < bytes.count else { return nil }
        let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        defer { offset = end + 1 }
        number += 1
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }

    /// Decodes `line` (the one last returned) with `body`, which gets a reader over it. An error
    /// is reported on the line's number: a reader over one line counts from line 1.
    func decode<T>(_ line: UnsafeRawBufferPointer, _ body: (inout JSONReader) throws -> T) throws -> T {
        do {
            var reader = JSONReader(bytes: line, limits: limits)
            let value = try body(&reader)
            return value
        } catch var error as DocumentReadError {
            error.location = SourceLocation(line: number, column: error.location?.column)
            throw error
        } catch let error as StructuredReadError {
            throw DocumentReadError(
                file: file, location: SourceLocation(line: number, column: error.location.column), message: error.message,
                hint: error.hint ?? "The file is damaged or is not a tripdoc JSON Lines document")
        }
    }

    /// Decodes the next line, which must hold `what`, with `body`.
    mutating func decodeNext<T>(_ what: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        guard let line = next() else {
            throw DocumentReadError(
                file: file, location: SourceLocation(line: number + 1),
                message: "the document ends before \(what), which line \(number + 1) holds",
                hint: "The file is cut short or is not a tripdoc JSON Lines document")
        }
        return try decode(line, body)
    }
}
