#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of a text input, without its `\n`. `bytes` is valid until the next `nextLine()`,
/// and `PackedName.padding` bytes after it are readable (with unspecified values).
struct Line {
    var bytes: UnsafeRawBufferPointer
    /// 1-based line number.
    var number: Int
    /// Whether a `\n` ended the line; only the last line of a file can lack one.
    var isTerminated: Bool
}

/// Splits a byte source into lines, reading it in fixed-size chunks.
///
/// Memory is one buffer that holds a chunk plus the line that crosses into it; it grows
/// only for a line longer than the buffer, up to `maximumLineLength`. Lines are handed out
/// in place, without copying. O(n) in the input: each byte is searched once (`memchr`), and
/// moved once if its line crosses a chunk boundary (plus amortised copies when the buffer
/// grows).
struct LineReader<Source: ByteSource>: ~Copyable {
    /// The longest line accepted: a bound on memory for hostile inputs.
    static var maximumLineLength: Int { 64 << 20 }

    private var source: Source
    private let path: String
    private let chunkSize: Int
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// Start of the line being assembled.
    private var lineStart = 0
    /// End of the bytes read so far.
    private var filled = 0
    /// Where the search for the next `\n` resumes.
    private var searchFrom = 0
    private var reachedEnd = false
    private var lineNumber = 0

    init(source: consuming Source, path: String, chunkSize: Int) {
        self.source = source
        self.path = path
        self.chunkSize = max(1, chunkSize)
        self.capacity = max(2 * self.chunkSize, 64)
        self.buffer = Self.allocate(capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// The lines returned so far.
    var linesRead: Int { lineNumber }

    /// The size of the whole input, when the source knows it.
    var sourceSize: Int? { source.size }

    /// The next line, or `nil` at the end of the input.
    mutating func nextLine() throws(ImportError) -> Line? {
        while true {
            if searchFrom < filled, let newline = memchr(buffer + searchFrom, 0x0A, filled - searchFrom) {
                let end = buffer.distance(to: UnsafeMutableRawPointer(newline))
                return takeLine(upTo: end, terminated: true)
            }
            searchFrom = filled
            if reachedEnd {
                return lineStart < filled ? takeLine(upTo: filled, terminated: false) : nil
            }
            try refill()
        }
    }

    private mutating func takeLine(upTo end: Int, terminated: Bool) -> Line {
        lineNumber += 1
        let line = Line(
            bytes: UnsafeRawBufferPointer(start: buffer + lineStart, count: end - lineStart),
            number: lineNumber, isTerminated: terminated)
        let next = terminated ? end + 1 : end
        lineStart = next
        searchFrom = next
        return line
    }

    /// Moves the unfinished line to the front, makes room if it fills the buffer, and reads
    /// the next chunk after it.
    private mutating func refill() throws(ImportError) {
        if lineStart > 0 {
            let pending = filled - lineStart
            if pending > 0 { memmove(buffer, buffer + lineStart, pending) }
            filled = pending
            searchFrom -= lineStart
            lineStart = 0
        }
        if filled == capacity {
            guard capacity < Self.maximumLineLength else {
                throw .badData(
                    path: path, location: "line \(lineNumber + 1), column 1",
                    reason: "line is longer than \(Self.maximumLineLength >> 20) MiB")
            }
            let grown = Self.allocate(capacity * 2)
            grown.copyMemory(from: buffer, byteCount: filled)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        let space = UnsafeMutableRawBufferPointer(start: buffer + filled, count: min(chunkSize, capacity - filled))
        let count = try source.read(into: space)
        if count == 0 { reachedEnd = true }
        filled += count
        // Lines may be read up to `PackedName.padding` bytes past their end.
        (buffer + filled).initializeMemory(as: UInt8.self, repeating: 0, count: PackedName.padding)
    }

    /// A buffer of `capacity` bytes followed by `PackedName.padding` more.
    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer.allocate(byteCount: capacity + PackedName.padding, alignment: 16)
    }
}
