/// Reads a compressed byte source as DEFLATE's bit stream: bits of each byte least
/// significant first (RFC 1951 §3.1.1), buffered 57 to 64 at a time so that most reads are
/// a shift and a mask. The input buffer is freed by the owner with `deallocate()`.
struct BitReader<Source: ByteSource> {
    private static var inputCapacity: Int { 64 << 10 }

    private var source: Source
    private let input: UnsafeMutablePointer<UInt8>
    private var inputCount = 0
    private var inputPosition = 0
    /// Bytes of the source before `input[0]`.
    private var inputOffset: Int64 = 0
    /// The buffered bits, the next one lowest; bits above `count` are zero.
    private(set) var buffer: UInt64 = 0
    private(set) var count = 0

    init(source: Source) {
        self.source = source
        input = .allocate(capacity: Self.inputCapacity)
    }

    func deallocate() {
        input.deallocate()
    }

    /// The offset in the source of the byte holding the next unread bit, for messages.
    var byteOffset: Int64 { inputOffset + Int64(inputPosition) - Int64(count / 8) }

    /// Buffers at least `wanted` bits (at most 57), or all that are left when the input
    /// ends first. Amortised O(1).
    @inline(__always)
    mutating func fill(_ wanted: Int) throws(InflateError) {
        while count < wanted {
            while count <= 56, inputPosition < inputCount {
                buffer |= UInt64(input[inputPosition]) &<< UInt64(count)
                inputPosition += 1
                count += 8
            }
            if count >= wanted { return }
            guard try refillInput() else { return }
        }
    }

    /// Consumes and returns the next `width` bits (at most 32), the first one lowest.
    @inline(__always)
    mutating func bits(_ width: Int) throws(InflateError) -> UInt32 {
        if count < width { try fill(width) }
        guard count >= width else { throw .endOfInput }
        let value = UInt32(truncatingIfNeeded: buffer & ((1 &<< UInt64(width)) &- 1))
        drop(width)
        return value
    }

    @inline(__always)
    mutating func drop(_ width: Int) {
        buffer &>>= UInt64(width)
        count -= width
    }

    /// Skips to the next byte boundary (before stored blocks and gzip trailers).
    mutating func alignToByte() {
        drop(count & 7)
    }

    /// Whether the input is used up (call on a byte boundary).
    mutating func isAtEnd() throws(InflateError) -> Bool {
        try fill(8)
        return count == 0
    }

    private mutating func refillInput() throws(InflateError) -> Bool {
        inputOffset += Int64(inputCount)
        inputPosition = 0
        inputCount = 0
        do {
            inputCount = try source.read(into: UnsafeMutableRawBufferPointer(start: input, count: Self.inputCapacity))
        } catch {
            throw .source(error)
        }
        return inputCount > 0
    }
}
