#if os(Linux)
/// Small scanners over `/proc` text, shared by its parsers. They read bytes in place and
/// never allocate.
enum ProcText {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// The unsigned decimal at `index` after any blanks, and the index after it; nil when
    /// there is no digit there or the number does not fit an `Int64`.
    static func number(_ bytes: UnsafeRawBufferPointer, from index: Int) -> (value: Int64, end: Int)? {
        var position = index
        while position < bytes.count, isBlank(bytes[position]) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { return nil }
        var value: Int64 = 0
        while position < bytes.count, isDigit(bytes[position]) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[position] &- UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = sum
            position += 1
        }
        return (value, position)
    }

    /// Calls `body` with each line (without its `\n`) and the line's start offset.
    static func forEachLine(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
        }
    }

    /// Whether `line` starts with `key` (e.g. `VmRSS:`).
    static func hasPrefix(_ line: UnsafeRawBufferPointer, _ key: StaticString) -> Bool {
        let count = key.utf8CodeUnitCount
        guard line.count >= count else { return false }
        let start = key.utf8Start
        for index in 0..<count where line[index] != start[index] { return false }
        return true
    }

    /// The number after `key` on a `Key:  value` line, or nil when the line is another key.
    static func value(_ line: UnsafeRawBufferPointer, key: StaticString) -> Int64? {
        guard hasPrefix(line, key) else { return nil }
        return number(line, from: key.utf8CodeUnitCount)?.value
    }
}
#endif
