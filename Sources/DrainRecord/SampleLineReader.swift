#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainTrace

/// Reads back the sample lines the recorder wrote to its scratch file, one line at a time
/// from a fixed buffer, with each line's time, for merging them with strace's events.
struct SampleLineReader {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(descriptor: Int32, path: String, chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        self.path = path
        buffer = [UInt8](repeating: 0, count: chunkSize)
        lseek(descriptor, 0, SEEK_SET)
    }

    /// Consumes the next line and calls `body` with it (its `\n` included) and its `t` in
    /// nanoseconds. Returns false, calling nothing, at the end of the file.
    mutating func next(_ body: (UnsafeRawBufferPointer, Nanoseconds) throws(RecordError) -> Void) throws(RecordError) -> Bool {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let time = Self.time(buffer[start..<newline])
                let range = start..<(newline + 1)
                start = newline + 1
                let failure: RecordError? = buffer.withUnsafeBytes { bytes in
                    do throws(RecordError) {
                        try body(UnsafeRawBufferPointer(rebasing: bytes[range]), time)
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure { throw failure }
                return true
            }
            guard !atEnd else { return false }
            try refill()
        }
    }

    /// The time of the line at the head of the reader without consuming it; nil at the end.
    mutating func peekTime() throws(RecordError) -> Nanoseconds? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                return Self.time(buffer[start..<newline])
            }
            guard !atEnd else { return nil }
            try refill()
        }
    }

    private mutating func refill() throws(RecordError) {
        if start > 0 {
            buffer.withUnsafeMutableBytes { bytes in
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: end - start)
            }
            end -= start
            start = 0
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + end, $0.count - end) }
        if count < 0 {
            if errno == EINTR { return }
            throw .cannotWrite(path: path, reason: RecordError.reason(errno))
        }
        if count == 0 { atEnd = true }
        end += count
    }

    /// The `t` of a line the recorder wrote: `{"t":SECONDS,…` with up to nine decimals.
    static func time(_ line: ArraySlice<UInt8>) -> Nanoseconds {
        var index = line.startIndex + 5
        var whole: Int64 = 0
        while index < line.endIndex, ProcText.isDigit(line[index]) {
            whole = whole * 10 + Int64(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1_000_000_000
        if index < line.endIndex, line[index] == UInt8(ascii: ".") {
            index += 1
            while index < line.endIndex, ProcText.isDigit(line[index]), scale > 1 {
                scale /= 10
                fraction += Int64(line[index] - UInt8(ascii: "0")) * scale
                index += 1
            }
        }
        return whole * 1_000_000_000 + fraction
    }
}
#endif
