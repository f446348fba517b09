import Foundation

/// A growable buffer of bytes for the format writers, which append a tag, a key or a value at a
/// time, millions of times per document: appending is a capacity check and a copy, inlined into
/// the writer. (An `Array`'s `append(contentsOf:)` is a call into generic code that checks
/// uniqueness and capacity for every piece: a tenth of the plist writer's time.)
///
/// A value type: a copy that is changed gets bytes of its own.
public struct ByteBuffer {
    /// The bytes' memory. Its properties are constants (a buffer that grows gets new storage),
    /// so reading them needs no exclusivity check.
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }
    }

    @usableFromInline var storage: Storage
    @usableFromInline var byteCount = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 0) {
        storage = Storage(capacity: capacity)
    }

    /// How many bytes it holds.
    @inlinable public var count: Int { byteCount }
    /// Whether it holds no bytes.
    @inlinable public var isEmpty: Bool { byteCount == 0 }
    /// The last byte, if any.
    @inlinable public var last: UInt8? { byteCount == 0 ? nil : storage.base[byteCount - 1] }

    /// Makes room for `extra` more bytes, in storage of its own.
    @inlinable @inline(__always)
    mutating func prepareToAppend(_ extra: Int) {
        if _slowPath(storage.capacity - byteCount < extra || !isKnownUniquelyReferenced(&storage)) {
            grow(toHold: byteCount + extra)
        }
    }

    @usableFromInline @inline(never)
    mutating func grow(toHold needed: Int) {
        let doubled = isKnownUniquelyReferenced(&storage) ? 2 * storage.capacity : storage.capacity
        let grown = Storage(capacity: max(needed, doubled))
        grown.base.update(from: storage.base, count: byteCount)
        storage = grown
    }

    /// Appends a byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        prepareToAppend(1)
        storage.base[byteCount] = byte
        byteCount += 1
    }

    /// Appends `bytes`.
    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        prepareToAppend(bytes.count)
        (storage.base + byteCount).update(from: source, count: bytes.count)
        byteCount += bytes.count
    }

    /// Appends `bytes`.
    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends the bytes of a literal.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text` between two literals — a tag, its text and its end tag; a string and its
    /// quotes — making room once (each append checks the storage's capacity and that it is not
    /// shared, a call into the runtime).
    @inlinable @inline(__always)
    public mutating func append(_ prefix: StaticString, _ text: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) {
        let prefixCount = prefix.utf8CodeUnitCount
        let suffixCount = suffix.utf8CodeUnitCount
        prepareToAppend(prefixCount + text.count + suffixCount)
        var end = storage.base + byteCount
        end.update(from: prefix.utf8Start, count: prefixCount)
        end += prefixCount
        if let source = text.baseAddress { end.update(from: source, count: text.count) }
        end += text.count
        end.update(from: suffix.utf8Start, count: suffixCount)
        byteCount += prefixCount + text.count + suffixCount
    }

    /// Appends the UTF-8 of `text`.
    @inlinable
    public mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, with a leading `-` when it is negative.
    public mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends the decimal digits of `value`.
    public mutating func appendDecimal(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Empties the buffer, keeping its storage when `keepingCapacity` (and it has it alone).
    public mutating func removeAll(keepingCapacity: Bool = false) {
        if !keepingCapacity || !isKnownUniquelyReferenced(&storage) { storage = Storage(capacity: 0) }
        byteCount = 0
    }

    /// Calls `body` with the bytes.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: byteCount))
    }

    /// The bytes, copied.
    public var data: Data { withUnsafeBytes { Data($0) } }
}
