import Foundation
import Testing
import TripDocCore

/// The writers' byte buffer: what is appended comes back in order, whatever the growth, and a
/// copy is a value of its own.
@Suite struct ByteBufferTests {
    func text(_ buffer: ByteBuffer) -> String { buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func appendsComeBackInOrderAcrossGrowth() {
        var buffer = ByteBuffer(capacity: 4)
        var expected = ""
        for index in 0..<2_000 {
            buffer.append("<key>")
            buffer.append(utf8: "é\(index)")
            buffer.append(UInt8(ascii: ";"))
            expected += "<key>é\(index);"
        }
        #expect(text(buffer) == expected)
        #expect(buffer.count == expected.utf8.count)
        #expect(buffer.last == UInt8(ascii: ";"))
        #expect(buffer.data == Data(expected.utf8))
    }

    @Test func textBetweenTwoLiteralsComesBackInOrderAcrossGrowthAndInACopyAlone() {
        var buffer = ByteBuffer(capacity: 4)
        var expected = ""
        for index in 0..<500 {
            let value = String(repeating: "é", count: index % 7) + "\(index)"
            value.withUTF8Bytes { buffer.append("<string>", $0, "</string>") }
            buffer.append("\"", UnsafeBufferPointer(start: nil, count: 0), "\"")  // nothing between
            expected += "<string>\(value)</string>\"\""
        }
        #expect(text(buffer) == expected)
        #expect(buffer.count == expected.utf8.count)
        let shared = buffer
        "copy".withUTF8Bytes { buffer.append("<", $0, ">") }
        #expect(text(buffer) == expected + "<copy>")
        #expect(text(shared) == expected)
    }

    @Test func decimalsAreWrittenInFull() {
        var buffer = ByteBuffer()
        for value in [Int64.min, -1, 0, 7, Int64.max] {
            buffer.appendDecimal(value)
            buffer.append(" ")
        }
        buffer.appendDecimal(UInt64.max)
        #expect(text(buffer) == "-9223372036854775808 -1 0 7 9223372036854775807 18446744073709551615")
    }

    @Test func aCopyChangesAlone() {
        var original = ByteBuffer(capacity: 64)
        original.append("shared")
        var copy = original
        copy.append("+copy")
        original.append("+original")
        #expect(text(original) == "shared+original")
        #expect(text(copy) == "shared+copy")
        var emptied = copy
        emptied.removeAll(keepingCapacity: true)
        emptied.append("new")
        #expect(text(copy) == "shared+copy")
        #expect(text(emptied) == "new")
    }

    @Test func anEmptyBufferHasNoLastByte() {
        var buffer = ByteBuffer()
        #expect(buffer.isEmpty && buffer.last == nil)
        buffer.append("x")
        buffer.removeAll()
        #expect(buffer.isEmpty && buffer.last == nil && text(buffer) == "")
    }
}
