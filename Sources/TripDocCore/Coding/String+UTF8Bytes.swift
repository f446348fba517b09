extension String {
    /// Calls `body` with the string's UTF-8, read in place for a native or small string: unlike
    /// `withUTF8`, which needs a mutable copy (a reference counted on every call, and the writers
    /// call it for every key and value).
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
