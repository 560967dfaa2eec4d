#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A window over the text of a Chrome trace, read in chunks, that holds at least the JSON
/// value being scanned whole.
///
/// A Chrome trace is often one long line, so it cannot be read line by line. Instead each
/// value (one event, or a top-level field such as `stackFrames`) is scanned from `position`;
/// if the scan runs into the end of the window before the end of the input, `readMore()`
/// drops the bytes before `position`, reads more (growing the window when the value is
/// larger than it) and the value is scanned again. Memory is one chunk plus about twice the
/// largest single value, which may be at most `maximumValueLength`. Line numbers for messages are kept
/// by counting the newlines of the bytes dropped, so errors name a line and column without
/// holding the file.
struct ChromeTextWindow<Source: ByteSource>: ~Copyable {
    /// The largest single JSON value (event or top-level field) held: a bound on memory for
    /// hostile inputs.
    static var maximumValueLength: Int { 128 << 20 }

    private var source: Source
    let path: String
    private let chunkSize: Int
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// End of the bytes read into the window.
    private(set) var filled = 0
    /// The cursor: where the next value starts.
    var position = 0
    /// Whether the source has no more bytes.
    private(set) var reachedEnd = false
    /// Input bytes before the window's first byte.
    private var dropped: Int64 = 0
    /// Newlines among the dropped bytes, and the input offset of the line after the last one.
    private var droppedNewlines = 0
    private var droppedLineStart: Int64 = 0

    init(source: consuming Source, path: String, chunkSize: Int) {
        self.source = source
        self.path = path
        self.chunkSize = max(1, chunkSize)
        capacity = max(2 * self.chunkSize, 64)
        buffer = Self.allocate(capacity)
        Self.pad(buffer + 0)
    }

    deinit {
        buffer.deallocate()
    }

    /// The bytes read so far into the window, followed by `PackedName.padding` zero bytes
    /// (as `JSONScanner` needs).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: filled) }

    /// The size of the input, when the source knows it.
    var sourceSize: Int? { source.size }

    /// Skips whitespace, reading more as needed; the byte at `position` after it, or nil at
    /// the end of the input.
    mutating func nextSignificant() throws(ImportError) -> UInt8? {
        while true {
            while position < filled {
                let byte = buffer.load(fromByteOffset: position, as: UInt8.self)
                if !ASCII.isBlank(byte) { return byte }
                position += 1
            }
            guard try readMore() else { return nil }
        }
    }

    /// Drops the bytes before `position` and reads more after the rest: a chunk, or as many
    /// bytes as the rest holds when that is more, growing the window as needed. Since a value
    /// that did not fit is scanned again from its start, doubling what is read keeps the
    /// rescans of a long value to O(its length). False (and nothing read) at the end of the
    /// input.
    ///
    /// - Throws: `ImportError.badData` when the value at `position` would exceed
    ///   `maximumValueLength`; whatever the source throws.
    mutating func readMore() throws(ImportError) -> Bool {
        guard !reachedEnd else { return false }
        if position > 0 {
            countNewlines(before: position)
            let kept = filled - position
            if kept > 0 { buffer.copyMemory(from: buffer + position, byteCount: kept) }
            dropped += Int64(position)
            filled = kept
            position = 0
        }
        guard filled < Self.maximumValueLength else {
            throw .badData(
                path: path, location: location(of: 0),
                reason: "a single JSON value is longer than \(Self.maximumValueLength >> 20) MiB")
        }
        // Doubling stops at the limit, so that the window never holds more than it.
        let wanted = min(max(chunkSize, filled), Self.maximumValueLength - filled)
        if capacity - filled < wanted {
            var grownCapacity = capacity
            while grownCapacity - filled < wanted { grownCapacity *= 2 }
            let grown = Self.allocate(grownCapacity)
            grown.copyMemory(from: buffer, byteCount: filled)
            buffer.deallocate()
            buffer = grown
            capacity = grownCapacity
        }
        var read = 0
        while read < wanted {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: wanted - read))
            if count == 0 {
                reachedEnd = true
                break
            }
            filled += count
            read += count
        }
        Self.pad(buffer + filled)
        return read > 0
    }

    /// `line L, column C` of the byte at `offset` in the window (see `TextLocator`).
    func location(of offset: Int) -> String {
        locator.location(of: offset)
    }

    /// Finds lines and columns in the window as it is now; valid until the next `readMore()`.
    var locator: TextLocator {
        TextLocator(
            bytes: UnsafeRawBufferPointer(start: buffer, count: filled), dropped: dropped,
            droppedNewlines: droppedNewlines, droppedLineStart: droppedLineStart)
    }

    private mutating func countNewlines(before end: Int) {
        var from = 0
        while from < end, let found = memchr(buffer + from, Int32(ASCII.newline), end - from) {
            let index = buffer.distance(to: UnsafeMutableRawPointer(found))
            droppedNewlines += 1
            droppedLineStart = dropped + Int64(index) + 1
            from = index + 1
        }
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer.allocate(byteCount: capacity + PackedName.padding, alignment: 16)
    }

    private static func pad(_ end: UnsafeMutableRawPointer) {
        end.initializeMemory(as: UInt8.self, repeating: 0, count: PackedName.padding)
    }
}

/// Turns an offset in a `ChromeTextWindow` into a line and column of the input.
struct TextLocator {
    let bytes: UnsafeRawBufferPointer
    let dropped: Int64
    let droppedNewlines: Int
    let droppedLineStart: Int64

    /// `line L, column C` of the byte at `offset`, both 1-based, the column in bytes. O(offset).
    func location(of offset: Int) -> String {
        var newlines = droppedNewlines
        var lineStart = droppedLineStart
        for index in 0..<min(offset, bytes.count) where bytes[index] == ASCII.newline {
            newlines += 1
            lineStart = dropped + Int64(index) + 1
        }
        return "line \(newlines + 1), column \(dropped + Int64(offset) - lineStart + 1)"
    }
}
