/// Decodes DEFLATE streams (RFC 1951) incrementally into a window of output: stored, fixed
/// and dynamic Huffman blocks, back-references up to 32 KiB.
///
/// The window holds the last 32 KiB of output (what back-references may reach) followed by
/// newly decoded bytes; `decode()` fills it and returns the new bytes, which stay valid
/// until the next call. Memory is fixed: the window, two lookup tables of 64 KiB and the
/// input buffer. O(n) in output bytes.
final class Inflater<Source: ByteSource> {
    /// How far back a DEFLATE back-reference may reach.
    static var historySize: Int { 32 << 10 }
    /// The longest back-reference.
    private static var longestMatch: Int { 258 }
    private static var windowCapacity: Int { historySize + (256 << 10) }

    var bits: BitReader<Source>
    private var literals = HuffmanTable()
    private var distances = HuffmanTable()
    private let window: UnsafeMutablePointer<UInt8>
    private var windowCount = 0
    /// Code lengths read for a dynamic block (literal/length then distance codes).
    private let lengths: UnsafeMutablePointer<UInt8>
    private var state = State.blockHeader
    private var isLastBlock = false

    private enum State {
        case blockHeader
        case stored(remaining: Int)
        case huffman
        case finished
    }

    init(source: Source) {
        bits = BitReader(source: source)
        window = .allocate(capacity: Self.windowCapacity)
        lengths = .allocate(capacity: 320)
    }

    deinit {
        bits.deallocate()
        literals.deallocate()
        distances.deallocate()
        window.deallocate()
        lengths.deallocate()
    }

    /// Whether the final block of the stream has been decoded.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Starts a new stream (the next gzip member): no history carries over.
    func reset() {
        state = .blockHeader
        isLastBlock = false
        windowCount = 0
    }

    /// Decodes more output; returns the new bytes (empty once the stream is finished).
    func decode() throws(InflateError) -> UnsafeBufferPointer<UInt8> {
        if windowCount > Self.historySize {
            // Keep only what back-references may reach (memmove: the ranges may overlap).
            UnsafeMutableRawPointer(window).copyMemory(from: window + (windowCount - Self.historySize), byteCount: Self.historySize)
            windowCount = Self.historySize
        }
        let start = windowCount
        blocks: while windowCount <= Self.windowCapacity - Self.longestMatch {
            switch state {
            case .finished:
                break blocks
            case .blockHeader:
                try readBlockHeader()
            case let .stored(remaining):
                let count = min(remaining, Self.windowCapacity - windowCount)
                for _ in 0..<count {
                    window[windowCount] = UInt8(truncatingIfNeeded: try bits.bits(8))
                    windowCount += 1
                }
                state = remaining == count ? endOfBlock : .stored(remaining: remaining - count)
            case .huffman:
                try decodeHuffman()
            }
        }
        return UnsafeBufferPointer(start: window + start, count: windowCount - start)
    }

    private var endOfBlock: State { isLastBlock ? .finished : .blockHeader }

    private func readBlockHeader() throws(InflateError) {
        isLastBlock = try bits.bits(1) == 1
        switch try bits.bits(2) {
        case 0:
            bits.alignToByte()
            let length = Int(try bits.bits(16))
            let complement = Int(try bits.bits(16))
            guard length == ~complement & 0xFFFF else {
                throw .invalid("a stored block's length and its complement disagree")
            }
            state = length == 0 ? endOfBlock : .stored(remaining: length)
        case 1:
            try buildFixedTables()
            state = .huffman
        case 2:
            try readDynamicTables()
            state = .huffman
        default:
            throw .invalid("invalid block type 3")
        }
    }

    /// The codes of RFC 1951 §3.2.6.
    private func buildFixedTables() throws(InflateError) {
        for symbol in 0..<288 {
            lengths[symbol] = symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8
        }
        _ = literals.build(lengths: UnsafeBufferPointer(start: lengths, count: 288))
        for symbol in 0..<30 { lengths[symbol] = 5 }
        _ = distances.build(lengths: UnsafeBufferPointer(start: lengths, count: 30))
    }


    /// Reads a dynamic block's code lengths (RFC 1951 §3.2.7) and builds its two tables.
    private func readDynamicTables() throws(InflateError) {
        let literalCount = Int(try bits.bits(5)) + 257
        let distanceCount = Int(try bits.bits(5)) + 1
        let codeLengthCount = Int(try bits.bits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw .invalid("a dynamic block declares too many literal/length or distance codes")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[DeflateCodes.codeLengthOrder[index]] = UInt8(try bits.bits(3))
        }
        var codeLengths = HuffmanTable()
        defer { codeLengths.deallocate() }
        let valid = codeLengthLengths.withUnsafeBufferPointer { codeLengths.build(lengths: $0) }
        guard valid else { throw .invalid("over-subscribed code length code") }

        let total = literalCount + distanceCount
        var index = 0
        while index < total {
            let symbol = try Self.decodeSymbol(&bits, codeLengths)
            switch symbol {
            case 0..<16:
                lengths[index] = UInt8(symbol)
                index += 1
            case 16:
                guard index > 0 else { throw .invalid("a repeated code length with no length before it") }
                try repeatLength(lengths[index - 1], count: 3 + Int(try bits.bits(2)), at: &index, total: total)
            case 17:
                try repeatLength(0, count: 3 + Int(try bits.bits(3)), at: &index, total: total)
            default:
                try repeatLength(0, count: 11 + Int(try bits.bits(7)), at: &index, total: total)
            }
        }
        guard lengths[256] != 0 else { throw .invalid("a dynamic block without an end-of-block code") }
        guard literals.build(lengths: UnsafeBufferPointer(start: lengths, count: literalCount)) else {
            throw .invalid("over-subscribed literal/length code")
        }
        guard distances.build(lengths: UnsafeBufferPointer(start: lengths + literalCount, count: distanceCount)) else {
            throw .invalid("over-subscribed distance code")
        }
    }

    private func repeatLength(_ length: UInt8, count: Int, at index: inout Int, total: Int) throws(InflateError) {
        guard index + count <= total else { throw .invalid("code lengths repeat past the end of the list") }
        for offset in 0..<count { lengths[index + offset] = length }
        index += count
    }

    /// Decodes literals and back-references until the block ends or the window is full.
    private func decodeHuffman() throws(InflateError) {
        let limit = Self.windowCapacity - Self.longestMatch
        while windowCount <= limit {
            // Enough bits for the longest length code, its extra bits, the longest distance
            // code and its extra bits (15 + 5 + 15 + 13), so that the reads below rarely refill.
            if bits.count < 48 { try bits.fill(48) }
            let symbol = try Self.decodeSymbol(&bits, literals)
            if symbol < 256 {
                window[windowCount] = UInt8(truncatingIfNeeded: symbol)
                windowCount += 1
                continue
            }
            if symbol == 256 {
                state = endOfBlock
                return
            }
            let lengthCode = symbol - 257
            guard lengthCode < 29 else { throw .invalid("invalid length code \(symbol)") }
            let length = Int(DeflateCodes.lengthBase[lengthCode]) + Int(try bits.bits(Int(DeflateCodes.lengthExtra[lengthCode])))
            let distanceCode = try Self.decodeSymbol(&bits, distances)
            guard distanceCode < 30 else { throw .invalid("invalid distance code \(distanceCode)") }
            let distance =
                Int(DeflateCodes.distanceBase[distanceCode]) + Int(try bits.bits(Int(DeflateCodes.distanceExtra[distanceCode])))
            guard distance <= windowCount else {
                throw .invalid("a back-reference reaches \(distance) bytes back, before the start of the data")
            }
            // Byte by byte: a reference may overlap the bytes it produces (a run).
            var from = windowCount - distance
            for _ in 0..<length {
                window[windowCount] = window[from]
                windowCount += 1
                from += 1
            }
        }
    }

    /// Decodes one symbol of `table` from the stream.
    @inline(__always)
    private static func decodeSymbol(_ bits: inout BitReader<Source>, _ table: HuffmanTable) throws(InflateError) -> Int {
        if bits.count < table.maximumLength { try bits.fill(table.maximumLength) }
        let entry = table.entry(bits.buffer)
        let length = Int(entry & 15)
        guard length > 0 else { throw .invalid("invalid Huffman code") }
        guard length <= bits.count else { throw .endOfInput }
        bits.drop(length)
        return Int(entry >> 4)
    }
}

/// The constant code tables of DEFLATE, apart from `Inflater` since a generic type cannot
/// hold static stored properties.
private enum DeflateCodes {
    /// The order in which a dynamic block lists the code lengths of the code-length alphabet.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Base lengths and extra bits of length codes 257…285 (RFC 1951 §3.2.5).
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// Base distances and extra bits of distance codes 0…29.
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}
